import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react'
import { useId, type ChangeEvent } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { cn } from '#app/lib/cn.ts'
import {
  STEP_TYPE_HINTS,
  STEP_TYPE_LABELS,
  waitModeOf,
  withField,
  withWaitMode,
  type ShownIssue,
  type StepData,
  type WaitMode,
} from './step-drafts.ts'
import { FIELDS, type FieldSpec } from './step-field-specs.ts'
import { newAlternative, TargetField } from './target-field.tsx'
import { OnErrorFields } from './on-error-fields.tsx'
import { CodeEditor } from './code-editor.tsx'

/** Steps that shape the workflow rather than act: they decide, repeat or end, and have no "when it fails". */
const BLOCK_STEPS: ReadonlySet<string> = new Set(['if', 'else', 'end', 'repeat', 'forEach', 'forEachRow', 'next', 'stop'])

/** One step: its typed fields, its problems, and buttons to move or delete it. */
export function StepCard({
  stepKey,
  index,
  count,
  step,
  issues,
  onChange,
  onMove,
  onDelete,
  depth = 0,
}: {
  stepKey: string
  index: number
  /** How deep in blocks (if, loops) the step is: shown indented, and said in its title. */
  depth?: number
  count: number
  step: StepData
  /** The problems to show now (none for a new step until it was complete once or a save was tried). */
  issues: ShownIssue[]
  onChange: (step: StepData) => void
  onMove: (direction: 'up' | 'down') => void
  onDelete: () => void
}) {
  const id = useId()
  const number = index + 1
  const titleId = `${id}-title`
  const ofField = (field: string, issue: ShownIssue) => issue.field === field || Boolean(issue.field?.startsWith(`${field}.`))
  const stepIssues = issues.filter((issue) => issue.field === null || !fieldNames(step).some((field) => ofField(field, issue)))
  const issueOf = (field: string) => issues.find((issue) => issue.field === field)?.message

  const field = (spec: FieldSpec) => {
    const inputId = `${id}-${spec.name}`
    if (spec.name === 'target') {
      const present = step.target !== undefined
      return (
        <div key="target" className="space-y-2 sm:col-span-2">
          {present ? (
            <TargetField
              id={inputId}
              label={spec.label}
              value={step.target}
              issues={issues.filter((issue) => ofField('target', issue))}
              onChange={(target) => onChange(withField(step, 'target', target))}
            />
          ) : null}
          {spec.optional ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onChange(withField(step, 'target', present ? undefined : [newAlternative('text')]))}
            >
              {present ? 'Look on the whole page instead' : 'Look in one element only'}
            </Button>
          ) : null}
        </div>
      )
    }
    const error = issueOf(spec.name)
    const raw = step[spec.name]
    const value = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw)
    /** What the field holds: a number field a number, a true/false field a boolean (an optional one left out when false). */
    const typed = (text: string): unknown => {
      if (spec.optional && text === '') return undefined
      if (spec.yesNo) return text === 'true' ? true : spec.optional ? undefined : false
      if (spec.type === 'number') return text === '' ? undefined : Number(text)
      return text
    }
    const props = {
      id: inputId,
      value,
      placeholder: spec.placeholder,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${inputId}-error` : undefined,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
        onChange(withField(step, spec.name, typed(event.target.value))),
    }
    return (
      <div key={spec.name} className={cn('space-y-1.5', spec.multiline && 'sm:col-span-2')}>
        <Label htmlFor={inputId} id={`${inputId}-label`}>
          {spec.label}
        </Label>
        {spec.yesNo ? (
          <Select
            id={inputId}
            value={raw === true || (raw === undefined && !spec.optional) ? 'true' : 'false'}
            onChange={props.onChange}
            aria-invalid={props['aria-invalid']}
            aria-describedby={props['aria-describedby']}
          >
            <option value="true">{spec.yesNo[0]}</option>
            <option value="false">{spec.yesNo[1]}</option>
          </Select>
        ) : spec.options ? (
          <Select
            id={inputId}
            value={value}
            onChange={props.onChange}
            aria-invalid={props['aria-invalid']}
            aria-describedby={props['aria-describedby']}
          >
            {spec.options.map((option) => (
              <option key={option} value={option}>
                {spec.optionLabels?.[option] ?? option}
              </option>
            ))}
          </Select>
        ) : spec.code ? (
          <CodeEditor
            id={inputId}
            value={value}
            rows={6}
            className="min-h-32"
            aria-invalid={props['aria-invalid']}
            aria-describedby={props['aria-describedby']}
            onChange={(code) => onChange(withField(step, spec.name, code))}
          />
        ) : spec.multiline ? (
          <Textarea {...props} rows={2} className="min-h-16" />
        ) : (
          <Input {...props} type={spec.type ?? 'text'} autoComplete="off" spellCheck={false} />
        )}
        {error ? (
          <p id={`${inputId}-error`} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    )
  }

  return (
    <li
      aria-labelledby={titleId}
      data-step-key={stepKey}
      className={cn(
        'rounded-lg border bg-card p-4',
        BLOCK_STEPS.has(step.type) && 'border-l-4 border-l-primary/60 bg-muted/40',
        issues.length > 0 && 'border-destructive/60',
      )}
      style={depth > 0 ? { marginInlineStart: `${Math.min(depth, 6) * 1.25}rem` } : undefined}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={titleId} className="font-medium">
            Step {number}: {STEP_TYPE_LABELS[step.type]}
            {depth > 0 ? <span className="sr-only"> (inside {depth === 1 ? 'a block' : `${depth} blocks`})</span> : null}
          </h3>
          <p className="text-xs text-muted-foreground">{STEP_TYPE_HINTS[step.type]}</p>
        </div>
        <div className="flex gap-1">
          <Button
            type="button"
            variant="ghost"
            size="icon"
            data-move="up"
            aria-label={`Move step ${number} up`}
            title="Move up"
            disabled={index === 0}
            onClick={() => onMove('up')}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            data-move="down"
            aria-label={`Move step ${number} down`}
            title="Move down"
            disabled={index === count - 1}
            onClick={() => onMove('down')}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Delete step ${number}`}
            title="Delete step"
            className="text-destructive hover:text-destructive"
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {step.type === 'wait' ? (
          <WaitFields id={id} step={step} issues={issues} issueOf={issueOf} onChange={onChange} />
        ) : (
          FIELDS[step.type].map(field)
        )}
      </div>
      {BLOCK_STEPS.has(step.type) ? null : <OnErrorFields id={id} number={number} step={step} issueOf={issueOf} onChange={onChange} />}
      {stepIssues.length ? (
        <ul className="mt-3 space-y-1 text-sm text-destructive">
          {stepIssues.map((issue) => (
            <li key={issue.message}>{issue.message}</li>
          ))}
        </ul>
      ) : null}
    </li>
  )
}

const fieldNames = (step: StepData): string[] => [
  ...(step.type === 'wait' ? (waitModeOf(step) === 'ms' ? ['ms'] : ['target', 'gone']) : FIELDS[step.type].map((spec) => spec.name)),
  'onError',
]

/** A wait: for a number of milliseconds, or until an element appears. */
function WaitFields({
  id,
  step,
  issues,
  issueOf,
  onChange,
}: {
  id: string
  step: StepData
  issues: ShownIssue[]
  issueOf: (field: string) => string | undefined
  onChange: (step: StepData) => void
}) {
  const mode = waitModeOf(step)
  const inputId = `${id}-${mode}`
  const error = issueOf(mode === 'ms' ? 'ms' : 'target')
  const raw = step.ms
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-mode`}>Wait for</Label>
        <Select id={`${id}-mode`} value={mode} onChange={(event) => onChange(withWaitMode(step, event.target.value as WaitMode))}>
          <option value="ms">A time</option>
          <option value="target">An element to appear</option>
          <option value="gone">An element to go away</option>
        </Select>
      </div>
      {mode === 'ms' ? (
        <div className="space-y-1.5">
          <Label htmlFor={inputId}>Milliseconds</Label>
          <Input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={0}
            max={60_000}
            step={100}
            value={typeof raw === 'number' ? String(raw) : ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(event) => onChange(withField(step, 'ms', event.target.value === '' ? undefined : Number(event.target.value)))}
          />
          {error ? (
            <p id={`${inputId}-error`} className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
      ) : (
        <TargetField
          id={inputId}
          label="The element"
          value={step.target}
          issues={issues.filter((issue) => issue.field === 'target' || Boolean(issue.field?.startsWith('target.')))}
          onChange={(target) => onChange(withField(step, 'target', target))}
        />
      )}
    </>
  )
}
