import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Download, Plus, Save } from 'lucide-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { downloadJson } from '#app/lib/download-json.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { parseSteps, STEP_TYPES, type StepIssue, type StepType } from '#common/automation-steps.ts'
import { automationFormSchema } from './automation-form.ts'
import { AutomationDetails } from './automation-details.tsx'
import { ImportStepsDialog } from './import-steps-dialog.tsx'
import { StepCard } from './step-card.tsx'
import {
  exportDocument,
  exportFileName,
  issuesByStep,
  moved,
  newStep,
  STEP_TYPE_LABELS,
  type ShownIssue,
  type StepData,
  type StepDraft,
} from './step-drafts.ts'

export interface BuilderAutomation {
  name: string
  description: string
  schedule: string | null
  enabled: boolean
  steps: StepData[]
}

/** Where the focus goes after the steps changed: a step's first field, a move button, or 'Add step'. */
type FocusTarget = { key: string; on: 'first' | 'up' | 'down' } | { key: null; on: 'add' }

/**
 * The automation builder: name, description, schedule and enabled as a Conform form (it posts
 * without JavaScript too), and the steps editor, which writes the steps as JSON into a hidden
 * field. Steps are checked with parseSteps as they change; a step shows its problems once it has
 * been complete, or when a save is tried. The server's answer (its own step issues, the plan's limit)
 * shows in the same places.
 */
export function AutomationBuilder({
  automation,
  plan,
  lastResult,
  serverIssues,
  limitMessage,
}: {
  automation: BuilderAutomation
  plan: { name: string; actionLimit: number | null }
  lastResult?: SubmissionResult<string[]>
  /** The service's step issues for the steps as they were posted. */
  serverIssues?: StepIssue[]
  /** The plan's limit refused the save (PLAN_LIMIT). */
  limitMessage?: string | null
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formMethod === 'POST'
  const [steps, setSteps] = useState<StepDraft[]>(() => automation.steps.map((data, index) => ({ key: `s${index}`, data })))
  const nextKey = useRef(automation.steps.length)
  // Steps that have been complete once: from then on they show their problems as they are typed.
  // A new step stays quiet until a save is tried, so no message appears (and moves the buttons
  // below it) the moment the focus leaves it.
  const [armed, setArmed] = useState<ReadonlySet<string>>(() => new Set())
  // Tried saves with broken steps: each one re-renders, so the focus moves to the first problem.
  const [attempts, setAttempts] = useState(0)
  const attempted = attempts > 0
  const [announcement, setAnnouncement] = useState('')
  const [newType, setNewType] = useState<StepType>('navigate')
  const listRef = useRef<HTMLOListElement>(null)
  const addRef = useRef<HTMLButtonElement>(null)
  const focusTarget = useRef<FocusTarget | null>(null)

  const stepsJson = JSON.stringify(steps.map((step) => step.data))
  // The server's issues speak for the steps it was sent, until they change.
  const [postedIssues, setPostedIssues] = useState<{ issues: StepIssue[]; json: string } | null>(null)
  const [seenIssues, setSeenIssues] = useState(serverIssues)
  if (seenIssues !== serverIssues) {
    setSeenIssues(serverIssues)
    setPostedIssues(serverIssues?.length ? { issues: serverIssues, json: stepsJson } : null)
  }

  const checked = useMemo(() => parseSteps(JSON.parse(stepsJson)), [stepsJson])
  const clientIssues = checked.ok ? [] : checked.issues
  const clientByStep = issuesByStep(clientIssues)
  const complete = steps.filter((step, index) => !clientByStep.has(index) && !armed.has(step.key))
  if (complete.length) setArmed(new Set([...armed, ...complete.map((step) => step.key)]))
  const issues = postedIssues?.json === stepsJson ? issuesByStep(postedIssues.issues) : clientByStep
  const shownIssues = (key: string, index: number): ShownIssue[] =>
    attempted || armed.has(key) || postedIssues?.json === stepsJson ? (issues.get(index) ?? []) : []
  const overLimit = plan.actionLimit !== null && steps.length > plan.actionLimit

  const [form, fields] = useForm({
    id: 'automation',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(automationFormSchema),
    defaultValue: {
      name: automation.name,
      description: automation.description,
      schedule: automation.schedule ?? '',
      enabled: automation.enabled,
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: automationFormSchema }),
    onSubmit: (event) => {
      if (checked.ok) return
      event.preventDefault()
      setAttempts((count) => count + 1)
      const first = issuesByStep(checked.issues).keys().next().value
      const key = first === undefined || first < 0 ? null : steps[first]?.key
      setAnnouncement(
        `The steps have ${checked.issues.length === 1 ? 'a problem' : `${checked.issues.length} problems`}: ${checked.issues[0]?.message}`,
      )
      focusTarget.current = key ? { key, on: 'first' } : { key: null, on: 'add' }
    },
  })

  function moveFocus() {
    const target = focusTarget.current
    if (!target) return
    focusTarget.current = null
    if (target.on === 'add') {
      addRef.current?.focus()
      return
    }
    const item = listRef.current?.querySelector<HTMLElement>(`[data-step-key="${target.key}"]`)
    if (!item) return addRef.current?.focus()
    if (target.on === 'first') {
      const invalid = item.querySelector<HTMLElement>('[aria-invalid="true"]')
      ;(invalid ?? item.querySelector<HTMLElement>('input, textarea, select'))?.focus()
      return
    }
    const button = item.querySelector<HTMLButtonElement>(`[data-move="${target.on}"]`)
    const other = item.querySelector<HTMLButtonElement>(`[data-move="${target.on === 'up' ? 'down' : 'up'}"]`)
    ;(button && !button.disabled ? button : other)?.focus()
  }

  // After a change is rendered, the focus goes where it asked (a new step, a moved one, a problem).
  useEffect(() => moveFocus())

  function update(index: number, data: StepData) {
    setSteps((current) => current.map((step, at) => (at === index ? { ...step, data } : step)))
  }

  function add() {
    const key = `n${nextKey.current++}`
    setSteps((current) => [...current, { key, data: newStep(newType) }])
    focusTarget.current = { key, on: 'first' }
    setAnnouncement(`Step ${steps.length + 1} added: ${STEP_TYPE_LABELS[newType]}.`)
  }

  function move(index: number, direction: 'up' | 'down') {
    const to = direction === 'up' ? index - 1 : index + 1
    const step = steps[index]
    if (!step || to < 0 || to >= steps.length) return
    setSteps((current) => moved(current, index, to))
    focusTarget.current = { key: step.key, on: direction }
    setAnnouncement(`Step ${index + 1} moved ${direction} to position ${to + 1}.`)
  }

  function remove(index: number) {
    const next = steps[index + 1] ?? steps[index - 1]
    setSteps((current) => current.filter((_, at) => at !== index))
    focusTarget.current = next ? { key: next.key, on: 'first' } : { key: null, on: 'add' }
    setAnnouncement(`Step ${index + 1} deleted.`)
  }

  function importSteps(imported: StepData[]) {
    const drafts = imported.map((data) => ({ key: `n${nextKey.current++}`, data }))
    setSteps(drafts)
    // Imported steps show their problems at once.
    setArmed(new Set(drafts.map((draft) => draft.key)))
    focusTarget.current = drafts[0] ? { key: drafts[0].key, on: 'first' } : { key: null, on: 'add' }
    setAnnouncement(`Imported ${imported.length === 1 ? '1 step' : `${imported.length} steps`}.`)
  }

  function exportJson() {
    const name = fields.name.value ?? automation.name
    const document = exportDocument({
      name,
      description: fields.description.value ?? '',
      schedule: fields.schedule.value || null,
      steps: steps.map((step) => step.data),
    })
    downloadJson(document, exportFileName(name))
  }

  const listIssues = issues.get(-1) ?? []

  return (
    <Form method="post" className="space-y-6" {...getFormProps(form)}>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {limitMessage ? (
        <div role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 p-4 text-sm">
          <p className="font-semibold">Plan limit reached</p>
          <p>{limitMessage}</p>
          <Link to="/billing" className="font-medium underline underline-offset-4">
            See plans
          </Link>
        </div>
      ) : null}
      <FieldError id={form.errorId} errors={form.errors} />

      <AutomationDetails fields={fields} />

      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="space-y-1.5">
            <CardTitle level={2} id="steps-heading">
              Steps
            </CardTitle>
            <CardDescription>
              {steps.length === 1 ? '1 step' : `${steps.length} steps`}
              {plan.actionLimit !== null ? ` · the ${plan.name} plan allows up to ${plan.actionLimit} actions per automation` : ''}
            </CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <ImportStepsDialog onImport={importSteps} />
            <Button type="button" variant="outline" size="sm" onClick={exportJson}>
              <Download aria-hidden="true" /> Export JSON
            </Button>
          </div>
        </CardHeader>
        <CardContent className="space-y-4">
          {overLimit ? (
            <p role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm">
              The {plan.name} plan allows up to {plan.actionLimit} actions per automation; this one has {steps.length}.{' '}
              <Link to="/billing" className="font-medium underline underline-offset-4">
                Upgrade for unlimited actions
              </Link>
            </p>
          ) : null}
          {listIssues.length && attempted ? (
            <p role="alert" className="text-sm text-destructive">
              {listIssues[0]?.message}
            </p>
          ) : null}
          {steps.length === 0 ? (
            <p className="text-sm text-muted-foreground">No steps yet. Add the first one below, or import steps as JSON.</p>
          ) : (
            <ol ref={listRef} aria-labelledby="steps-heading" className="space-y-3">
              {steps.map((step, index) => (
                <StepCard
                  key={step.key}
                  stepKey={step.key}
                  index={index}
                  count={steps.length}
                  step={step.data}
                  issues={shownIssues(step.key, index)}
                  onChange={(data) => update(index, data)}
                  onMove={(direction) => move(index, direction)}
                  onDelete={() => remove(index)}
                />
              ))}
            </ol>
          )}
          <div className="flex flex-wrap items-end gap-2 border-t pt-4">
            <div className="space-y-1.5">
              <Label htmlFor="new-step-type">Step type</Label>
              <Select
                id="new-step-type"
                value={newType}
                onChange={(event) => setNewType(event.target.value as StepType)}
                className="min-w-48"
              >
                {STEP_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {STEP_TYPE_LABELS[type]}
                  </option>
                ))}
              </Select>
            </div>
            <Button ref={addRef} type="button" variant="secondary" onClick={add}>
              <Plus aria-hidden="true" /> Add step
            </Button>
          </div>
        </CardContent>
      </Card>

      <input type="hidden" name="steps" value={stepsJson} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={saving}>
          <Save aria-hidden="true" /> {saving ? 'Saving...' : 'Save Automation'}
        </Button>
        <Link to="/dashboard" className="text-sm text-muted-foreground hover:text-foreground hover:underline">
          Cancel
        </Link>
      </div>
    </Form>
  )
}
