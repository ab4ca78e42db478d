import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'

export interface CreditEntryView {
  id: string
  delta: number
  balanceAfter: number
  reason: 'signup' | 'plan_grant' | 'admin_edit' | 'usage' | 'refund' | 'model_call'
  reference: string | null
  date: string
  dateLabel: string
}

const REASONS: Record<CreditEntryView['reason'], string> = {
  signup: 'Welcome credits',
  plan_grant: 'Plan credits',
  admin_edit: 'Adjusted by Aether support',
  usage: 'Automation run',
  refund: 'Refund for a failed run',
  model_call: 'AI model call',
}

/** The newest lines of the credit ledger: every grant, adjustment and charge. */
export function CreditActivity({ entries }: { entries: CreditEntryView[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Credit Activity</CardTitle>
        <CardDescription>How your credit balance changed recently.</CardDescription>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No credit changes yet.</p>
        ) : (
          <ul className="divide-y">
            {entries.map((entry) => (
              <li key={entry.id} className="flex items-center justify-between gap-4 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">{REASONS[entry.reason]}</p>
                  <p className="truncate text-muted-foreground">
                    <time dateTime={entry.date}>{entry.dateLabel}</time>
                    {entry.reason === 'plan_grant' && entry.reference ? ` · ${entry.reference.split(',')[0]}` : ''}
                  </p>
                </div>
                <div className="text-right tabular-nums">
                  <p className={cn('font-semibold', entry.delta > 0 ? 'text-emerald-700 dark:text-emerald-300' : 'text-foreground')}>
                    {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                  </p>
                  <p className="text-xs text-muted-foreground">Balance {entry.balanceAfter}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
