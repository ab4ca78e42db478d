import type { Overview } from '#server/features/overview/overview.service.ts'
import { counted, dollarChange, dollars, shortDay } from './overview-words.ts'

/** The headline figures: revenue, subscriptions, trials, and the last 30 days' totals. */
export function OverviewTiles({ overview }: { overview: Overview }) {
  const { mrr, last30Days: month, subscriptionsByPlan } = overview
  const trialing = subscriptionsByPlan.reduce((sum, plan) => sum + plan.trialing, 0)
  const tiles = [
    {
      label: 'Monthly recurring revenue',
      value: dollars(mrr.amount),
      detail: mrr.change
        ? `${dollarChange(mrr.change.amount)} since ${shortDay(mrr.change.since)}`
        : 'No earlier figure yet: noted each night',
    },
    { label: 'Paying subscriptions', value: mrr.paying.toLocaleString('en-US'), detail: `${counted(trialing, 'trial')} running` },
    {
      label: 'Trials started, 30 days',
      value: month.trialsStarted.toLocaleString('en-US'),
      detail: `${month.trialsConverted.toLocaleString('en-US')} converted · ${month.trialsExpired.toLocaleString('en-US')} expired`,
    },
    { label: 'Cancellations, 30 days', value: month.cancellations.toLocaleString('en-US'), detail: 'Paid subscriptions that ended' },
    { label: 'Revenue, 30 days', value: dollars(month.revenue), detail: 'Payments received in US dollars' },
    { label: 'Sign-ups, 30 days', value: month.signUps.toLocaleString('en-US'), detail: 'New accounts' },
    {
      label: 'Runs, 30 days',
      value: (month.runsSucceeded + month.runsFailed + month.runsCancelled).toLocaleString('en-US'),
      detail: `${month.runsSucceeded.toLocaleString('en-US')} succeeded · ${month.runsFailed.toLocaleString('en-US')} failed`,
    },
    {
      label: 'Credits spent, 30 days',
      value: month.creditsSpent.toLocaleString('en-US'),
      detail: `${counted(month.modelCalls, 'model call')} for ${counted(month.modelCredits, 'credit')}`,
    },
  ]
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
      {tiles.map((tile) => (
        <div key={tile.label} className="min-w-0 rounded-lg border bg-card p-4 shadow-sm">
          <dt className="text-sm text-muted-foreground">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-semibold [overflow-wrap:anywhere] tabular-nums">{tile.value}</dd>
          <dd className="mt-1 text-xs text-muted-foreground">{tile.detail}</dd>
        </div>
      ))}
    </dl>
  )
}
