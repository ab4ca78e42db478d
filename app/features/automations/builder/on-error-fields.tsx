import { useState } from 'react'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { MAX_STEP_RETRIES, type OnError, type StepFailureAction } from '#common/automation-steps.ts'
import { onErrorInWords } from '#common/step-words.ts'
import { withField, type StepData } from './step-drafts.ts'

const DEFAULT_DELAY_MS = 1000
const THEN_CHOICES: { value: StepFailureAction; label: string }[] = [
  { value: 'fail', label: 'Fail the run' },
  { value: 'skip', label: 'Skip this step and go on' },
  { value: 'continue', label: 'Go on, then mark the run failed' },
]

/**
 * A step's "When this step fails" (docs/decisions/028): tries again, the pause between tries,
 * and what then. The defaults (no retry, fail the run) leave `onError` out of the step.
 */
export function OnErrorFields({
  id,
  number,
  step,
  issueOf,
  onChange,
}: {
  id: string
  number: number
  step: StepData
  issueOf: (field: string) => string | undefined
  onChange: (step: StepData) => void
}) {
  // Open while the member works in it, even when they set it back to the defaults.
  const [open, setOpen] = useState(step.onError !== undefined)
  const current = (typeof step.onError === 'object' && step.onError !== null ? step.onError : {}) as Partial<OnError>
  const retries = current.retries ?? 0
  const delayMs = current.delayMs ?? DEFAULT_DELAY_MS
  const then = current.then ?? 'fail'
  const set = (change: Partial<OnError>) => {
    const next = { retries, delayMs, then, ...change }
    onChange(withField(step, 'onError', next.retries === 0 && next.then === 'fail' ? undefined : next))
  }
  const errorOf = (field: keyof OnError) => issueOf(`onError.${field}`)
  const numberField = (
    field: 'retries' | 'delayMs',
    label: string,
    value: number,
    toValue: (input: number) => number,
    attributes: object,
  ) => {
    const inputId = `${id}-on-error-${field}`
    const error = errorOf(field)
    return (
      <div className="space-y-1.5">
        <Label htmlFor={inputId}>{label}</Label>
        <Input
          id={inputId}
          type="number"
          inputMode="decimal"
          value={String(value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(event) => set({ [field]: event.target.value === '' ? 0 : toValue(Number(event.target.value)) })}
          {...attributes}
        />
        {error ? (
          <p id={`${inputId}-error`} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    )
  }
  return (
    <details className="mt-3 rounded-md border border-dashed px-3 py-2" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-sm">
        <span className="font-medium">When step {number} fails:</span>{' '}
        <span className="text-muted-foreground">{onErrorInWords(current)}</span>
      </summary>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {numberField('retries', 'Tries again', retries, Math.trunc, { min: 0, max: MAX_STEP_RETRIES, step: 1 })}
        {numberField('delayMs', 'Seconds between tries', delayMs / 1000, (seconds) => Math.round(seconds * 1000), {
          min: 0,
          max: 60,
          step: 0.5,
          disabled: retries === 0,
        })}
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-on-error-then`}>Then</Label>
          <Select id={`${id}-on-error-then`} value={then} onChange={(event) => set({ then: event.target.value as StepFailureAction })}>
            {THEN_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
      </div>
    </details>
  )
}
