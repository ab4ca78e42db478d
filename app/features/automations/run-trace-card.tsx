import { Download, ExternalLink } from 'lucide-react'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { sizeInWords } from '#app/lib/size-in-words.ts'
import type { RunDetail } from './run-view.server.ts'

/**
 * The run's replay (docs/decisions/060): its Playwright trace, opened in the trace viewer we serve
 * (a new tab) or downloaded for `npx playwright show-trace`; or why the run kept none.
 */
export function RunTraceCard({ runId, trace }: { runId: string; trace: NonNullable<RunDetail['trace']> }) {
  return (
    <Card role="region" aria-labelledby="run-replay">
      <CardHeader>
        <CardTitle level={2} id="run-replay">
          Replay
        </CardTitle>
        <CardDescription>
          {'missing' in trace
            ? trace.missing
            : 'A trace of this run: every action with the page before and after it, the requests and the log. Vault values are masked in it.'}
        </CardDescription>
      </CardHeader>
      {'missing' in trace ? null : (
        <CardContent className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={trace.viewerUrl} target="_blank" rel="noopener">
              <ExternalLink aria-hidden="true" /> Open in trace viewer
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={trace.url} download={`run-${runId}-trace.zip`}>
              <Download aria-hidden="true" /> Download trace ({sizeInWords(trace.size)})
            </a>
          </Button>
        </CardContent>
      )}
    </Card>
  )
}
