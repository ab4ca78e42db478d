import { Hand } from 'lucide-react'
import { Link } from 'react-router'

interface WaitingRun {
  id: string
  automationName: string
  message: string
  until: { iso: string; label: string }
}

/**
 * The workspace's runs waiting for a person (docs/decisions/059), at the top of the dashboard: what
 * each asks and until when, with its page, where a member acts in the live view and continues it.
 */
export function RunsWaiting({ runs }: { runs: WaitingRun[] }) {
  if (runs.length === 0) return null
  return (
    <section
      role="region"
      aria-labelledby="runs-waiting"
      className="space-y-2 rounded-md border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
    >
      <h2 id="runs-waiting" className="flex items-center gap-2 text-base font-semibold">
        <Hand className="size-4" aria-hidden="true" /> {runs.length === 1 ? 'A run is' : `${runs.length} runs are`} waiting for a person
      </h2>
      <ul className="space-y-1.5">
        {runs.map((run) => (
          <li key={run.id} className="flex flex-wrap items-baseline gap-x-2">
            <Link to={`/dashboard/runs/${run.id}`} className="font-medium text-primary hover:underline">
              {run.automationName}
            </Link>
            <span className="whitespace-pre-wrap">{run.message}</span>
            <span className="text-muted-foreground">
              (until <time dateTime={run.until.iso}>{run.until.label}</time>)
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
