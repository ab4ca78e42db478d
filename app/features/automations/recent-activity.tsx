import { Link } from 'react-router'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { RunRow } from './run-view.server.ts'
import { RunStatusBadge } from './run-status.tsx'

/** The member's newest runs, each linking to its run page. */
export function RecentActivity({ runs }: { runs: RunRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Recent Activity</CardTitle>
      </CardHeader>
      <CardContent>
        {runs.length === 0 ? (
          <p className="text-sm text-muted-foreground">No recent automations. Your runs will appear here.</p>
        ) : (
          <ul aria-label="Recent runs" className="divide-y">
            {runs.map((run) => (
              <li key={run.id} className="flex items-center justify-between gap-3 py-2.5 text-sm">
                <div className="min-w-0">
                  <Link to={`/dashboard/runs/${run.id}`} className="block truncate font-medium hover:underline">
                    {run.automationName}
                  </Link>
                  <time dateTime={run.created.iso} className="text-xs text-muted-foreground">
                    {run.created.label}
                  </time>
                </div>
                <RunStatusBadge status={run.status} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
