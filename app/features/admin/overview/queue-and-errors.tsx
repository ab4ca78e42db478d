import { Link } from 'react-router'
import type { Overview } from '#server/features/overview/overview.service.ts'
import { counted, waitWords } from './overview-words.ts'

/** The cloud queue now: how many runs wait, and for how long. */
export function CloudQueueCard({ queue }: { queue: Overview['queue'] }) {
  return (
    <section aria-labelledby="overview-queue" className="min-w-0 space-y-2 rounded-lg border bg-card p-4 shadow-sm">
      <h3 id="overview-queue" className="font-medium">
        Cloud queue
      </h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Runs waiting</dt>
        <dd className="text-right tabular-nums">{queue.depth.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">Oldest has waited</dt>
        <dd className="text-right tabular-nums">
          {queue.oldestWaitSeconds === null ? 'Nothing waits' : waitWords(queue.oldestWaitSeconds)}
        </dd>
        <dt className="text-muted-foreground">Started in the last hour</dt>
        <dd className="text-right tabular-nums">{queue.startedLastHour.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">Their average wait</dt>
        <dd className="text-right tabular-nums">{queue.averageWaitSeconds === null ? '—' : waitWords(queue.averageWaitSeconds)}</dd>
      </dl>
    </section>
  )
}

/** What went wrong in the last 24 hours, with the most common run errors. */
export function RecentErrorsCard({ errors }: { errors: Overview['errors'] }) {
  const nothing = errors.failedRuns + errors.failedPayments + errors.failedWebhookDeliveries + errors.failedEmails === 0
  return (
    <section aria-labelledby="overview-errors" className="min-w-0 space-y-2 rounded-lg border bg-card p-4 shadow-sm">
      <h3 id="overview-errors" className="font-medium">
        Errors in the last 24 hours
      </h3>
      {nothing ? <p className="text-sm text-muted-foreground">Nothing failed.</p> : null}
      <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <Link to="/admin/runs?status=failed" className="text-primary hover:underline">
            Failed runs
          </Link>
        </dt>
        <dd className="text-right tabular-nums">{errors.failedRuns.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">Failed payments</dt>
        <dd className="text-right tabular-nums">{errors.failedPayments.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">Webhook deliveries given up</dt>
        <dd className="text-right tabular-nums">{errors.failedWebhookDeliveries.toLocaleString('en-US')}</dd>
        <dt className="text-muted-foreground">E-mails not sent</dt>
        <dd className="text-right tabular-nums">{errors.failedEmails.toLocaleString('en-US')}</dd>
      </dl>
      {errors.topRunErrors.length > 0 ? (
        <>
          <h4 className="pt-2 text-sm font-medium">Most common run errors</h4>
          <ol className="space-y-1 text-sm">
            {errors.topRunErrors.map((error) => (
              <li key={error.message} className="flex gap-3">
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{error.message}</span>
                <span className="shrink-0 text-muted-foreground tabular-nums">{counted(error.count, 'run')}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
