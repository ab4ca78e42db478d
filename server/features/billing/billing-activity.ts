import type { ActivityActor, AuditRecord } from '#server/features/audit/audit.service.ts'
import type { Subscription } from './billing-provider.ts'
import type { PaddleTransaction } from './paddle-events.ts'

/** Who the activity names for what the payment provider's webhooks change. */
export const PAYMENT_PROVIDER: ActivityActor = { id: null, email: 'Payment provider' }

type SubscriptionState = Pick<Subscription, 'planSlug' | 'status' | 'cancelAt'>

/**
 * Billing events as the workspace's activity page and the admin's audit log tell them
 * (docs/decisions/021): what a subscription event changed, or null when nothing a member would
 * notice did (a card's details, the next billing date).
 */
export function subscriptionActivity(
  workspaceId: string,
  subscriptionId: string,
  before: SubscriptionState | undefined,
  after: SubscriptionState,
  planName: string,
): AuditRecord | null {
  const summary = subscriptionChange(before, after, planName)
  if (!summary) return null
  const state = (subscription: SubscriptionState) => ({
    plan: subscription.planSlug,
    status: subscription.status,
    cancelAt: subscription.cancelAt,
  })
  return {
    workspaceId,
    action: before ? 'subscription.update' : 'subscription.create',
    targetType: 'subscription',
    targetId: subscriptionId,
    summary,
    before: before ? state(before) : null,
    after: state(after),
  }
}

function subscriptionChange(before: SubscriptionState | undefined, after: SubscriptionState, planName: string): string | null {
  if (!before) return `Subscribed to ${planName} (${after.status.replace('_', ' ')})`
  if (before.planSlug !== after.planSlug) return `Plan changed to ${planName}`
  if (before.status !== after.status) return `Subscription to ${planName} is now ${after.status.replace('_', ' ')}`
  const day = (date: Date | null) => date?.toISOString().slice(0, 10) ?? null
  if (day(before.cancelAt) === day(after.cancelAt)) return null
  return after.cancelAt ? `Subscription to ${planName} set to end on ${day(after.cancelAt)}` : `Subscription to ${planName} will renew`
}

/** A payment that went through or failed. */
export function paymentActivity(
  transaction: Pick<PaddleTransaction, 'id' | 'subscription_id'>,
  payment: {
    workspaceId: string
    amount: number
    creditApplied: number
    creditToBalance: number
    currency: string
    status: 'success' | 'failed'
    planSlug: string | null
  },
  planName: string | undefined,
): AuditRecord {
  const money = (value: number) => `${value.toFixed(2)} ${payment.currency}`
  const plan = planName ? ` for ${planName}` : ''
  // A prorated downgrade charges nothing: what it did is the credit it put on the balance; a
  // payment the balance covered (in part) says so.
  const paid = payment.status === 'success'
  const fromBalance = paid && payment.creditApplied > 0 ? `, ${money(payment.creditApplied)} of it from the balance` : ''
  const summary =
    paid && payment.amount === 0 && payment.creditToBalance > 0
      ? `Credited to the balance: ${money(payment.creditToBalance)}${plan}`
      : `${paid ? 'Payment received' : 'Payment failed'}: ${money(payment.amount + (paid ? payment.creditApplied : 0))}${plan}${fromBalance}`
  return {
    workspaceId: payment.workspaceId,
    action: paid ? 'payment.success' : 'payment.failed',
    targetType: 'subscription',
    targetId: transaction.subscription_id ?? transaction.id,
    summary,
    after: {
      transaction: transaction.id,
      amount: payment.amount,
      currency: payment.currency,
      plan: payment.planSlug,
      ...(payment.creditApplied > 0 ? { creditApplied: payment.creditApplied } : {}),
      ...(payment.creditToBalance > 0 ? { creditToBalance: payment.creditToBalance } : {}),
    },
  }
}
