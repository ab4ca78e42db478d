import { useEffect, useState, type FormEvent, type MouseEvent } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import type { LiveFrame } from '#common/live-view.ts'
import { MAX_PERSON_TEXT, type PersonInput } from '#common/person-help.ts'

type LiveState = { kind: 'connecting' } | { kind: 'frame'; frame: LiveFrame } | { kind: 'ended' }

/**
 * What a running cloud run's browser shows, live (docs/decisions/058): frames from
 * GET /api/runs/{id}/live, at most two a second, none while a vault value is being typed or is on
 * the page. The page unmounts it when the run ends (its run events reload the page).
 */
export function RunLiveView({ runId, canAct }: { runId: string; canAct: boolean }) {
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
  const [said, setSaid] = useState<string | null>(null)
  const [text, setText] = useState('')

  /** Passes what the person does to the run (POST /api/runs/{id}/live/input); the next pictures show it. */
  async function act(input: PersonInput, done: string) {
    const response = await fetch(`/api/runs/${runId}/live/input`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }).catch(() => null)
    const answer = response && !response.ok ? ((await response.json().catch(() => null)) as { error?: { message?: string } } | null) : null
    setSaid(response?.ok ? done : (answer?.error?.message ?? 'That did not reach the run: try again.'))
  }
  const clickAt = (event: MouseEvent<HTMLImageElement>) => {
    if (!frame) return
    const box = event.currentTarget.getBoundingClientRect()
    const x = ((event.clientX - box.left) / box.width) * frame.width
    const y = ((event.clientY - box.top) / box.height) * frame.height
    void act({ kind: 'click', x, y }, `Clicked at ${Math.round(x)}, ${Math.round(y)}.`)
  }
  const typeText = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!text) return
    void act({ kind: 'type', text }, `Typed ${text.length} character${text.length === 1 ? '' : 's'}.`)
    setText('')
  }
  return (
    <Card role="region" aria-labelledby="run-live">
      <CardHeader>
        <CardTitle level={2} id="run-live">
          Live view
        </CardTitle>
        <CardDescription>
          What the run’s browser shows now, a few times a second.
          {canAct ? ' Click the picture to click the page there; type and press keys below.' : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {frame?.image ? (
          // Clicks on the picture are a pointer's way in; the form below is the keyboard's.
          <img
            src={`data:image/jpeg;base64,${frame.image}`}
            alt="The run’s browser, live"
            width={frame.width}
            height={frame.height}
            onClick={canAct ? clickAt : undefined}
            className={`h-auto w-full rounded-md border bg-muted ${canAct ? 'cursor-crosshair' : ''}`}
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
        {canAct ? (
          <div className="mt-3 space-y-2">
            <form onSubmit={typeText} className="flex flex-wrap items-center gap-2">
              <label htmlFor="live-text" className="text-sm font-medium">
                Type into the page
              </label>
              <Input
                id="live-text"
                value={text}
                maxLength={MAX_PERSON_TEXT}
                autoComplete="off"
                onChange={(event) => setText(event.target.value)}
                className="w-56"
              />
              <Button type="submit" size="sm" variant="outline">
                Type
              </Button>
              {(['Enter', 'Tab', 'Backspace'] as const).map((key) => (
                <Button
                  key={key}
                  type="button"
                  size="sm"
                  variant="outline"
                  onClick={() => void act({ kind: 'press', key }, `Pressed ${key}.`)}
                >
                  Press {key}
                </Button>
              ))}
            </form>
            <p role="status" className="text-sm text-muted-foreground">
              {said}
            </p>
          </div>
        ) : null}
      </CardContent>
    </Card>
  )
}
