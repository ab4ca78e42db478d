import { format } from 'date-fns'
import type { Payment } from '#server/features/billing/billing.service.ts'
import type { Plan } from '#server/features/plans/plan.service.ts'
import type { PaymentRow } from './payment-table.tsx'

// Formatted on the server, so the HTML and the browser's render agree (dates and money).

export const formatDate = (date: Date) => format(date, 'MMM d, yyyy')

export function formatMoney(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
}

export function paymentRows(payments: Payment[], plans: Pick<Plan, 'slug' | 'name'>[]): PaymentRow[] {
  return payments.map((payment) => ({
    id: payment.id,
    date: payment.createdAt.toISOString(),
    dateLabel: formatDate(payment.createdAt),
    amountLabel: formatMoney(payment.amount, payment.currency),
    planName: plans.find((plan) => plan.slug === payment.planSlug)?.name ?? null,
    status: payment.status,
  }))
}
