import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Save } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { downloadJson } from '#app/lib/download-json.ts'
import type { StepIssue } from '#common/automation-steps.ts'
import type { SignInBlock } from '#common/automations.ts'
import type { TraceMode } from '#common/run-trace.ts'
import type { Schedule } from '#common/schedules.ts'
import { AdvancedOptions } from './advanced-options.tsx'
import { AssistCard } from './assist-card.tsx'
import { automationFormSchema, scheduleOf } from './automation-form.ts'
import { AutomationDetails, type LocalRunner } from './automation-details.tsx'
import type { BuilderAssist, SuggestionsView } from './builder-view.server.ts'
import { exportDocument, exportFileName, type StepData } from './step-drafts.ts'
import { StepsCard } from './steps-card.tsx'
import { SuggestionsCard } from './suggestions-card.tsx'
import { useStepList } from './use-step-list.ts'

export interface BuilderAutomation {
  name: string
  description: string
  /** When it runs by itself, with its zone and paused state (docs/decisions/036); null: only when started. */
  schedule: Schedule | null
  selfRepair: boolean
  /** Keep the browser session between cloud runs, and the sign-in steps (docs/decisions/025). */
  keepSession: boolean
  /** When its cloud runs keep a Playwright trace (docs/decisions/060). */
  trace: TraceMode
  /** Whether a cloud run blocked by a CAPTCHA-like check asks a person (docs/decisions/059, amended). */
  askPersonOnCaptcha: boolean
  signInBlock: SignInBlock | null
  /** The automation's own run limits (docs/decisions/028); null: the platform's. */
  runTimeLimitSeconds: number | null
  runStepLimit: number | null
  /** The local runner its scheduled runs wait for; null: the cloud. */
  deviceId: string | null
  /** When the kept session was saved (a label), or null when there is none. */
  sessionSavedLabel: string | null
  /** The saved version the editor started from (null: a new one); a save of an older one is refused. */
  version: number | null
  steps: StepData[]
}

/**
 * The automation builder: name, description, schedule, self-repair and the rest as a Conform form
 * (it posts without JavaScript too), and the steps editor, which writes the steps as JSON into a
 * hidden field. Above the form, the helpers that build steps for the member (a sentence, or
 * pointing at a page); below it, the saved automation's suggestions. Steps are checked with
 * parseSteps as they change; a step shows its problems once it has been complete, or when a save
 * is tried. The server's answer (its own step issues, the plan's limit) shows in the same places.
 */
export function AutomationBuilder({
  automation,
  memberTimeZone,
  plan,
  runLimits,
  runners,
  assist,
  suggestions,
  lastResult,
  serverIssues,
  limitMessage,
}: {
  automation: BuilderAutomation
  /** The zone in the member's settings (null: their browser's): new schedules start in it, run times show in it. */
  memberTimeZone: string | null
  plan: { name: string; actionLimit: number | null }
  /** The platform's limits of every run. */
  runLimits: { timeLimitSeconds: number; maxActions: number }
  /** The workspace's connected local runners: where scheduled runs may wait instead of the cloud. */
  runners: LocalRunner[]
  assist: BuilderAssist
  /** A saved automation's suggestions (none for a new one). */
  suggestions: SuggestionsView | null
  lastResult?: SubmissionResult<string[]>
  /** The service's step issues for the steps as they were posted. */
  serverIssues?: StepIssue[]
  /** The plan's limit refused the save (PLAN_LIMIT). */
  limitMessage?: string | null
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formMethod === 'POST'
  const list = useStepList(automation.steps, serverIssues)
  const savedJson = JSON.stringify(automation.steps)

  const [form, fields] = useForm({
    id: 'automation',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(automationFormSchema),
    defaultValue: {
      name: automation.name,
      description: automation.description,
      selfRepair: automation.selfRepair,
      keepSession: automation.keepSession,
      trace: automation.trace,
      askPersonOnCaptcha: automation.askPersonOnCaptcha,
      signInFrom: automation.signInBlock ? String(automation.signInBlock.from) : '',
      signInTo: automation.signInBlock ? String(automation.signInBlock.to) : '',
      signInCheck: checkWords(automation.signInBlock),
      signInPresent: automation.signInBlock?.check.present ?? 'signedOut',
      runTimeLimitSeconds: automation.runTimeLimitSeconds === null ? '' : String(automation.runTimeLimitSeconds),
      runStepLimit: automation.runStepLimit === null ? '' : String(automation.runStepLimit),
      deviceId: automation.deviceId ?? '',
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: automationFormSchema }),
    onSubmit: (event) => {
      if (list.checked.ok) return
      event.preventDefault()
      list.refuseSave()
    },
  })

  function exportJson() {
    const name = fields.name.value ?? automation.name
    // The schedule as the picker's fields hold it now (left out when it is incomplete).
    const element = document.getElementById(form.id)
    const values = element instanceof HTMLFormElement ? new FormData(element) : new FormData()
    const text = (key: string) => {
      const value = values.get(key)
      return typeof value === 'string' ? value : undefined
    }
    const schedule = scheduleOf({
      scheduleKind: (text('scheduleKind') ?? '') as Parameters<typeof scheduleOf>[0]['scheduleKind'],
      scheduleEvery: text('scheduleEvery'),
      scheduleUnit: text('scheduleUnit'),
      scheduleTime: text('scheduleTime'),
      scheduleDays: values.getAll('scheduleDays').map(String),
      scheduleDay: text('scheduleDay'),
      scheduleCron: text('scheduleCron'),
      scheduleTimeZone: text('scheduleTimeZone'),
      schedulePaused: values.get('schedulePaused') === 'on',
    })
    const exported = exportDocument({
      name,
      description: fields.description.value ?? '',
      schedule: 'schedule' in schedule ? schedule.schedule : null,
      steps: list.steps.map((step) => step.data),
    })
    downloadJson(exported, exportFileName(name))
  }

  const current = list.steps.map((step) => step.data)
  return (
    <div className="space-y-6">
      <p className="sr-only" aria-live="polite">
        {list.announcement}
      </p>
      <AssistCard
        assist={assist}
        steps={current}
        stepsReplayable={list.checked.ok && current[0]?.type === 'navigate'}
        onReceive={(steps, how) => list.receive(steps, how, 'Planned steps')}
        onAdd={(step) => list.receive([step as StepData], 'append', 'Added from the page')}
      />
      <Form method="post" className="space-y-6" {...getFormProps(form)}>
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

        <AutomationDetails fields={fields} schedule={automation.schedule} memberTimeZone={memberTimeZone} runners={runners} />
        <StepsCard list={list} plan={plan} onExport={exportJson} />
        <AdvancedOptions
          fields={fields}
          modelRepair={assist.modelRepair}
          sessionSavedLabel={automation.sessionSavedLabel}
          runLimits={runLimits}
        />

        <input type="hidden" name="steps" value={list.json} />
        {automation.version === null ? null : <input type="hidden" name="version" value={automation.version} />}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={saving}>
            <Save aria-hidden="true" /> {saving ? 'Saving...' : 'Save Automation'}
          </Button>
          <Link to="/dashboard" className="text-sm text-muted-foreground hover:text-foreground hover:underline">
            Cancel
          </Link>
        </div>
      </Form>
      {/* "Forget session" posts on its own (forms cannot nest); its button sits under Advanced. */}
      <Form method="post" id="forget-session" hidden>
        <input type="hidden" name="intent" value="forget-session" />
      </Form>
      {suggestions ? <SuggestionsCard suggestions={suggestions} unsaved={list.json !== savedJson} /> : null}
    </div>
  )
}

/** The words the sign-in check looks for, as the form shows them. */
function checkWords(block: SignInBlock | null): string {
  const [way] = block?.check.target ?? []
  if (!way) return ''
  if (way.by === 'text' || way.by === 'label' || way.by === 'placeholder') return way.text
  if (way.by === 'role') return way.name ?? ''
  return ''
}
