import { cn } from '#app/lib/cn.ts'

export type PaymentStatus = 'success' | 'pending' | 'failed'

// Spec section 4: success green, pending yellow, failed red (with text, so colour is not the only cue).
const STYLES: Record<PaymentStatus, string> = {
  success: 'border-emerald-600/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  pending: 'border-amber-600/40 bg-amber-500/10 text-amber-800 dark:text-amber-300',
  failed: 'border-red-600/40 bg-red-500/10 text-red-700 dark:text-red-300',
}
const LABELS: Record<PaymentStatus, string> = { success: 'Success', pending: 'Pending', failed: 'Failed' }

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <span
      data-status={status}
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', STYLES[status])}
    >
      {LABELS[status]}
    </span>
  )
}
