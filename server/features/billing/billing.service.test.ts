import { createPaddleTestApp } from '#server/testing/paddle-test-app.ts'
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditLedger, payments, profiles, subscriptionPlans, subscriptions, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import type { FakePaddleApi } from '#server/testing/fake-paddle-api.ts'
import { planCreateSchema } from '#common/plans.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

/** Who changes plans here: a member whose address is verified (an unverified one is refused: email-verification.api.test.ts). */
const VERIFIED = { email: 'owner@example.com', emailVerified: true }

async function profile(t: TestApp, userId: string) {
  const [row] = await t.db
    .select(profileColumns)
    .from(profiles)
    .innerJoin(workspaces, eq(workspaces.id, profiles.id))
    .where(eq(profiles.id, userId))
  return row
}

describe('billing with the local sandbox (signed webhooks to our own endpoint)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await t.close()
  })

  const DAY = 24 * 3600_000
  const buy = (user: { id: string; email: string }, plan: string, card: 'success' | 'declined' = 'success') =>
    t.services.billing.sandboxPurchase({ id: user.id, email: user.email, emailVerified: true }, plan, card)
  const history = async (userId: string) => (await t.services.billing.payments(userId, { page: 1, limit: 10 })).items

  it("a first purchase starts a 14-day free trial: the plan and the month's credits now, $0 paid, first charge at the trial's end", async () => {
    const user = await t.signUp()
    const offered = await t.services.billing.sandboxTrialFor(user.id)
    expect(offered?.days).toBe(14)
    expect(offered?.endsAt.getTime()).toBeGreaterThan(Date.now() + 13.9 * DAY)

    expect(await buy(user, 'pro')).toBe('trialing')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 1005 })
    expect(await history(user.id)).toMatchObject([{ status: 'success', amount: 0, planSlug: 'pro' }])
    const subscription = await t.services.billing.currentSubscription(user.id)
    expect(subscription).toMatchObject({ provider: 'sandbox', planSlug: 'pro', status: 'trialing', cardLast4: '4242' })
    const trialEnd = subscription?.nextBilledAt?.getTime() ?? 0
    expect(trialEnd).toBeGreaterThan(Date.now() + 13.9 * DAY)
    expect(trialEnd).toBeLessThanOrEqual(Date.now() + 14 * DAY)
    expect(await t.services.billing.sandboxTrialFor(user.id)).toBeNull()
  })

  it('a declined card records a failed payment, changes no plan and leaves the trial on offer', async () => {
    const user = await t.signUp()
    expect(await buy(user, 'business', 'declined')).toBe('declined')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free', credits: 5 })
    // The trial's checkout costs $0: it is that check of the card that failed.
    expect(await t.db.select().from(payments).where(eq(payments.workspaceId, user.id))).toMatchObject([{ status: 'failed', amount: 0 }])
    expect(await t.services.billing.sandboxTrialFor(user.id)).not.toBeNull()
  })

  it("the trial's end charges the first month and grants the next month's credits; later renewals do the same", async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('trial-ended')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 2005 })
    expect(await history(user.id)).toMatchObject([
      { status: 'success', amount: 29 },
      { status: 'success', amount: 0 },
    ])
    const subscription = await t.services.billing.currentSubscription(user.id)
    expect(subscription?.status).toBe('active')
    expect(subscription?.nextBilledAt?.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)

    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('renewed')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 3005 })
    expect(await history(user.id)).toHaveLength(3)
  })

  it('a plan change during the trial is not billed: the trial goes on with the new plan, no credits are added', async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    const trialEnd = (await t.services.billing.currentSubscription(user.id))?.nextBilledAt
    await t.services.billing.changePlan(user.id, 'business', VERIFIED)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 1005 })
    expect(await t.services.billing.currentSubscription(user.id)).toMatchObject({ status: 'trialing', nextBilledAt: trialEnd })
    expect(await history(user.id)).toHaveLength(1)
    // The first paid month is the new plan's.
    await t.services.billing.sandboxEndPeriod(user.id)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 6005 })
    expect((await history(user.id))[0]).toMatchObject({ amount: 79, planSlug: 'business' })
  })

  it('a subscriber cannot open a second checkout; after the trial, plan changes are charged on the subscription', async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'business')).rejects.toThrow(
      /already have a subscription/,
    )
    await t.services.billing.sandboxEndPeriod(user.id)
    // Moments into a new period (issue 27's reproduction): the difference is nearly the whole month's, not Business's price.
    await t.services.billing.changePlan(user.id, 'business', VERIFIED)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 6005 })
    expect((await history(user.id))[0]).toMatchObject({ amount: 50, creditApplied: 0, creditToBalance: 0, planSlug: 'business' })
    // Straight back: the same difference is credited to the balance, and the credits it brought are taken back.
    await t.services.billing.changePlan(user.id, 'pro', VERIFIED)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 2005 })
    expect((await history(user.id))[0]).toMatchObject({ status: 'success', amount: 0, creditToBalance: 50, planSlug: 'pro' })
    expect(await t.services.billing.creditBalance(user.id)).toBe(50)
  })

  /** Moves the subscription's billing period on, so that exactly half of it is left (the sandbox's periods are 30 days). */
  async function halfwayThroughThePeriod(userId: string) {
    await t.db
      .update(subscriptions)
      .set({ nextBilledAt: new Date(Date.now() + 15 * DAY + 30_000) })
      .where(eq(subscriptions.workspaceId, userId))
  }

  it('an upgrade halfway through the period is charged half the difference and grants half the difference in credits', async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    await t.services.billing.sandboxEndPeriod(user.id)
    await halfwayThroughThePeriod(user.id)
    await t.services.billing.changePlan(user.id, 'business', VERIFIED)
    // Paddle's rule: $29 × ½ credited, $79 × ½ charged: $25.00 today; (5000 − 1000) × ½ credits.
    expect(await history(user.id)).toMatchObject([
      { status: 'success', amount: 25, creditApplied: 0, creditToBalance: 0, planSlug: 'business' },
      { amount: 29, planSlug: 'pro' },
      { amount: 0, planSlug: 'pro' },
    ])
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 2005 + 2000 })
    const [grant] = await t.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.workspaceId, user.id))
      .orderBy(desc(creditLedger.createdAt))
    expect(grant).toMatchObject({
      reason: 'plan_grant',
      delta: 2000,
      reference: expect.stringMatching(
        /^Upgrade from Pro to Business plan \(prorated: 50% of the billing period left\), transaction txn_sandbox_/,
      ),
    })
    // The billing date stays: the next renewal is Business's full price.
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('renewed')
    expect((await history(user.id))[0]).toMatchObject({ amount: 79, planSlug: 'business' })
  })

  it('a downgrade halfway credits half the difference to the balance, charges nothing, and the next payments use the balance first', async () => {
    const user = await t.signUp()
    await buy(user, 'business')
    await t.services.billing.sandboxEndPeriod(user.id)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 10_005 })
    await halfwayThroughThePeriod(user.id)
    await t.services.billing.changePlan(user.id, 'pro', VERIFIED)
    // $79 × ½ credited, $29 × ½ charged: $25.00 goes to the balance, and no negative payment is recorded.
    expect((await history(user.id))[0]).toMatchObject({
      status: 'success',
      amount: 0,
      creditApplied: 0,
      creditToBalance: 25,
      planSlug: 'pro',
    })
    expect(await t.services.billing.creditBalance(user.id)).toBe(25)
    // The credits follow the same rule: (1000 − 5000) × ½ taken back.
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 10_005 - 2000 })

    // The renewal is paid from the balance first: $29 − $25.
    await t.services.billing.sandboxEndPeriod(user.id)
    expect((await history(user.id))[0]).toMatchObject({ amount: 4, creditApplied: 25, creditToBalance: 0, planSlug: 'pro' })
    expect(await t.services.billing.creditBalance(user.id)).toBe(0)
  })

  it('a downgrade takes back no more credits than are left: spent ones stay spent', async () => {
    const user = await t.signUp()
    await buy(user, 'business')
    await t.services.billing.sandboxEndPeriod(user.id)
    await t.services.credits.change({ workspaceId: user.id, delta: -9_500, reason: 'usage', reference: 'runs' })
    await halfwayThroughThePeriod(user.id)
    await t.services.billing.changePlan(user.id, 'pro', VERIFIED)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 0 })
    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, user.id)).orderBy(desc(creditLedger.createdAt))
    expect(ledger[0]).toMatchObject({ reason: 'plan_grant', delta: -505, balanceAfter: 0 })
    expect(ledger[0]?.reference).toMatch(/^Downgrade from Business to Pro plan \(prorated: 50% of the billing period left\)/)
  })

  it('a returning buyer is the same customer: what a downgrade credited pays for the next purchase', async () => {
    const user = await t.signUp()
    await buy(user, 'business')
    await t.services.billing.sandboxEndPeriod(user.id)
    await halfwayThroughThePeriod(user.id)
    await t.services.billing.changePlan(user.id, 'pro', VERIFIED)
    await t.services.billing.cancelToFree(user.id)
    await t.services.billing.sandboxEndPeriod(user.id)
    const customer = (await t.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, user.id)))[0]?.providerCustomerId
    expect(await buy(user, 'pro')).toBe('paid')
    expect((await history(user.id))[0]).toMatchObject({ amount: 4, creditApplied: 25, planSlug: 'pro' })
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, user.id))
    expect(rows.map((row) => row.providerCustomerId)).toEqual([customer, customer])
    // Paid from the balance, it is still a paid month: its credits, not a trial's.
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro' })
  })

  it('Switch to Free during the trial ends it at its end with no charge; the next purchase has no trial and is charged at once', async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    const trialEnd = (await t.services.billing.currentSubscription(user.id))?.nextBilledAt
    expect(await t.services.billing.cancelToFree(user.id)).toEqual({ endsAt: trialEnd, trial: true })
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro' })
    expect(await t.services.billing.currentSubscription(user.id)).toMatchObject({ status: 'trialing', cancelAt: trialEnd })
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('canceled')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free', credits: 1005 })
    expect(await t.services.billing.currentSubscription(user.id)).toBeNull()
    expect(await history(user.id)).toMatchObject([{ amount: 0 }])

    // One trial per account, even after a cancelled subscription.
    expect(await t.services.billing.sandboxTrialFor(user.id)).toBeNull()
    expect(await buy(user, 'pro')).toBe('paid')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 2005 })
    expect(await history(user.id)).toMatchObject([{ status: 'success', amount: 29 }, { amount: 0 }])
    const subscription = await t.services.billing.currentSubscription(user.id)
    expect(subscription?.status).toBe('active')
    expect(subscription?.nextBilledAt?.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
  })

  it('a plan without a price id is not for sale: the sandbox refuses to sell it or switch to it, by name', async () => {
    const admin = await t.signUp({ role: 'admin' })
    await t.services.plans.create({ id: admin.id, email: admin.email }, planCreateSchema.parse({ name: 'Starter', price: 9 }))
    const starter = (await t.services.plans.list()).find((plan) => plan.slug === 'starter')!
    expect(t.services.billing.saleOf(starter)).toEqual({ forSale: false, reason: 'Not for sale: add its Paddle price id.' })
    const user = await t.signUp()
    const refusal = {
      status: 409,
      code: 'PLAN_NOT_FOR_SALE',
      message: 'The Starter plan is not for sale at the moment. Please choose another plan.',
    }
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'starter')).rejects.toMatchObject(
      refusal,
    )
    await expect(buy(user, 'starter')).rejects.toMatchObject(refusal)
    await buy(user, 'pro')
    await t.services.billing.sandboxEndPeriod(user.id)
    await expect(t.services.billing.changePlan(user.id, 'starter', VERIFIED)).rejects.toMatchObject(refusal)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro' })
    // The sandbox plays Paddle and knows a plan by its price id, whatever it looks like.
    await t.services.plans.update({ id: admin.id, email: admin.email }, starter.id, { paddlePriceId: 'starter-monthly' })
    await t.services.billing.changePlan(user.id, 'starter', VERIFIED)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'starter' })
  })

  it('Switch to Free after the trial keeps the paid plan until the period ends', async () => {
    const user = await t.signUp()
    await buy(user, 'pro')
    await t.services.billing.sandboxEndPeriod(user.id)
    const { endsAt, trial } = await t.services.billing.cancelToFree(user.id)
    expect(trial).toBe(false)
    expect(endsAt?.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('canceled')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free' })
  })
})

describe('billing with Paddle (its API stood in for on loopback)', () => {
  let t: TestApp
  let paddle: FakePaddleApi
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ t, paddle, close } = await createPaddleTestApp())
  })
  afterAll(() => close())

  async function subscribed(status = 'active') {
    const user = await t.signUp()
    await t.db.insert(subscriptions).values({
      workspaceId: user.id,
      provider: 'paddle',
      providerSubscriptionId: `sub_${user.id}`,
      planSlug: 'pro',
      status,
      nextBilledAt: new Date('2026-12-23T00:00:00Z'),
      lastEventAt: new Date(),
    })
    return user
  }

  async function setPaddlePriceIds() {
    await t.db.update(subscriptionPlans).set({ paddlePriceId: 'pri_01proplan' }).where(eq(subscriptionPlans.slug, 'pro'))
    await t.db.update(subscriptionPlans).set({ paddlePriceId: 'pri_01businessplan' }).where(eq(subscriptionPlans.slug, 'business'))
  }

  it("the seed's placeholder price ids are not Paddle's: the plans are not for sale, and no plan change is sent", async () => {
    const user = await t.signUp()
    const [pro] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.slug, 'pro'))
    expect(pro?.paddlePriceId).toBe('pro-monthly-plan')
    expect(t.services.billing.priceIdOf(pro!)).toBeNull()
    expect(t.services.billing.canCheckOut(pro!)).toBe(false)
    expect(t.services.billing.saleOf(pro!)).toEqual({
      forSale: false,
      reason: 'Not for sale: a Paddle price id starts with pri_ (this one is a placeholder).',
    })
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'pro')).rejects.toMatchObject({
      status: 409,
      code: 'PLAN_NOT_FOR_SALE',
      message: 'The Pro plan is not for sale at the moment. Please choose another plan.',
    })
    const requests = paddle.received.length
    const member = await subscribed()
    await expect(t.services.billing.changePlan(member.id, 'business', VERIFIED)).rejects.toMatchObject({
      status: 409,
      code: 'PLAN_NOT_FOR_SALE',
    })
    expect(paddle.received).toHaveLength(requests)
  })

  it("with Paddle's price ids set, checkout opens Paddle.js with the price id, the e-mail and custom data { user_id, plan }", async () => {
    await setPaddlePriceIds()
    const user = await t.signUp()
    const checkout = await t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'pro')
    expect(checkout).toMatchObject({
      checkout: { kind: 'paddle', clientToken: 'test_token', environment: 'sandbox' },
      priceId: 'pri_01proplan',
      email: user.email,
      customData: { user_id: user.id, plan: 'pro', user_token: expect.any(String) },
    })
  })

  it('Switch to Free asks Paddle to cancel at the end of the billing period', async () => {
    const user = await subscribed()
    await t.services.billing.cancelToFree(user.id)
    expect(paddle.received.at(-1)).toEqual({
      method: 'POST',
      url: `/subscriptions/sub_${user.id}/cancel`,
      auth: 'Bearer pdl_key',
      body: { effective_from: 'next_billing_period' },
    })
    // The plan changes only when Paddle's webhook says so.
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free' })
  })

  it('an upgrade patches the subscription to the new price, prorated now', async () => {
    await setPaddlePriceIds()
    const user = await subscribed()
    await t.services.billing.changePlan(user.id, 'business', VERIFIED)
    expect(paddle.received.at(-1)).toMatchObject({
      method: 'PATCH',
      url: `/subscriptions/sub_${user.id}`,
      body: { items: [{ price_id: 'pri_01businessplan', quantity: 1 }], proration_billing_mode: 'prorated_immediately' },
    })
  })

  it('during a trial a plan change is sent with do_not_bill, as Paddle requires; Switch to Free is the same request', async () => {
    await setPaddlePriceIds()
    const user = await subscribed('trialing')
    await t.services.billing.changePlan(user.id, 'business', VERIFIED)
    expect(paddle.received.at(-1)).toMatchObject({
      method: 'PATCH',
      url: `/subscriptions/sub_${user.id}`,
      body: { items: [{ price_id: 'pri_01businessplan', quantity: 1 }], proration_billing_mode: 'do_not_bill' },
    })
    expect(await t.services.billing.cancelToFree(user.id)).toMatchObject({ trial: true })
    expect(paddle.received.at(-1)).toMatchObject({
      url: `/subscriptions/sub_${user.id}/cancel`,
      body: { effective_from: 'next_billing_period' },
    })
  })

  it("Paddle's refusal reaches the member as a clear 503 message", async () => {
    const user = await subscribed()
    paddle.answerWith(400, { error: { code: 'subscription_locked', detail: 'Subscription is locked' } })
    await expect(t.services.billing.cancelToFree(user.id)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/Subscription is locked/),
    })
    paddle.answerLikePaddle()
  })

  it('without a price id a plan is not for sale (Free needs none)', async () => {
    const user = await t.signUp()
    await t.db.update(subscriptionPlans).set({ paddlePriceId: null })
    const plans = await t.services.plans.list()
    expect(plans.map((plan) => [plan.slug, t.services.billing.saleOf(plan)])).toEqual([
      ['free', { forSale: true }],
      ['pro', { forSale: false, reason: 'Not for sale: add its Paddle price id.' }],
      ['business', { forSale: false, reason: 'Not for sale: add its Paddle price id.' }],
    ])
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'pro')).rejects.toMatchObject({
      status: 409,
      code: 'PLAN_NOT_FOR_SALE',
    })
  })
})

describe('billing without a payment provider', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  it("checkout answers the spec's 'Checkout Not Available' for a plan on sale; a plan without a price id is not for sale", async () => {
    const user = await t.signUp()
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email, emailVerified: true }, 'pro')).rejects.toMatchObject({
      status: 503,
      message: 'Our payment system is currently being set up. Please try again later.',
    })
    const plans = await t.services.plans.list()
    expect(plans.map((plan) => t.services.billing.saleOf(plan).forSale)).toEqual([true, true, true])
    await t.db.update(subscriptionPlans).set({ paddlePriceId: null }).where(eq(subscriptionPlans.slug, 'business'))
    const business = (await t.services.plans.list()).find((plan) => plan.slug === 'business')
    expect(t.services.billing.saleOf(business!)).toEqual({ forSale: false, reason: 'Not for sale: add its Paddle price id.' })
  })
})
