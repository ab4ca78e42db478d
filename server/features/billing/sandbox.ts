import { prorate, prorationRate } from '#common/proration.ts'
import type { BillingProvider, Subscription } from './billing-provider.ts'
import { signPaddleBody } from './paddle-signature.ts'
import {
  cents,
  DAY_MS,
  MONTH_MS,
  sandboxId as id,
  sandboxPeriodOf,
  subscriptionPayload as subscription,
  transactionPayload as transaction,
  type CheckoutCustomData,
  type SandboxPlan,
} from './sandbox-events.ts'

/**
 * The local payment sandbox (development and tests only; docs/decisions/010-payments.md). It plays
 * Paddle's part: every purchase, plan change, cancellation and renewal is sent to our own webhook
 * endpoint as a Paddle-shaped event signed with the webhook secret, so verification and processing
 * run exactly as they do with Paddle, without the internet.
 */
export function createSandboxBilling(options: {
  secret: string
  /** POSTs a signed event to our webhook endpoint (over HTTP to this server, or in-process in tests). */
  deliver: (request: Request) => Promise<Response>
  webhookUrl: string
  /** This site's address: the sandbox's customer portal and invoices are pages of ours. */
  publicUrl: string
  findPlan: (query: { slug: string } | { priceId: string }) => Promise<SandboxPlan | null>
  /** A workspace's credit balance with the sandbox, in dollars: what earlier downgrades credited and nothing has used yet. */
  creditBalance: (workspaceId: string) => Promise<number>
}): BillingProvider & {
  /** With trialDays, the price has a free trial (Paddle's trial_period): nothing is charged until it ends. */
  purchase(input: {
    customData: CheckoutCustomData
    plan: SandboxPlan
    card: 'success' | 'declined'
    trialDays: number
    /** The workspace's customer from an earlier subscription: Paddle knows a returning buyer, and their credit balance. */
    customerId: string | null
  }): Promise<'paid' | 'trialing' | 'declined'>
  endPeriod(subscription: Subscription): Promise<'renewed' | 'trial-ended' | 'canceled'>
  /** What the portal's payment method update does at Paddle: a $0 transaction that saves the new card. */
  updatePaymentMethod(subscription: Subscription, card: { type: string; last4: string }): Promise<void>
} {
  async function send(eventType: string, data: Record<string, unknown>, occurredAt = new Date()) {
    const body = JSON.stringify({
      event_id: id('evt'),
      event_type: eventType,
      occurred_at: occurredAt.toISOString(),
      notification_id: id('ntf'),
      data,
    })
    const response = await options.deliver(
      new Request(options.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Paddle-Signature': signPaddleBody(body, options.secret) },
        body,
      }),
    )
    if (!response.ok) throw new Error(`the webhook endpoint answered ${eventType} with ${response.status}: ${await response.text()}`)
  }

  const VISA = { type: 'visa', last4: '4242' }
  const DECLINED = { type: 'visa', last4: '0002' }

  async function findPlan(query: { slug: string } | { priceId: string }): Promise<SandboxPlan> {
    const plan = await options.findPlan(query)
    if (!plan) throw new Error(`the sandbox has no purchasable plan for ${JSON.stringify(query)}`)
    return plan
  }

  const customer = (subscription: Subscription) => subscription.providerCustomerId ?? id('ctm')
  /** A subscription's charges go to its card on file (the portal may have changed it), as Paddle's do. */
  const cardOf = (subscription: Subscription) =>
    subscription.cardBrand && subscription.cardLast4 ? { type: subscription.cardBrand, last4: subscription.cardLast4 } : VISA
  const page = (path: string) => `${options.publicUrl.replace(/\/+$/, '')}${path}`

  return {
    kind: 'sandbox',

    async purchase({ customData, plan, card, trialDays, customerId: returning }) {
      const customerId = returning ?? id('ctm')
      const free = trialDays > 0
      const balance = free ? 0 : cents(await options.creditBalance(customData.user_id))
      if (card === 'declined') {
        await send(
          'transaction.payment_failed',
          transaction({
            subscriptionId: null,
            customerId,
            customData,
            origin: 'web',
            status: 'payment_failed',
            card: DECLINED,
            items: [{ priceId: plan.priceId, quantity: 1 }],
            total: free ? 0 : cents(plan.price),
          }),
        )
        return 'declined'
      }
      const subscriptionId = id('sub')
      const now = new Date()
      // As Paddle: a trialing subscription is next billed when the trial ends; its checkout costs 0.
      const trial = free ? { startsAt: now, endsAt: new Date(now.getTime() + trialDays * DAY_MS) } : undefined
      const nextBilledAt = trial?.endsAt ?? new Date(now.getTime() + MONTH_MS)
      const status = trial ? 'trialing' : 'active'
      await send('subscription.created', subscription({ subscriptionId, customerId, customData, plan, status, nextBilledAt, trial }))
      await send(
        'transaction.completed',
        transaction({
          subscriptionId,
          customerId,
          customData,
          origin: 'web',
          status: 'completed',
          card: VISA,
          items: [{ priceId: plan.priceId, quantity: 1 }],
          total: free ? 0 : cents(plan.price),
          balance,
        }),
      )
      return trial ? 'trialing' : 'paid'
    },

    async cancelAtPeriodEnd(current) {
      const plan = await findPlan({ slug: current.planSlug })
      const cancelAt = current.nextBilledAt ?? new Date(Date.now() + MONTH_MS)
      await send(
        'subscription.updated',
        subscription({
          subscriptionId: current.providerSubscriptionId,
          customerId: customer(current),
          customData: { user_id: current.workspaceId, plan: plan.slug },
          plan,
          status: current.status,
          nextBilledAt: null,
          cancelAt,
        }),
      )
    },

    async cancelNow(current) {
      const plan = await findPlan({ slug: current.planSlug })
      await send(
        'subscription.canceled',
        subscription({
          subscriptionId: current.providerSubscriptionId,
          customerId: customer(current),
          customData: { user_id: current.workspaceId, plan: plan.slug },
          plan,
          status: 'canceled',
          nextBilledAt: null,
          canceledAt: new Date(),
        }),
      )
    },

    async changePrice(current, priceId) {
      const plan = await findPlan({ priceId })
      // Paddle keeps a subscription's custom data; the webhook finds our user through the subscription.
      const common = {
        subscriptionId: current.providerSubscriptionId,
        customerId: customer(current),
        customData: { user_id: current.workspaceId, plan: plan.slug },
        plan,
      }
      if (current.status === 'trialing') {
        // Paddle bills nothing for a change during a trial (do_not_bill): the new price applies from its end.
        await send('subscription.updated', subscription({ ...common, status: 'trialing', nextBilledAt: current.nextBilledAt }))
        return
      }
      // prorated_immediately, as Paddle: the unused rest of the period at the old price is credited,
      // the rest at the new price charged, the difference billed now (common/proration.ts).
      const before = await findPlan({ slug: current.planSlug })
      const period = sandboxPeriodOf(current)
      const rate = prorationRate(period, new Date())
      const { difference } = prorate(cents(before.price), cents(plan.price), rate)
      await send('subscription.updated', subscription({ ...common, status: 'active', nextBilledAt: current.nextBilledAt }))
      await send(
        'transaction.completed',
        transaction({
          ...common,
          origin: 'subscription_update',
          status: 'completed',
          card: cardOf(current),
          items: [
            { priceId: before.priceId, quantity: -1, proration: { rate, period } },
            { priceId: plan.priceId, quantity: 1, proration: { rate, period } },
          ],
          total: difference,
          balance: cents(await options.creditBalance(current.workspaceId)),
        }),
      )
    },

    async endPeriod(current) {
      const plan = await findPlan({ slug: current.planSlug })
      // Paddle keeps a subscription's custom data; the webhook finds our user through the subscription.
      const common = {
        subscriptionId: current.providerSubscriptionId,
        customerId: customer(current),
        customData: { user_id: current.workspaceId, plan: plan.slug },
        plan,
      }
      if (current.cancelAt) {
        await send('subscription.canceled', subscription({ ...common, status: 'canceled', nextBilledAt: null, canceledAt: new Date() }))
        return 'canceled'
      }
      // The end of a trial is billed like a renewal; Paddle then reports the subscription activated.
      const trialEnded = current.status === 'trialing'
      await send(
        'transaction.completed',
        transaction({
          ...common,
          origin: 'subscription_recurring',
          status: 'completed',
          card: cardOf(current),
          items: [{ priceId: plan.priceId, quantity: 1 }],
          total: cents(plan.price),
          // What earlier downgrades credited pays for the renewal first, as with Paddle.
          balance: cents(await options.creditBalance(current.workspaceId)),
        }),
      )
      await send(
        trialEnded ? 'subscription.activated' : 'subscription.updated',
        subscription({ ...common, status: 'active', nextBilledAt: new Date(Date.now() + MONTH_MS) }),
      )
      return trialEnded ? 'trial-ended' : 'renewed'
    },

    // The sandbox's customer portal and invoices are pages of ours (app/routes/billing-portal*.tsx),
    // which show the signed-in member their own workspace's: the links need no token.
    portalSession: () => Promise.resolve(page('/billing/portal')),
    invoiceUrl: (transactionId) => Promise.resolve(page(`/billing/portal/invoices/${encodeURIComponent(transactionId)}`)),

    async updatePaymentMethod(current, card) {
      const plan = await findPlan({ slug: current.planSlug })
      // As Paddle: a zero-value transaction (origin subscription_payment_method_change) whose payment is the new card.
      await send(
        'transaction.completed',
        transaction({
          subscriptionId: current.providerSubscriptionId,
          customerId: customer(current),
          customData: { user_id: current.workspaceId, plan: plan.slug },
          origin: 'subscription_payment_method_change',
          status: 'completed',
          card,
          items: [{ priceId: plan.priceId, quantity: 1 }],
          total: 0,
        }),
      )
    },
  }
}

export type SandboxBilling = ReturnType<typeof createSandboxBilling>
