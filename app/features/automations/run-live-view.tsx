import { useEffect, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { LiveFrame } from '#common/live-view.ts'

type LiveState = { kind: 'connecting' } | { kind: 'frame'; frame: LiveFrame } | { kind: 'ended' }

/**
 * What a running cloud run's browser shows, live (docs/decisions/058): frames from
 * GET /api/runs/{id}/live, at most two a second, none while a vault value is being typed or is on
 * the page. The page unmounts it when the run ends (its run events reload the page).
 */
export function RunLiveView({ runId }: { runId: string }) {
  const [state, setState] = useState<LiveState>({ kind: 'connecting' })
  useEffect(() => {
    const source = new EventSource(`/api/runs/${runId}/live`)
    source.addEventListener('frame', (message) => {
      setState({ kind: 'frame', frame: JSON.parse((message as MessageEvent<string>).data) as LiveFrame })
    })
    // The stream ends with the run; the browser's reconnection is then refused (409) and gives up.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) setState({ kind: 'ended' })
    })
    return () => source.close()
  }, [runId])

  const frame = state.kind === 'frame' ? state.frame : null
  return (
    <Card role="region" aria-labelledby="run-live">
      <CardHeader>
        <CardTitle level={2} id="run-live">
          Live view
        </CardTitle>
        <CardDescription>What the run’s browser shows now, a few times a second.</CardDescription>
      </CardHeader>
      <CardContent>
        {frame?.image ? (
          <img
            src={`data:image/jpeg;base64,${frame.image}`}
            alt="The run’s browser, live"
            width={frame.width}
            height={frame.height}
            className="h-auto w-full rounded-md border bg-muted"
          />
        ) : (
          <p
            role="status"
            className="flex aspect-[16/10] w-full items-center justify-center rounded-md border bg-muted p-4 text-center text-sm"
          >
            {frame
              ? 'Paused: a vault value is being typed or is on the page. The view comes back when it is gone.'
              : state.kind === 'ended'
                ? 'The live view has ended.'
                : 'Connecting to the run’s browser...'}
          </p>
        )}
      </CardContent>
    </Card>
  )
}
