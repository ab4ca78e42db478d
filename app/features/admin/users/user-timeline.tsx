import { Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { TIMELINE_KIND_LABELS } from '#common/user-timeline.ts'
import type { TimelineRow } from './timeline-view.server.ts'

/** A run's or a payment's outcome as a word an admin reads at a glance. */
const OUTCOMES: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
  success: 'Paid',
  pending: 'Pending',
}

/** A member's timeline, newest first: one list item per event, its kind, time, what happened and, for a run, a link to it. */
export function UserTimeline({ entries }: { entries: TimelineRow[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">Nothing has happened on this account yet.</p>
  return (
    <ol aria-label="Timeline, newest first" className="divide-y rounded-lg border">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-start sm:gap-4">
          <div className="flex shrink-0 items-center gap-2 sm:w-56 sm:flex-col sm:items-start">
            <Badge variant="outline">{TIMELINE_KIND_LABELS[entry.kind]}</Badge>
            <time dateTime={entry.at} className="text-xs text-muted-foreground">
              {entry.when}
            </time>
          </div>
          <div className="min-w-0 flex-1 space-y-1 [overflow-wrap:anywhere]">
            <p className="text-sm font-medium">
              {entry.summary}
              {entry.status ? (
                <span className="ml-2 text-xs font-normal text-muted-foreground">{OUTCOMES[entry.status] ?? entry.status}</span>
              ) : null}
            </p>
            {entry.detail ? <p className="text-xs text-muted-foreground">{entry.detail}</p> : null}
            {entry.runId ? (
              <Link to={`/dashboard/runs/${entry.runId}`} className="text-xs text-primary hover:underline">
                View run
              </Link>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  )
}
