import { useLoaderData } from 'react-router'
import type { Route } from './+types/admin-overview'
import { ChartFigure } from '#app/features/admin/overview/chart-figure.tsx'
import { OverviewTiles } from '#app/features/admin/overview/overview-tiles.tsx'
import { counted, dollars, shortDay } from '#app/features/admin/overview/overview-words.ts'
import { CloudQueueCard, RecentErrorsCard } from '#app/features/admin/overview/queue-and-errors.tsx'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import type { OverviewDay } from '#server/features/overview/overview.service.ts'

export async function loader({ context }: Route.LoaderArgs) {
  requireAdminMember(context)
  return { overview: await context.services.overview.overview() }
}

const dayLabel = (day: OverviewDay) => (day.today ? `${shortDay(day.day)} (today)` : shortDay(day.day))

/** The day of the most, in words: "the most on Dec 26 (14)"; empty when every day had none. */
function busiest(days: OverviewDay[], value: (day: OverviewDay) => number): string {
  const top = days.reduce<OverviewDay | null>((best, day) => (value(day) > (best ? value(best) : 0) ? day : best), null)
  return top ? `; the most on ${shortDay(top.day)} (${value(top).toLocaleString('en-US')})` : ''
}

export default function AdminOverviewPage() {
  const { overview } = useLoaderData<typeof loader>()
  const { days, last30Days: month, subscriptionsByPlan } = overview
  const rows = days.map((day) => ({ ...day, label: dayLabel(day) }))
  const runs = month.runsSucceeded + month.runsFailed + month.runsCancelled
  const paying = subscriptionsByPlan.reduce((sum, plan) => sum + plan.paying, 0)
  const trialing = subscriptionsByPlan.reduce((sum, plan) => sum + plan.trialing, 0)
  const asOf = new Date(overview.asOf).toISOString().slice(11, 16)
  return (
    <section aria-labelledby="admin-overview-heading" className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="admin-overview-heading" className="text-lg font-semibold">
          Overview
        </h2>
        <p className="text-sm text-muted-foreground">As of {asOf} UTC · the last 30 days, in UTC days, today so far included</p>
      </div>
      <OverviewTiles overview={overview} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartFigure
          title="Runs per day"
          summary={`${counted(month.runsSucceeded, 'run')} succeeded, ${month.runsFailed.toLocaleString('en-US')} failed and ${month.runsCancelled.toLocaleString('en-US')} cancelled in 30 days${runs ? ` (${Math.round((month.runsSucceeded / runs) * 100)}% succeeded)` : ''}.`}
          rows={rows}
          category="label"
          categoryLabel="Day"
          columns={[
            { key: 'runsSucceeded', label: 'Succeeded', color: 'var(--chart-2)' },
            { key: 'runsFailed', label: 'Failed', color: 'var(--chart-3)' },
            { key: 'runsCancelled', label: 'Cancelled', color: 'var(--chart-4)' },
          ]}
        />
        <ChartFigure
          title="Sign-ups per day"
          summary={`${counted(month.signUps, 'sign-up')} in 30 days${busiest(days, (day) => day.signUps)}.`}
          rows={rows}
          category="label"
          categoryLabel="Day"
          columns={[{ key: 'signUps', label: 'Sign-ups', color: 'var(--chart-1)' }]}
        />
        <ChartFigure
          title="Credits spent per day"
          summary={`${counted(month.creditsSpent, 'credit')} spent on runs and model calls in 30 days, ${month.creditsRefunded.toLocaleString('en-US')} given back.`}
          rows={rows}
          category="label"
          categoryLabel="Day"
          columns={[{ key: 'creditsSpent', label: 'Credits', color: 'var(--chart-1)' }]}
        />
        <ChartFigure
          title="Model calls per day"
          summary={`${counted(month.modelCalls, 'model call')} in 30 days, costing ${counted(month.modelCredits, 'credit')}${busiest(days, (day) => day.modelCalls)}.`}
          rows={rows}
          category="label"
          categoryLabel="Day"
          columns={[{ key: 'modelCalls', label: 'Calls', color: 'var(--chart-5)' }]}
        />
        <ChartFigure
          title="Revenue per day"
          summary={`${dollars(month.revenue)} received in 30 days.`}
          rows={rows}
          category="label"
          categoryLabel="Day"
          columns={[{ key: 'revenue', label: 'Revenue', color: 'var(--chart-2)', format: dollars }]}
        />
        <ChartFigure
          title="Subscriptions by plan"
          summary={
            subscriptionsByPlan.length
              ? `${paying.toLocaleString('en-US')} paid for and ${counted(trialing, 'trial')}, on ${counted(subscriptionsByPlan.length, 'plan')}.`
              : 'No current subscriptions.'
          }
          rows={subscriptionsByPlan}
          category="name"
          categoryLabel="Plan"
          across
          columns={[
            { key: 'paying', label: 'Paid for', color: 'var(--chart-1)' },
            { key: 'trialing', label: 'On trial', color: 'var(--chart-5)' },
          ]}
        />
        <CloudQueueCard queue={overview.queue} />
        <RecentErrorsCard errors={overview.errors} />
      </div>
    </section>
  )
}
