import { prorate } from '#common/proration.ts'
import type { subscriptionPlans } from '#server/db/schema/index.ts'

type PlanCredits = Pick<typeof subscriptionPlans.$inferSelect, 'name' | 'creditsPerMonth'>

export interface CreditGrant {
  delta: number
  reference: string
}

/**
 * The credits one completed transaction grants (docs/decisions/010-payments.md): a month's with
 * a month's start (the first transaction, `web`, and each renewal, `subscription_recurring`). A
 * plan change (`subscription_update`) is prorated as its price is (docs/decisions/041): the
 * difference in monthly credits for the share of the period left, added on an upgrade and taken
 * back on a downgrade (a negative delta; the caller takes no more than the balance holds). Other
 * origins (a payment method change, a charge made through the API) grant nothing.
 *
 * A free trial starts with a `web` transaction of total 0: it grants the plan's month, so the member
 * can try the plan, and the first paid month (`subscription_recurring`, at the trial's end) grants
 * the next. One trial per account: a free start after an earlier subscription grants nothing.
 */
export function creditGrantFor(input: {
  origin: string | null | undefined
  transactionId: string
  plan: PlanCredits | null
  /** The plan paid for before this transaction; only read for a plan change. */
  previous: PlanCredits | null
  /** The transaction's total is 0: for `web`, a free trial's start. */
  free?: boolean
  /** The member had another subscription before this one; only read for a free start. */
  earlierSubscription?: boolean
  /** The share of the billing period a plan change was prorated for (common/proration.ts); 1 unless prorated. */
  rate?: number
}): CreditGrant | null {
  const { origin, transactionId, plan, previous, free = false, earlierSubscription = false, rate = 1 } = input
  if (!plan) return null
  if (origin === 'web' && free) {
    if (earlierSubscription || plan.creditsPerMonth <= 0) return null
    return { delta: plan.creditsPerMonth, reference: `${plan.name} plan free trial, transaction ${transactionId}` }
  }
  if (origin === 'web' || origin === 'subscription_recurring') {
    return plan.creditsPerMonth > 0 ? { delta: plan.creditsPerMonth, reference: `${plan.name} plan, transaction ${transactionId}` } : null
  }
  if (origin !== 'subscription_update' || !previous) return null
  const delta = prorate(previous.creditsPerMonth, plan.creditsPerMonth, rate).difference
  if (delta === 0) return null
  const change = delta > 0 ? 'Upgrade' : 'Downgrade'
  const left = rate < 1 ? ` (prorated: ${Math.round(rate * 100)}% of the billing period left)` : ''
  return { delta, reference: `${change} from ${previous.name} to ${plan.name} plan${left}, transaction ${transactionId}` }
}
