import { PaymentStatusBadge, type PaymentStatus } from './payment-status.tsx'

export interface PaymentRow {
  id: string
  dateLabel: string
  date: string
  amountLabel: string
  planName: string | null
  status: PaymentStatus
}

/** Billing History rows: date, amount, status (newest first, as the loader sorted them). */
export function PaymentTable({ payments, caption }: { payments: PaymentRow[]; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Date
            </th>
            <th scope="col" className="hidden py-2 pr-4 font-medium sm:table-cell">
              Description
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="py-2 font-medium">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id} className="border-b last:border-0">
              <td className="py-3 pr-4 whitespace-nowrap">
                <time dateTime={payment.date}>{payment.dateLabel}</time>
              </td>
              <td className="hidden py-3 pr-4 sm:table-cell">{payment.planName ? `${payment.planName} plan` : 'Subscription'}</td>
              <td className="py-3 pr-4 text-right tabular-nums">{payment.amountLabel}</td>
              <td className="py-3">
                <PaymentStatusBadge status={payment.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
