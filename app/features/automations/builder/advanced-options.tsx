import { getInputProps, getSelectProps } from '@conform-to/react'
import { ChevronRight } from 'lucide-react'
import { useState } from 'react'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { TRACE_MODES, TRACE_MODE_WORDS } from '#common/run-trace.ts'
import type { DetailFields } from './automation-details.tsx'

type AdvancedFields = Pick<
  DetailFields,
  | 'selfRepair'
  | 'keepSession'
  | 'trace'
  | 'askPersonOnCaptcha'
  | 'signInFrom'
  | 'signInTo'
  | 'signInCheck'
  | 'signInPresent'
  | 'runTimeLimitSeconds'
  | 'runStepLimit'
>

/**
 * Options most automations never need (self-repair, a kept session, sign-in steps, run limits):
 * under "Advanced", after the steps, so a first automation reads task -> steps -> save. It opens
 * by itself when one of them differs from its default or has an error, so nothing set is hidden.
 * A native <details>: it works before hydration and without JavaScript.
 */
export function AdvancedOptions({
  fields,
  modelRepair,
  sessionSavedLabel,
  runLimits,
}: {
  fields: AdvancedFields
  /** Whether self-repair may also ask the AI model (configured, and in the member's plan). */
  modelRepair: boolean
  /** When the kept browser session was saved, or null when there is none. */
  sessionSavedLabel: string | null
  /** The platform's limits of every run: the automation's own may only be lower. */
  runLimits: { timeLimitSeconds: number; maxActions: number }
}) {
  // Opened by what was saved or by an error, then by the member alone (a fixed error does not close it).
  const [open, setOpen] = useState(() => isAnySet(fields) || Boolean(sessionSavedLabel))
  const hasError = Object.values(fields).some((field) => Boolean(field.errors?.length))
  if (hasError && !open) setOpen(true)
  return (
    <Card>
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)} className="group">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-6 py-4 font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden">
          <ChevronRight className="size-4 transition-transform group-open:rotate-90 motion-reduce:transition-none" aria-hidden="true" />
          <h2 className="text-lg leading-tight font-semibold tracking-tight">Advanced</h2>
          <span className="text-sm font-normal text-muted-foreground">
            Self-repair, kept session, CAPTCHAs, traces, sign-in steps, run limits
          </span>
        </summary>
        <CardContent className="grid gap-4 pt-0 sm:grid-cols-2">
          <div className="space-y-1.5 sm:col-span-2">
            <div className="flex items-center gap-2">
              <input {...getInputProps(fields.selfRepair, { type: 'checkbox' })} className="size-4 accent-primary" />
              <Label htmlFor={fields.selfRepair.id}>Repair broken steps during runs</Label>
            </div>
            <p className="text-xs text-muted-foreground">
              When a step’s element is not found (the site changed), the run looks for the element it meant: by similar words
              {modelRepair ? ', then by asking the AI model (1 credit per question)' : ''}. A repair is used for that run only and shown on
              the run’s page, where “Apply fix” writes it into the automation.
            </p>
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <div className="flex items-center gap-2">
              <input {...getInputProps(fields.keepSession, { type: 'checkbox' })} className="size-4 accent-primary" />
              <Label htmlFor={fields.keepSession.id}>Keep browser session</Label>
            </div>
            <p className="text-xs text-muted-foreground">
              After a successful cloud run, its cookies and storage are kept (encrypted like the vault) for the next run, so it can stay
              signed in. Turning this off forgets the kept session.
            </p>
            {sessionSavedLabel ? (
              <p className="flex flex-wrap items-center gap-2 text-xs">
                <span>A session is kept from {sessionSavedLabel}.</span>
                <Button type="submit" form="forget-session" variant="outline" size="sm">
                  Forget session
                </Button>
              </p>
            ) : null}
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <div className="flex items-center gap-2">
              <input {...getInputProps(fields.askPersonOnCaptcha, { type: 'checkbox' })} className="size-4 accent-primary" />
              <Label htmlFor={fields.askPersonOnCaptcha.id}>Ask a person when a CAPTCHA blocks a step</Label>
            </div>
            <p className="text-xs text-muted-foreground">
              When a cloud run’s step fails on a page showing a CAPTCHA or a similar “are you human?” check, the run waits for a person as
              an “Ask a person” step does (everyone who may edit automations is told), then tries the step again. A person is asked once a
              step.
            </p>
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <Label htmlFor={fields.trace.id}>Keep a trace of cloud runs</Label>
            <Select {...getSelectProps(fields.trace)} aria-describedby={`${fields.trace.id}-help`} className="sm:max-w-xs">
              {TRACE_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {TRACE_MODE_WORDS[mode]}
                </option>
              ))}
            </Select>
            <p id={`${fields.trace.id}-help`} className="text-xs text-muted-foreground">
              A trace replays a run action by action: the page before and after each step, its requests and its log. Download it from the
              run’s page or open it there in the trace viewer. Vault values are masked in it; it counts toward the run’s files and is kept
              as long as they are.
            </p>
          </div>
          <fieldset className="space-y-2 sm:col-span-2">
            <legend className="text-sm font-medium">Sign-in steps</legend>
            <p className="text-xs text-muted-foreground">
              Steps that sign in run only when the run finds itself signed out: just before the first of them, it looks for the words below
              on the page. Leave “from” empty when the automation has none.
            </p>
            <div className="grid gap-3 sm:grid-cols-4">
              <div className="space-y-1.5">
                <Label htmlFor={fields.signInFrom.id}>From step</Label>
                <Input {...getInputProps(fields.signInFrom, { type: 'number' })} min={2} />
                <FieldError id={fields.signInFrom.errorId} errors={fields.signInFrom.errors} />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={fields.signInTo.id}>To step</Label>
                <Input {...getInputProps(fields.signInTo, { type: 'number' })} min={2} />
                <FieldError id={fields.signInTo.errorId} errors={fields.signInTo.errors} />
              </div>
              <div className="space-y-1.5 sm:col-span-2">
                <Label htmlFor={fields.signInCheck.id}>The page shows</Label>
                <Input {...getInputProps(fields.signInCheck, { type: 'text' })} placeholder="e.g. Sign in" autoComplete="off" />
                <FieldError id={fields.signInCheck.errorId} errors={fields.signInCheck.errors} />
              </div>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={fields.signInPresent.id}>Those words show</Label>
              <Select {...getSelectProps(fields.signInPresent)}>
                <option value="signedOut">only when signed out (run the sign-in steps when they show)</option>
                <option value="signedIn">only when signed in (skip the sign-in steps when they show)</option>
              </Select>
            </div>
          </fieldset>
          <fieldset className="space-y-2 sm:col-span-2">
            <legend className="text-sm font-medium">Run limits</legend>
            <p id="run-limits-help" className="text-xs text-muted-foreground">
              A cloud run stops, failed, when it reaches either limit. Leave them empty for this server’s: {runLimits.timeLimitSeconds}{' '}
              seconds and {runLimits.maxActions} actions; you can only set lower ones.
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor={fields.runTimeLimitSeconds.id}>Time limit (seconds)</Label>
                <Input
                  {...getInputProps(fields.runTimeLimitSeconds, { type: 'number' })}
                  min={1}
                  max={runLimits.timeLimitSeconds}
                  placeholder={String(runLimits.timeLimitSeconds)}
                  aria-describedby={fieldHelp(fields.runTimeLimitSeconds)}
                />
                <FieldError id={fields.runTimeLimitSeconds.errorId} errors={fields.runTimeLimitSeconds.errors} />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={fields.runStepLimit.id}>Action limit</Label>
                <Input
                  {...getInputProps(fields.runStepLimit, { type: 'number' })}
                  min={1}
                  max={runLimits.maxActions}
                  placeholder={String(runLimits.maxActions)}
                  aria-describedby={fieldHelp(fields.runStepLimit)}
                />
                <FieldError id={fields.runStepLimit.errorId} errors={fields.runStepLimit.errors} />
              </div>
            </div>
          </fieldset>
        </CardContent>
      </details>
    </Card>
  )
}

/** Whether anything here differs from its default (what the saved automation or the last post holds). */
function isAnySet(fields: AdvancedFields): boolean {
  const value = (field: { value?: unknown }) => (typeof field.value === 'string' ? field.value : '')
  return (
    value(fields.selfRepair) !== 'on' ||
    value(fields.keepSession) === 'on' ||
    value(fields.askPersonOnCaptcha) === 'on' ||
    !['', 'off'].includes(value(fields.trace)) ||
    value(fields.signInFrom) !== '' ||
    value(fields.runTimeLimitSeconds) !== '' ||
    value(fields.runStepLimit) !== ''
  )
}

/** A run limit's field is described by the limits' help, and by its error when it has one. */
function fieldHelp(field: { errors?: string[]; errorId: string }): string {
  return field.errors ? `${field.errorId} run-limits-help` : 'run-limits-help'
}
