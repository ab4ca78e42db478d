/**
 * Whether a payment has an invoice at the payment provider: Paddle makes one for a completed
 * transaction that is not zero-value (a trial's $0 start and a payment method change have none).
 * A payment paid wholly from the credit balance still had a value, so it has one.
 */
export function hasInvoice(payment: { status: string; amount: number; creditApplied: number }): boolean {
  return payment.status === 'success' && payment.amount + payment.creditApplied > 0
}

/** Our address of a payment's invoice: it checks the payment is the caller's, then sends them to the provider's link. */
export const invoicePath = (paymentId: string) => `/billing/invoices/${paymentId}`
