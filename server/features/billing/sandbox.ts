import { randomBytes } from 'node:crypto'
import type { BillingProvider, Subscription } from './billing-provider.ts'
import { signPaddleBody } from './paddle-signature.ts'

/** What checkout carries to the webhooks: our signed user id (checkout-token.ts) and the plan. */
export interface CheckoutCustomData {
  user_id: string
  plan: string
  user_token: string
}

export interface SandboxPlan {
  slug: string
  name: string
  price: number
  priceId: string
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000
const id = (prefix: string) => `${prefix}_sandbox_${randomBytes(10).toString('hex')}`

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
  findPlan: (query: { slug: string } | { priceId: string }) => Promise<SandboxPlan | null>
}): BillingProvider & {
  purchase(input: { customData: CheckoutCustomData; plan: SandboxPlan; card: 'success' | 'declined' }): Promise<'paid' | 'declined'>
  endPeriod(subscription: Subscription): Promise<'renewed' | 'canceled'>
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

  function subscription(input: {
    subscriptionId: string
    customerId: string
    customData: CheckoutCustomData | { user_id: string; plan: string }
    plan: SandboxPlan
    status: string
    nextBilledAt: Date | null
    cancelAt?: Date | null
    canceledAt?: Date | null
  }) {
    return {
      id: input.subscriptionId,
      status: input.status,
      customer_id: input.customerId,
      custom_data: input.customData,
      items: [{ price: { id: input.plan.priceId }, quantity: 1, status: 'active' }],
      next_billed_at: input.nextBilledAt?.toISOString() ?? null,
      scheduled_change: input.cancelAt ? { action: 'cancel', effective_at: input.cancelAt.toISOString(), resume_at: null } : null,
      canceled_at: input.canceledAt?.toISOString() ?? null,
      management_urls: { update_payment_method: null, cancel: null },
    }
  }

  function transaction(input: {
    subscriptionId: string | null
    customerId: string
    customData: CheckoutCustomData | { user_id: string; plan: string }
    plan: SandboxPlan
    origin: string
    status: string
    card: { type: string; last4: string }
  }) {
    const now = new Date().toISOString()
    return {
      id: id('txn'),
      status: input.status,
      customer_id: input.customerId,
      subscription_id: input.subscriptionId,
      origin: input.origin,
      currency_code: 'USD',
      custom_data: input.customData,
      items: [{ price: { id: input.plan.priceId }, quantity: 1 }],
      details: { totals: { grand_total: String(Math.round(input.plan.price * 100)), currency_code: 'USD' } },
      payments: [{ status: input.status === 'completed' ? 'captured' : 'error', method_details: { type: 'card', card: input.card } }],
      billed_at: now,
      created_at: now,
    }
  }

  const VISA = { type: 'visa', last4: '4242' }
  const DECLINED = { type: 'visa', last4: '0002' }

  async function findPlan(query: { slug: string } | { priceId: string }): Promise<SandboxPlan> {
    const plan = await options.findPlan(query)
    if (!plan) throw new Error(`the sandbox has no purchasable plan for ${JSON.stringify(query)}`)
    return plan
  }

  const customer = (subscription: Subscription) => subscription.providerCustomerId ?? id('ctm')

  return {
    kind: 'sandbox',

    async purchase({ customData, plan, card }) {
      const customerId = id('ctm')
      if (card === 'declined') {
        await send(
          'transaction.payment_failed',
          transaction({ subscriptionId: null, customerId, customData, plan, origin: 'web', status: 'payment_failed', card: DECLINED }),
        )
        return 'declined'
      }
      const subscriptionId = id('sub')
      const nextBilledAt = new Date(Date.now() + MONTH_MS)
      await send('subscription.created', subscription({ subscriptionId, customerId, customData, plan, status: 'active', nextBilledAt }))
      await send(
        'transaction.completed',
        transaction({ subscriptionId, customerId, customData, plan, origin: 'web', status: 'completed', card: VISA }),
      )
      return 'paid'
    },

    async cancelAtPeriodEnd(current) {
      const plan = await findPlan({ slug: current.planSlug })
      const cancelAt = current.nextBilledAt ?? new Date(Date.now() + MONTH_MS)
      await send(
        'subscription.updated',
        subscription({
          subscriptionId: current.providerSubscriptionId,
          customerId: customer(current),
          customData: { user_id: current.userId, plan: plan.slug },
          plan,
          status: 'active',
          nextBilledAt: null,
          cancelAt,
        }),
      )
    },

    async changePrice(current, priceId) {
      const plan = await findPlan({ priceId })
      // Paddle keeps a subscription's custom data; the webhook finds our user through the subscription.
      const common = {
        subscriptionId: current.providerSubscriptionId,
        customerId: customer(current),
        customData: { user_id: current.userId, plan: plan.slug },
        plan,
      }
      await send('subscription.updated', subscription({ ...common, status: 'active', nextBilledAt: current.nextBilledAt }))
      await send('transaction.completed', transaction({ ...common, origin: 'subscription_update', status: 'completed', card: VISA }))
    },

    async endPeriod(current) {
      const plan = await findPlan({ slug: current.planSlug })
      // Paddle keeps a subscription's custom data; the webhook finds our user through the subscription.
      const common = {
        subscriptionId: current.providerSubscriptionId,
        customerId: customer(current),
        customData: { user_id: current.userId, plan: plan.slug },
        plan,
      }
      if (current.cancelAt) {
        await send('subscription.canceled', subscription({ ...common, status: 'canceled', nextBilledAt: null, canceledAt: new Date() }))
        return 'canceled'
      }
      await send('transaction.completed', transaction({ ...common, origin: 'subscription_recurring', status: 'completed', card: VISA }))
      await send('subscription.updated', subscription({ ...common, status: 'active', nextBilledAt: new Date(Date.now() + MONTH_MS) }))
      return 'renewed'
    },
  }
}

export type SandboxBilling = ReturnType<typeof createSandboxBilling>
