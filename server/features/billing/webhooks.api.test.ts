import { createHmac } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditLedger, payments, profiles, subscriptions, webhookEvents, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '#server/testing/create-test-app.ts'
import { checkoutUserToken } from './checkout-token.ts'
import { signPaddleBody } from './paddle-signature.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

const SECRET = 'pdl_ntfset_01_test_secret_for_webhooks'
let t: TestApp
let seq = 0
const next = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++seq}`

beforeAll(async () => {
  t = await createTestApp({ billing: { PADDLE_CLIENT_TOKEN: 'test_client_token', PADDLE_WEBHOOK_SECRET: SECRET } })
})
afterAll(async () => {
  await t.close()
})

function event(type: string, data: Record<string, unknown>, options: { id?: string; occurredAt?: Date } = {}) {
  return { event_id: options.id ?? next('evt'), event_type: type, occurred_at: (options.occurredAt ?? new Date()).toISOString(), data }
}

function subscription(
  userId: string,
  options: { id: string; status?: string; priceId?: string; cancelAt?: string; plan?: string; nextBilledAt?: string },
) {
  return {
    id: options.id,
    status: options.status ?? 'active',
    customer_id: 'ctm_test',
    custom_data: { user_id: userId, plan: options.plan ?? 'pro', user_token: checkoutUserToken(TEST_AUTH_SECRET, userId) },
    items: [{ price: { id: options.priceId ?? 'pro-monthly-plan' }, quantity: 1 }],
    next_billed_at: options.nextBilledAt ?? '2026-12-23T10:00:00.000Z',
    scheduled_change: options.cancelAt ? { action: 'cancel', effective_at: options.cancelAt } : null,
    management_urls: { update_payment_method: 'https://sandbox-customer-portal.paddle.com/update', cancel: null },
  }
}

function transaction(
  userId: string,
  options: {
    id: string
    subscriptionId?: string
    total?: string
    priceId?: string
    origin?: string
    /** Instead of one item of priceId: a plan change's items (the replaced one with quantity -1), with their proration. */
    items?: unknown[]
    totals?: Record<string, string>
  },
) {
  return {
    id: options.id,
    status: 'completed',
    customer_id: 'ctm_test',
    subscription_id: options.subscriptionId ?? null,
    origin: options.origin ?? 'web',
    currency_code: 'USD',
    custom_data: { user_id: userId, plan: 'pro', user_token: checkoutUserToken(TEST_AUTH_SECRET, userId) },
    items: options.items ?? [{ price: { id: options.priceId ?? 'pro-monthly-plan' }, quantity: 1 }],
    details: { totals: options.totals ?? { grand_total: options.total ?? '2900' } },
    payments: [{ method_details: { type: 'card', card: { type: 'visa', last4: '4242' } } }],
    billed_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
  }
}

async function deliver(body: unknown, options: { secret?: string; header?: string | null; at?: Date } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body)
  const header = options.header === undefined ? signPaddleBody(raw, options.secret ?? SECRET, options.at) : options.header
  return t.request('/api/webhooks/paddle', {
    method: 'POST',
    body: raw,
    headers: header === null ? {} : { 'Paddle-Signature': header },
  })
}

async function state(userId: string) {
  const [profile] = await t.db
    .select(profileColumns)
    .from(profiles)
    .innerJoin(workspaces, eq(workspaces.id, profiles.id))
    .where(eq(profiles.id, userId))
  const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, userId))
  const paid = await t.db.select().from(payments).where(eq(payments.workspaceId, userId))
  const subs = await t.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, userId))
  return { plan: profile?.subscriptionPlan, credits: profile?.credits, ledger, payments: paid, subscriptions: subs }
}

describe('POST /api/webhooks/paddle: a purchase', () => {
  it('subscription.created sets the plan and renewal date; transaction.completed records the payment and grants the credits', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    const created = await deliver(event('subscription.created', subscription(user.id, { id: subId })))
    expect(created.status).toBe(200)
    expect(await created.json()).toEqual({ received: true, outcome: 'applied' })
    let now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.subscriptions[0]).toMatchObject({ status: 'active', planSlug: 'pro', provider: 'paddle' })
    expect(now.subscriptions[0]?.nextBilledAt?.toISOString()).toBe('2026-12-23T10:00:00.000Z')

    const paid = await deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId })))
    expect(paid.status).toBe(200)
    now = await state(user.id)
    expect(now.payments).toHaveLength(1)
    expect(now.payments[0]).toMatchObject({ amount: 29, currency: 'USD', status: 'success', planSlug: 'pro' })
    expect(now.credits).toBe(5 + 1000)
    expect(now.ledger.find((row) => row.reason === 'plan_grant')).toMatchObject({ delta: 1000, balanceAfter: 1005 })
    expect(now.subscriptions[0]).toMatchObject({ cardBrand: 'visa', cardLast4: '4242' })
  })

  it('subscription.canceled takes the member back to Free; a scheduled cancellation keeps the plan until then', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('subscription.created', subscription(user.id, { id: subId }), { occurredAt: new Date(Date.now() - 3000) }))
    await deliver(
      event('subscription.updated', subscription(user.id, { id: subId, cancelAt: '2026-12-23T10:00:00.000Z' }), {
        occurredAt: new Date(Date.now() - 2000),
      }),
    )
    let now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.subscriptions[0]?.cancelAt?.toISOString()).toBe('2026-12-23T10:00:00.000Z')
    await deliver(event('subscription.canceled', subscription(user.id, { id: subId, status: 'canceled' })))
    now = await state(user.id)
    expect(now.plan).toBe('free')
    expect(now.subscriptions[0]?.status).toBe('canceled')
  })

  it('a failed payment is a failed row; when the same transaction is paid later it turns into a success', async () => {
    const user = await t.signUp()
    const txnId = next('txn')
    await deliver(event('transaction.payment_failed', { ...transaction(user.id, { id: txnId }), status: 'payment_failed' }))
    let now = await state(user.id)
    expect(now.payments).toMatchObject([{ status: 'failed', amount: 29 }])
    expect(now.credits).toBe(5)
    await deliver(event('transaction.completed', transaction(user.id, { id: txnId })))
    now = await state(user.id)
    expect(now.payments).toMatchObject([{ status: 'success' }])
    expect(now.credits).toBe(1005)
  })

  it('an event older than the last one applied to a subscription is ignored', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('subscription.canceled', subscription(user.id, { id: subId, status: 'canceled' })))
    const late = await deliver(
      event('subscription.created', subscription(user.id, { id: subId }), { occurredAt: new Date(Date.now() - 60_000) }),
    )
    expect(await late.json()).toMatchObject({ outcome: 'ignored' })
    expect((await state(user.id)).plan).toBe('free')
  })

  it('events for nobody of ours, and event types we do not use, are acknowledged and change nothing', async () => {
    const unknownUser = await deliver(event('subscription.created', subscription('no-such-user', { id: next('sub') })))
    expect(unknownUser.status).toBe(200)
    expect(await unknownUser.json()).toMatchObject({ outcome: 'ignored' })
    const other = await deliver(event('customer.updated', { id: 'ctm_1' }))
    expect(await other.json()).toMatchObject({ outcome: 'ignored' })
  })
})

describe('POST /api/webhooks/paddle: billing events in the activity', () => {
  it("the workspace's activity page and the admin's audit log tell each billing event once, by the payment provider", async () => {
    const user = await t.signUp()
    const admin = await t.signUp({ role: 'admin' })
    const subId = next('sub')
    const txnId = next('txn')
    await deliver(event('subscription.created', subscription(user.id, { id: subId }), { occurredAt: new Date(Date.now() - 4000) }))
    const paid = event('transaction.completed', transaction(user.id, { id: txnId, subscriptionId: subId }))
    await deliver(paid)
    await deliver(paid)
    await deliver(
      event('transaction.payment_failed', {
        ...transaction(user.id, { id: next('txn'), subscriptionId: subId }),
        status: 'payment_failed',
      }),
    )
    await deliver(
      event('subscription.updated', subscription(user.id, { id: subId, cancelAt: '2026-12-23T10:00:00.000Z' }), {
        occurredAt: new Date(Date.now() - 2000),
      }),
    )
    // Only the next billing date moved: nothing a member would notice.
    await deliver(
      event(
        'subscription.updated',
        subscription(user.id, { id: subId, cancelAt: '2026-12-23T10:00:00.000Z', nextBilledAt: '2027-01-01T00:00:00.000Z' }),
        {
          occurredAt: new Date(Date.now() - 1000),
        },
      ),
    )
    await deliver(event('subscription.canceled', subscription(user.id, { id: subId, status: 'canceled' })))

    const activity = await t.request('/api/workspaces/current/activity', { token: user.token })
    expect(activity.status).toBe(200)
    const entries = (
      (await activity.json()) as { data: { action: string; summary: string; actor: { id: string | null; email: string } }[] }
    ).data
    expect(
      entries.map(({ action, summary, actor }) => ({ action, summary, actorEmail: actor.email, actorId: actor.id })).reverse(),
    ).toEqual([
      { action: 'subscription.create', summary: 'Subscribed to Pro (active)', actorEmail: 'Payment provider', actorId: null },
      { action: 'payment.success', summary: 'Payment received: 29.00 USD for Pro', actorEmail: 'Payment provider', actorId: null },
      { action: 'payment.failed', summary: 'Payment failed: 29.00 USD for Pro', actorEmail: 'Payment provider', actorId: null },
      {
        action: 'subscription.update',
        summary: 'Subscription to Pro set to end on 2026-12-23',
        actorEmail: 'Payment provider',
        actorId: null,
      },
      { action: 'subscription.update', summary: 'Subscription to Pro is now canceled', actorEmail: 'Payment provider', actorId: null },
    ])
    const audit = await t.request('/api/audit?limit=100', { token: admin.token })
    const logged = ((await audit.json()) as { data: { workspaceId: string | null; targetId: string | null }[] }).data
    expect(logged.filter((entry) => entry.workspaceId === user.id && entry.targetId === subId)).toHaveLength(5)
  })
})

describe('POST /api/webhooks/paddle: custom data is the buyer’s to change, so it is not trusted', () => {
  it('a subscription naming another user without our signature is ignored: the victim keeps their plan', async () => {
    const victim = await t.signUp()
    const victimSub = next('sub')
    await deliver(event('subscription.created', subscription(victim.id, { id: victimSub, priceId: 'business-monthly-plan' })))
    expect((await state(victim.id)).plan).toBe('business')

    const attacker = await t.signUp()
    const forged = subscription(victim.id, { id: next('sub') })
    const unsigned = await deliver(event('subscription.created', { ...forged, custom_data: { user_id: victim.id, plan: 'pro' } }))
    expect(await unsigned.json()).toMatchObject({ outcome: 'ignored' })
    const wrongToken = await deliver(
      event('subscription.created', {
        ...forged,
        custom_data: { user_id: victim.id, plan: 'pro', user_token: checkoutUserToken(TEST_AUTH_SECRET, attacker.id) },
      }),
    )
    expect(await wrongToken.json()).toMatchObject({ outcome: 'ignored' })
    expect((await state(victim.id)).plan).toBe('business')
    expect((await state(victim.id)).subscriptions).toHaveLength(1)
  })

  it('the plan comes from the price id only: a price we do not sell grants nothing, whatever custom_data.plan says', async () => {
    const user = await t.signUp()
    const response = await deliver(
      event('subscription.created', subscription(user.id, { id: next('sub'), priceId: 'pri_something_else', plan: 'business' })),
    )
    expect(await response.json()).toMatchObject({ outcome: 'ignored' })
    const paid = await deliver(
      event('transaction.completed', { ...transaction(user.id, { id: next('txn'), priceId: 'pri_something_else' }) }),
    )
    expect(await paid.json()).toMatchObject({ outcome: 'applied' })
    const now = await state(user.id)
    expect(now.plan).toBe('free')
    expect(now.credits).toBe(5)
  })

  it('with two serving subscriptions the member has the dearer plan, whichever event came last', async () => {
    const user = await t.signUp()
    await deliver(event('subscription.created', subscription(user.id, { id: next('sub'), priceId: 'business-monthly-plan' })))
    await deliver(event('subscription.created', subscription(user.id, { id: next('sub'), priceId: 'pro-monthly-plan' })))
    expect((await state(user.id)).plan).toBe('business')
  })
})

describe('POST /api/webhooks/paddle: credits', () => {
  /** A prorated plan change's items as Paddle lists them: the new price, and the replaced one with a negative quantity. */
  const changeItems = (to: string, from: string, rate: string) => {
    const proration = { rate, billing_period: { starts_at: '2026-11-23T10:00:00.000Z', ends_at: '2026-12-23T10:00:00.000Z' } }
    return [
      { price: { id: from }, quantity: -1, proration },
      { price: { id: to }, quantity: 1, proration },
    ]
  }

  it("a plan change grants the difference in monthly credits prorated by Paddle's rate, once; a downgrade takes it back", async () => {
    const user = await t.signUp()
    const subId = next('sub')
    const paid = (id: string, options: Omit<Parameters<typeof transaction>[1], 'id'>) =>
      transaction(user.id, { id, subscriptionId: subId, ...options })
    await deliver(event('subscription.created', subscription(user.id, { id: subId })))
    await deliver(event('transaction.completed', paid(next('txn'), { origin: 'web', priceId: 'pro-monthly-plan', total: '2900' })))
    expect((await state(user.id)).credits).toBe(5 + 1000)

    // Paddle may report the new plan before its prorated payment. Half the period is left: half of (5000 − 1000).
    await deliver(event('subscription.updated', subscription(user.id, { id: subId, priceId: 'business-monthly-plan' })))
    const upgrade = paid(next('txn'), {
      origin: 'subscription_update',
      items: changeItems('business-monthly-plan', 'pro-monthly-plan', '0.5'),
      totals: { total: '2500', credit: '0', credit_to_balance: '0', grand_total: '2500' },
    })
    await deliver(event('transaction.completed', upgrade))
    await deliver(event('transaction.completed', upgrade))
    let now = await state(user.id)
    expect(now.credits).toBe(1005 + 2000)
    expect(now.ledger.filter((row) => row.reference?.startsWith('Upgrade'))).toMatchObject([
      {
        reason: 'plan_grant',
        delta: 2000,
        reference: `Upgrade from Pro to Business plan (prorated: 50% of the billing period left), transaction ${upgrade.id}`,
      },
    ])

    // Back to Pro with a quarter left: Paddle credits more than it charges, and puts the rest on the customer's balance.
    const downgrade = paid(next('txn'), {
      origin: 'subscription_update',
      items: changeItems('pro-monthly-plan', 'business-monthly-plan', '0.25'),
      totals: { total: '-1250', credit: '0', credit_to_balance: '1250', grand_total: '0' },
    })
    await deliver(event('transaction.completed', downgrade))
    now = await state(user.id)
    expect(now.credits).toBe(3005 - 1000)
    expect(now.payments.find((row) => row.providerTransactionId === downgrade.id)).toMatchObject({
      status: 'success',
      amount: 0,
      creditApplied: 0,
      creditToBalance: 12.5,
      planSlug: 'pro',
    })
    // The renewal is paid from that balance first.
    const renewal = paid(next('txn'), {
      origin: 'subscription_recurring',
      priceId: 'pro-monthly-plan',
      totals: { total: '2900', credit: '1250', grand_total: '1650' },
    })
    await deliver(event('transaction.completed', renewal))
    now = await state(user.id)
    expect(now.credits).toBe(2005 + 1000)
    expect(now.payments.find((row) => row.providerTransactionId === renewal.id)).toMatchObject({ amount: 16.5, creditApplied: 12.5 })
    expect(await t.services.billing.creditBalance(user.id)).toBe(0)
    expect(now.ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(now.credits)
    // The workspace's activity tells the money as it moved: no negative payment.
    const activity = await t.request('/api/workspaces/current/activity', { token: user.token })
    const payments = ((await activity.json()) as { data: { action: string; summary: string }[] }).data
      .filter((entry) => entry.action === 'payment.success')
      .map((entry) => entry.summary)
      .reverse()
    expect(payments).toEqual([
      'Payment received: 29.00 USD for Pro',
      'Payment received: 25.00 USD for Business',
      'Credited to the balance: 12.50 USD for Pro',
      'Payment received: 29.00 USD for Pro, 12.50 USD of it from the balance',
    ])
  })

  it('a downgrade whose total Paddle sends as negative is a payment of $0 that credited the balance, not a malformed event', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('subscription.created', subscription(user.id, { id: subId, priceId: 'business-monthly-plan' })))
    await deliver(
      event(
        'transaction.completed',
        transaction(user.id, { id: next('txn'), subscriptionId: subId, priceId: 'business-monthly-plan', total: '7900' }),
      ),
    )
    const downgrade = transaction(user.id, {
      id: next('txn'),
      subscriptionId: subId,
      origin: 'subscription_update',
      items: changeItems('pro-monthly-plan', 'business-monthly-plan', '0.5'),
      totals: { total: '-2500', grand_total: '-2500' },
    })
    const response = await deliver(event('transaction.completed', downgrade))
    expect(await response.json()).toMatchObject({ outcome: 'applied' })
    const now = await state(user.id)
    expect(now.payments.find((row) => row.providerTransactionId === downgrade.id)).toMatchObject({ amount: 0, creditToBalance: 25 })
    expect(now.credits).toBe(5 + 5000 - 2000)
    expect(await t.services.billing.creditBalance(user.id)).toBe(25)
  })

  it('a plan change billed without proration (no rate on its items) grants the whole difference', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('subscription.created', subscription(user.id, { id: subId })))
    await deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId, total: '2900' })))
    await deliver(
      event(
        'transaction.completed',
        transaction(user.id, {
          id: next('txn'),
          subscriptionId: subId,
          origin: 'subscription_update',
          priceId: 'business-monthly-plan',
          total: '7900',
        }),
      ),
    )
    expect((await state(user.id)).credits).toBe(1005 + 4000)
  })

  it('a plan change whose earlier plan is unknown, and a payment method change, grant nothing', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    const origins = ['subscription_update', 'subscription_payment_method_change']
    for (const origin of origins) {
      await deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId, origin, total: '0' })))
    }
    expect((await state(user.id)).credits).toBe(5)
  })
})

describe('POST /api/webhooks/paddle: a free trial (a price with a trial_period)', () => {
  const TRIAL_END = '2026-12-07T10:00:00.000Z'

  async function startTrial(userId: string, subId: string, options: { occurredAt?: Date } = {}) {
    const trialing = subscription(userId, { id: subId, status: 'trialing', nextBilledAt: TRIAL_END })
    await deliver(event('subscription.created', trialing, options))
    const start = transaction(userId, { id: next('txn'), subscriptionId: subId, origin: 'web', total: '0' })
    await deliver(event('transaction.completed', start, options))
    return start
  }

  it("'trialing' and its $0 transaction: the plan is set, the month's credits granted once, next billing at the trial's end", async () => {
    const user = await t.signUp()
    const subId = next('sub')
    const start = await startTrial(user.id, subId)
    // Delivered again under another event id, as Paddle may: the transaction is already paid.
    const again = await deliver(event('transaction.completed', start))
    expect(await again.json()).toMatchObject({ outcome: 'ignored' })

    const now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.subscriptions).toMatchObject([{ status: 'trialing', planSlug: 'pro', cardLast4: '4242' }])
    expect(now.subscriptions[0]?.nextBilledAt?.toISOString()).toBe(TRIAL_END)
    expect(now.payments).toMatchObject([{ amount: 0, status: 'success', planSlug: 'pro' }])
    expect(now.credits).toBe(5 + 1000)
    expect(now.ledger.filter((row) => row.reason === 'plan_grant')).toMatchObject([
      { delta: 1000, reference: `Pro plan free trial, transaction ${start.id}` },
    ])
  })

  it("the trial's end: Paddle bills the first month (subscription_recurring) and activates the subscription", async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await startTrial(user.id, subId, { occurredAt: new Date(Date.now() - 5000) })
    await deliver(
      event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId, origin: 'subscription_recurring' })),
    )
    await deliver(
      event('subscription.activated', subscription(user.id, { id: subId, status: 'active', nextBilledAt: '2027-01-07T10:00:00.000Z' })),
    )

    const now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.subscriptions[0]).toMatchObject({ status: 'active' })
    expect(now.subscriptions[0]?.nextBilledAt?.toISOString()).toBe('2027-01-07T10:00:00.000Z')
    expect(now.payments.map((row) => row.amount).sort()).toEqual([0, 29])
    expect(now.credits).toBe(5 + 1000 + 1000)
    expect(now.ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(now.credits)
  })

  it('a cancelled trial ends without a charge; a second trial Paddle gives the same member grants no credits', async () => {
    const user = await t.signUp()
    const first = next('sub')
    await startTrial(user.id, first, { occurredAt: new Date(Date.now() - 5000) })
    await deliver(
      event('subscription.canceled', subscription(user.id, { id: first, status: 'canceled' }), { occurredAt: new Date(Date.now() - 4000) }),
    )
    expect(await state(user.id)).toMatchObject({ plan: 'free', credits: 1005 })

    // The trial is the price's, so Paddle gives it to every checkout; our rule is one per account.
    await startTrial(user.id, next('sub'))
    const now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.payments).toHaveLength(2)
    expect(now.credits).toBe(1005)
  })
})

describe('POST /api/webhooks/paddle: the card, whatever order Paddle sends events in', () => {
  it('transaction.completed before subscription.created: the card is kept and shown with the subscription', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId })))
    // Until the subscription's own event arrives it gives no plan.
    expect((await state(user.id)).plan).toBe('free')
    expect(await t.services.billing.currentSubscription(user.id)).toBeNull()

    await deliver(event('subscription.created', subscription(user.id, { id: subId }), { occurredAt: new Date(Date.now() - 60_000) }))
    const now = await state(user.id)
    expect(now.plan).toBe('pro')
    expect(now.subscriptions).toHaveLength(1)
    expect(await t.services.billing.currentSubscription(user.id)).toMatchObject({
      status: 'active',
      planSlug: 'pro',
      cardBrand: 'visa',
      cardLast4: '4242',
    })
  })

  it('subscription.created and transaction.completed at once: one subscription, with the card', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    const responses = await Promise.all([
      deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId }))),
      deliver(event('subscription.created', subscription(user.id, { id: subId }))),
    ])
    expect(responses.map((response) => response.status)).toEqual([200, 200])
    expect((await state(user.id)).subscriptions).toHaveLength(1)
    expect(await t.services.billing.currentSubscription(user.id)).toMatchObject({ planSlug: 'pro', cardLast4: '4242' })
  })

  it('a later payment with another card replaces the card shown', async () => {
    const user = await t.signUp()
    const subId = next('sub')
    await deliver(event('subscription.created', subscription(user.id, { id: subId })))
    await deliver(event('transaction.completed', transaction(user.id, { id: next('txn'), subscriptionId: subId })))
    const renewal = transaction(user.id, { id: next('txn'), subscriptionId: subId, origin: 'subscription_recurring' })
    await deliver(
      event('transaction.completed', {
        ...renewal,
        payments: [{ method_details: { type: 'card', card: { type: 'mastercard', last4: '5454' } } }],
      }),
    )
    expect(await t.services.billing.currentSubscription(user.id)).toMatchObject({ cardBrand: 'mastercard', cardLast4: '5454' })
  })
})

describe('POST /api/webhooks/paddle: what is refused changes nothing', () => {
  async function expectUnchanged(userId: string, run: () => Promise<Response>, status: number) {
    const before = await state(userId)
    const eventsBefore = await t.db.$count(webhookEvents)
    const response = await run()
    expect(response.status).toBe(status)
    expect(await response.json()).toHaveProperty('message')
    expect(await state(userId)).toEqual(before)
    expect(await t.db.$count(webhookEvents)).toBe(eventsBefore)
  }

  it('forged: signed with another secret, unsigned, or with a tampered body', async () => {
    const user = await t.signUp()
    const body = event('transaction.completed', transaction(user.id, { id: next('txn') }))
    await expectUnchanged(user.id, () => deliver(body, { secret: 'not-the-secret' }), 401)
    await expectUnchanged(user.id, () => deliver(body, { header: null }), 401)
    const raw = JSON.stringify(body)
    const header = signPaddleBody(raw, SECRET)
    const tampered = raw.replace('"2900"', '"9999999"')
    await expectUnchanged(user.id, () => deliver(tampered, { header }), 401)
    await expectUnchanged(user.id, () => deliver(body, { header: 'ts=1;h1=00' }), 401)
  })

  it('stale: a correctly signed delivery from ten minutes ago, or from the future', async () => {
    const user = await t.signUp()
    const body = event('transaction.completed', transaction(user.id, { id: next('txn') }))
    await expectUnchanged(user.id, () => deliver(body, { at: new Date(Date.now() - 10 * 60_000) }), 401)
    await expectUnchanged(user.id, () => deliver(body, { at: new Date(Date.now() + 10 * 60_000) }), 401)
  })

  it('malformed: signed bodies that are not JSON, not an event, or an event missing what we read', async () => {
    const user = await t.signUp()
    await expectUnchanged(user.id, () => deliver('{not json'), 400)
    await expectUnchanged(user.id, () => deliver({ hello: 'world' }), 400)
    const broken = event('transaction.completed', {
      ...transaction(user.id, { id: next('txn') }),
      details: { totals: { grand_total: '29.00' } },
    })
    await expectUnchanged(user.id, () => deliver(broken), 400)
    const badRate = event(
      'transaction.completed',
      transaction(user.id, {
        id: next('txn'),
        origin: 'subscription_update',
        items: [{ price: { id: 'business-monthly-plan' }, quantity: 1, proration: { rate: '1.5' } }],
      }),
    )
    await expectUnchanged(user.id, () => deliver(badRate), 400)
    const badStatus = event('subscription.created', subscription(user.id, { id: next('sub'), status: 'bogus' }))
    await expectUnchanged(user.id, () => deliver(badStatus), 400)
  })

  it('a rotated secret: a header with the old and the new signature is accepted', async () => {
    const user = await t.signUp()
    const raw = JSON.stringify(event('subscription.created', subscription(user.id, { id: next('sub') })))
    const ts = Math.floor(Date.now() / 1000)
    const h1 = (secret: string) => createHmac('sha256', secret).update(`${ts}:${raw}`).digest('hex')
    const response = await deliver(raw, { header: `ts=${ts};h1=${h1('old-secret')};h1=${h1(SECRET)}` })
    expect(response.status).toBe(200)
    expect((await state(user.id)).plan).toBe('pro')
  })
})

describe('POST /api/webhooks/paddle: each event once', () => {
  it('replayed: the same event delivered again is a duplicate and grants nothing more', async () => {
    const user = await t.signUp()
    const body = event('transaction.completed', transaction(user.id, { id: next('txn') }))
    expect(await (await deliver(body)).json()).toMatchObject({ outcome: 'applied' })
    const again = await deliver(body)
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ outcome: 'duplicate' })
    const now = await state(user.id)
    expect(now.credits).toBe(1005)
    expect(now.ledger.filter((row) => row.reason === 'plan_grant')).toHaveLength(1)
    expect(now.payments).toHaveLength(1)
  })

  it('the same event delivered ten times at once grants once', async () => {
    const user = await t.signUp()
    const body = event('transaction.completed', transaction(user.id, { id: next('txn') }))
    const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(body)))
    expect(responses.every((response) => response.status === 200)).toBe(true)
    const outcomes = await Promise.all(responses.map(async (response) => ((await response.json()) as { outcome: string }).outcome))
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1)
    expect((await state(user.id)).credits).toBe(1005)
  })

  it('transaction.billed and transaction.completed for one transaction at once, in either order: one paid row, one grant', async () => {
    for (const order of [
      ['transaction.billed', 'transaction.completed'],
      ['transaction.completed', 'transaction.billed'],
    ]) {
      const user = await t.signUp()
      const data = transaction(user.id, { id: next('txn') })
      const responses = await Promise.all(order.map((type) => deliver(event(type, data))))
      expect(responses.map((response) => response.status)).toEqual([200, 200])
      const now = await state(user.id)
      expect(now.payments).toMatchObject([{ status: 'success', amount: 29 }])
      expect(now.ledger.filter((row) => row.reason === 'plan_grant')).toHaveLength(1)
      expect(now.credits).toBe(1005)
    }
  })

  it('different events at once: every grant lands and the balance equals the ledger', async () => {
    const user = await t.signUp()
    const bodies = Array.from({ length: 8 }, () => event('transaction.completed', transaction(user.id, { id: next('txn') })))
    await Promise.all(bodies.map((body) => deliver(body)))
    const now = await state(user.id)
    expect(now.credits).toBe(5 + 8 * 1000)
    expect(now.ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(now.credits)
    expect(now.payments).toHaveLength(8)
  })
})

describe('without payment settings', () => {
  it('the endpoint answers 503 and stores nothing', async () => {
    const bare = await createTestApp()
    try {
      const response = await bare.request('/api/webhooks/paddle', { method: 'POST', body: { event_id: 'evt_x' } })
      expect(response.status).toBe(503)
      expect(await bare.db.$count(webhookEvents)).toBe(0)
    } finally {
      await bare.close()
    }
  })
})
