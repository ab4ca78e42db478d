import type { subscriptionPlans } from '#server/db/schema/index.ts'

type PlanCredits = Pick<typeof subscriptionPlans.$inferSelect, 'name' | 'creditsPerMonth'>

export interface CreditGrant {
  delta: number
  reference: string
}

/**
 * The credits one completed transaction grants (docs/decisions/010-payments.md): a month's with
 * a month's payment (the first, `web`, and each renewal, `subscription_recurring`); on a plan
 * change (`subscription_update`) the rise in monthly credits over the plan paid for before, so an
 * upgrade tops the month up and a downgrade grants nothing. Other origins (a payment method
 * change, a charge made through the API) grant nothing.
 */
export function creditGrantFor(input: {
  origin: string | null | undefined
  transactionId: string
  plan: PlanCredits | null
  /** The plan paid for before this transaction; only read for a plan change. */
  previous: PlanCredits | null
}): CreditGrant | null {
  const { origin, transactionId, plan, previous } = input
  if (!plan) return null
  if (origin === 'web' || origin === 'subscription_recurring') {
    return plan.creditsPerMonth > 0 ? { delta: plan.creditsPerMonth, reference: `${plan.name} plan, transaction ${transactionId}` } : null
  }
  if (origin !== 'subscription_update' || !previous) return null
  const delta = plan.creditsPerMonth - previous.creditsPerMonth
  return delta > 0 ? { delta, reference: `Upgrade from ${previous.name} to ${plan.name} plan, transaction ${transactionId}` } : null
}
