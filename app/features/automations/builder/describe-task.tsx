import { Sparkles } from 'lucide-react'
import { useId, useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { MAX_DESCRIPTION_LENGTH } from '#common/planning.ts'
import type { PlanAnswer } from './assist-actions.server.ts'
import { DraftStep } from './draft-step.tsx'
import type { BuilderAssist } from './builder-view.server.ts'
import type { StepData } from './step-drafts.ts'

/**
 * 'Describe your task': a sentence (and the page to start on) becomes draft steps, shown in
 * words with what the planner could not use. Nothing is saved or run: the member takes the steps
 * into the editor, checks them and saves.
 */
export function DescribeTask({
  assist,
  startUrl,
  hasSteps,
  onUse,
}: {
  assist: BuilderAssist
  /** The automation's first address, if it has one: the natural start page. */
  startUrl: string
  hasSteps: boolean
  onUse: (steps: StepData[], how: 'replace' | 'append') => void
}) {
  const id = useId()
  const fetcher = useFetcher<PlanAnswer>()
  const planning = fetcher.state !== 'idle'
  const answer = planning ? undefined : fetcher.data
  const [taken, setTaken] = useState<PlanAnswer | null>(null)
  const draft = answer?.plan && answer !== taken ? answer.plan : null
  const use = (how: 'replace' | 'append') => {
    if (!draft) return
    onUse(draft.steps as StepData[], how)
    setTaken(answer ?? null)
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">{assist.plannerNote}</p>
      <fetcher.Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value="plan" />
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-description`}>What should it do?</Label>
          <Textarea
            id={`${id}-description`}
            name="description"
            required
            maxLength={MAX_DESCRIPTION_LENGTH}
            rows={3}
            placeholder="Type “Ada” into Full name, choose Returns in Topic, click Send message, then check that “Thank you” appears"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-start`}>Start page</Label>
          <Input
            id={`${id}-start`}
            name="startUrl"
            type="url"
            defaultValue={startUrl}
            placeholder="https://example.com/contact"
            autoComplete="off"
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={planning}>
            <Sparkles aria-hidden="true" /> {planning ? 'Planning...' : 'Plan steps'}
          </Button>
          {planning ? (
            <p role="status" className="text-sm text-muted-foreground">
              Opening the site in our cloud browser and trying each step; this can take up to a minute.
            </p>
          ) : null}
        </div>
      </fetcher.Form>
      {answer?.error ? (
        <p role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm">
          {answer.error}
        </p>
      ) : null}
      {draft ? (
        <section aria-label="Draft steps" className="space-y-3 rounded-md border p-4">
          <h3 className="font-medium">
            Draft: {draft.steps.length === 1 ? '1 step' : `${draft.steps.length} steps`}
            <span className="ml-2 text-xs font-normal text-muted-foreground">
              {draft.planner === 'model'
                ? `by the AI model (${draft.modelCalls} credit${draft.modelCalls === 1 ? '' : 's'})`
                : 'by the offline planner'}
            </span>
          </h3>
          {draft.notes.length ? (
            <ul aria-label="Notes" className="list-disc space-y-1 pl-5 text-sm text-amber-800 dark:text-amber-300">
              {draft.notes.map((note, index) => (
                <li key={index}>{note}</li>
              ))}
            </ul>
          ) : null}
          {draft.steps.length ? (
            <ol aria-label="Planned steps" className="list-decimal space-y-2 pl-5 text-sm">
              {draft.steps.map((step, index) => (
                <DraftStep key={index} step={step} trial={draft.tried[index]} n={index + 1} />
              ))}
            </ol>
          ) : (
            <p className="text-sm text-muted-foreground">No steps could be planned from this description.</p>
          )}
          {draft.steps.length ? (
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" onClick={() => use('replace')}>
                {hasSteps ? 'Replace my steps' : 'Use these steps'}
              </Button>
              {hasSteps ? (
                <Button type="button" size="sm" variant="outline" onClick={() => use('append')}>
                  Add after my steps
                </Button>
              ) : null}
            </div>
          ) : null}
          <p className="text-xs text-muted-foreground">Check the steps in the editor below, then save. Nothing runs until you start it.</p>
        </section>
      ) : null}
    </div>
  )
}
