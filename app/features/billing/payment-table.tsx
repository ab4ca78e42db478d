import { FileText } from 'lucide-react'
import { DataTable } from '#app/components/data-table.tsx'
import { PaymentStatusBadge, type PaymentStatus } from './payment-status.tsx'

export interface PaymentRow {
  id: string
  dateLabel: string
  date: string
  amountLabel: string
  planName: string | null
  /** What the payment did with the credit balance at the provider, if anything. */
  note: string | null
  status: PaymentStatus
  /** Our address of its invoice (common/billing-invoices.ts), or null: none, or not for this member. */
  invoiceHref: string | null
}

/** Billing History rows: date, amount, status, and the invoice when there is one (newest first, as the loader sorted them). */
export function PaymentTable({ payments, caption }: { payments: PaymentRow[]; caption: string }) {
  const invoices = payments.some((payment) => payment.invoiceHref)
  const headers = ['Date', 'Description', { label: 'Amount', className: 'text-right' }, 'Status']
  return (
    <DataTable caption={caption} headers={invoices ? [...headers, 'Invoice'] : headers}>
      {payments.map((payment) => (
        <tr key={payment.id} className="border-b last:border-0">
          <td data-label="Date" className="px-3 py-3 whitespace-nowrap">
            <time dateTime={payment.date}>{payment.dateLabel}</time>
          </td>
          <td data-label="Description" className="px-3 py-3">
            {payment.planName ? `${payment.planName} plan` : 'Subscription'}
            {payment.note ? <span className="block text-xs text-muted-foreground">{payment.note}</span> : null}
          </td>
          <td data-label="Amount" className="px-3 py-3 text-right tabular-nums">
            {payment.amountLabel}
          </td>
          <td data-label="Status" className="px-3 py-3">
            <PaymentStatusBadge status={payment.status} />
          </td>
          {invoices ? (
            <td data-label="Invoice" className="px-3 py-3">
              {payment.invoiceHref ? (
                // A document navigation: our server checks the payment is the member's, then sends them to the provider's link.
                <a href={payment.invoiceHref} className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                  <FileText className="size-4" aria-hidden="true" />
                  Invoice<span className="sr-only"> of {payment.dateLabel}</span>
                </a>
              ) : (
                <span className="text-muted-foreground">None</span>
              )}
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  )
}
