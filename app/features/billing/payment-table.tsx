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
}

/** Billing History rows: date, amount, status (newest first, as the loader sorted them). */
export function PaymentTable({ payments, caption }: { payments: PaymentRow[]; caption: string }) {
  return (
    <DataTable
      caption={caption}
      headers={[
        'Date',
        { label: 'Description', className: 'hidden sm:table-cell' },
        { label: 'Amount', className: 'text-right' },
        'Status',
      ]}
    >
      {payments.map((payment) => (
        <tr key={payment.id} className="border-b last:border-0">
          <td className="px-3 py-3 whitespace-nowrap">
            <time dateTime={payment.date}>{payment.dateLabel}</time>
          </td>
          <td className="hidden px-3 py-3 sm:table-cell">
            {payment.planName ? `${payment.planName} plan` : 'Subscription'}
            {payment.note ? <span className="block text-xs text-muted-foreground">{payment.note}</span> : null}
          </td>
          <td className="px-3 py-3 text-right tabular-nums">{payment.amountLabel}</td>
          <td className="px-3 py-3">
            <PaymentStatusBadge status={payment.status} />
          </td>
        </tr>
      ))}
    </DataTable>
  )
}
