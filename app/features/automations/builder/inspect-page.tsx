import { ScanSearch } from 'lucide-react'
import { useId, useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { AutomationStep } from '#common/automation-steps.ts'
import { stepInWords } from '#common/step-words.ts'
import type { InspectAnswer } from './assist-actions.server.ts'
import { ElementPicker } from './element-picker.tsx'
import { ElementStepForm } from './element-step-form.tsx'
import type { StepData } from './step-drafts.ts'

/**
 * 'Inspect page': the page at an address, or the page the automation's steps lead to, loaded in
 * our cloud browser; the member picks elements on its screenshot (or in the list) and adds steps
 * for them, then looks again at the page those steps lead to.
 */
export function InspectPage({
  startUrl,
  steps,
  stepsReplayable,
  onAdd,
}: {
  startUrl: string
  /** The editor's steps, to replay ('the page my steps lead to'). */
  steps: StepData[]
  /** Whether the steps are complete and begin with a navigate step. */
  stepsReplayable: boolean
  onAdd: (step: AutomationStep) => void
}) {
  const id = useId()
  const fetcher = useFetcher<InspectAnswer>()
  // The automation's first address until the member types another.
  const [typed, setUrl] = useState<string | null>(null)
  const url = typed ?? startUrl
  const [picked, setPicked] = useState<number | null>(null)
  const [added, setAdded] = useState<string | null>(null)
  const looking = fetcher.state !== 'idle'
  const answer = fetcher.data
  const inspection = answer?.inspection ?? null
  const element = inspection?.elements.find((candidate) => candidate.ref === picked) ?? null

  const inspect = (from: 'address' | 'steps') => {
    setPicked(null)
    setAdded(null)
    void fetcher.submit(from === 'address' ? { intent: 'inspect', url } : { intent: 'inspect', steps: JSON.stringify(steps) }, {
      method: 'post',
    })
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        Opens the page in our cloud browser (no credits). Pick an element on the screenshot or in the list, choose what the step does, and
        add it.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1 space-y-1.5">
          <Label htmlFor={`${id}-url`}>Page address</Label>
          <Input
            id={`${id}-url`}
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault()
                inspect('address')
              }
            }}
            placeholder="https://example.com/signin"
            autoComplete="off"
          />
        </div>
        <Button type="button" disabled={looking || !url.trim()} onClick={() => inspect('address')}>
          <ScanSearch aria-hidden="true" /> {looking ? 'Loading the page...' : 'Inspect page'}
        </Button>
        <Button type="button" variant="outline" disabled={looking || !stepsReplayable} onClick={() => inspect('steps')}>
          Inspect after my steps
        </Button>
      </div>
      {looking ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading the page in the cloud browser…
        </p>
      ) : null}
      {answer?.error && !looking ? (
        <p role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm">
          {answer.error}
        </p>
      ) : null}
      {inspection && !looking ? (
        <section aria-label="Inspected page" className="space-y-3">
          <p className="text-sm">
            <span className="font-medium">{inspection.title || 'Untitled page'}</span>{' '}
            <span className="break-all text-muted-foreground">{inspection.url}</span>
          </p>
          {inspection.stoppedAt ? (
            <p role="alert" className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3 text-sm">
              Step {inspection.stoppedAt.step} could not be replayed ({inspection.stoppedAt.message}); this is the page where it stopped.
            </p>
          ) : null}
          <ElementPicker inspection={inspection} picked={picked} onPick={setPicked} />
          {element ? (
            <ElementStepForm
              key={element.ref}
              element={element}
              onAdd={(step) => {
                onAdd(step)
                setAdded(stepInWords(step))
              }}
            />
          ) : (
            <p className="text-sm text-muted-foreground">Pick an element to add a step for it.</p>
          )}
          {added ? (
            <p role="status" className="text-sm">
              Added: {added}. Use “Inspect after my steps” to continue from the page it leads to.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  )
}
