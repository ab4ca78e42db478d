import { randomBytes } from 'node:crypto'
import type { BillingPeriod } from '#common/proration.ts'
import type { Subscription } from './billing-provider.ts'

// The Paddle-shaped entities the local payment sandbox sends to our webhook endpoint (sandbox.ts):
// the parts of Paddle Billing's subscription and transaction payloads that we read, and a few more.

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

export const DAY_MS = 24 * 60 * 60 * 1000
/** The sandbox's billing period: every paid period is 30 days, from one billing date to the next. */
export const MONTH_MS = 30 * DAY_MS
export const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(10).toString('hex')}`
export const cents = (dollars: number) => Math.round(dollars * 100)

/** The current period of an active sandbox subscription: the 30 days before its next billing date (or scheduled end). */
export function sandboxPeriodOf(subscription: Pick<Subscription, 'nextBilledAt' | 'cancelAt'>, now = new Date()): BillingPeriod {
  const endsAt = subscription.nextBilledAt ?? subscription.cancelAt ?? new Date(now.getTime() + MONTH_MS)
  return { startsAt: new Date(endsAt.getTime() - MONTH_MS), endsAt }
}

/** One line of a transaction: a price, its quantity (a plan change removes the old one: -1), how it was prorated. */
export interface TransactionItem {
  priceId: string
  quantity: number
  proration?: { rate: number; period: BillingPeriod }
}

/**
 * A transaction's totals, in cents, as Paddle sets them: what is due is paid from the customer's
 * credit balance first (`credit`); a negative total (a downgrade) is put on that balance
 * (`credit_to_balance`) and nothing is charged.
 */
function totals(total: number, balance: number) {
  const credit = total > 0 ? Math.min(balance, total) : 0
  return {
    subtotal: String(total),
    total: String(total),
    credit: String(credit),
    credit_to_balance: String(total < 0 ? -total : 0),
    grand_total: String(Math.max(0, total - credit)),
    currency_code: 'USD',
  }
}

/** A Paddle subscription entity, as its subscription.* events carry it. */
export function subscriptionPayload(input: {
  subscriptionId: string
  customerId: string
  customData: CheckoutCustomData | { user_id: string; plan: string }
  plan: SandboxPlan
  status: string
  nextBilledAt: Date | null
  cancelAt?: Date | null
  canceledAt?: Date | null
  trial?: { startsAt: Date; endsAt: Date }
}) {
  const trialDates = input.trial ? { starts_at: input.trial.startsAt.toISOString(), ends_at: input.trial.endsAt.toISOString() } : null
  return {
    id: input.subscriptionId,
    status: input.status,
    customer_id: input.customerId,
    custom_data: input.customData,
    items: [
      {
        price: { id: input.plan.priceId },
        quantity: 1,
        status: input.status === 'trialing' ? 'trialing' : 'active',
        trial_dates: trialDates,
      },
    ],
    next_billed_at: input.nextBilledAt?.toISOString() ?? null,
    scheduled_change: input.cancelAt ? { action: 'cancel', effective_at: input.cancelAt.toISOString(), resume_at: null } : null,
    canceled_at: input.canceledAt?.toISOString() ?? null,
    management_urls: { update_payment_method: null, cancel: null },
  }
}

/** A Paddle transaction entity, as its transaction.* events carry it. */
export function transactionPayload(input: {
  subscriptionId: string | null
  customerId: string
  customData: CheckoutCustomData | { user_id: string; plan: string }
  origin: string
  status: string
  card: { type: string; last4: string }
  items: TransactionItem[]
  /** The total in cents (a trial's start: 0) and the customer's credit balance, which pays first. */
  total: number
  balance?: number
}) {
  const now = new Date().toISOString()
  return {
    id: sandboxId('txn'),
    status: input.status,
    customer_id: input.customerId,
    subscription_id: input.subscriptionId,
    origin: input.origin,
    currency_code: 'USD',
    custom_data: input.customData,
    items: input.items.map((item) => ({
      price: { id: item.priceId },
      quantity: item.quantity,
      proration: item.proration
        ? {
            rate: item.proration.rate.toFixed(6),
            billing_period: {
              starts_at: item.proration.period.startsAt.toISOString(),
              ends_at: item.proration.period.endsAt.toISOString(),
            },
          }
        : null,
    })),
    details: { totals: totals(input.total, input.balance ?? 0) },
    payments: [{ status: input.status === 'completed' ? 'captured' : 'error', method_details: { type: 'card', card: input.card } }],
    billed_at: now,
    created_at: now,
  }
}
