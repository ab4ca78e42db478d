import { getInputProps, getSelectProps, getTextareaProps, type useForm } from '@conform-to/react'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { Schedule } from '#common/schedules.ts'
import type { z } from '#common/zod.ts'
import type { automationFormSchema } from './automation-form.ts'
import { SchedulePicker, type ScheduleFields } from './schedule-picker.tsx'

/**
 * A connected local runner where scheduled runs may wait (Settings -> Devices): the member's own,
 * or the colleague's the automation already names (only its owner can choose it; docs/decisions/032).
 */
export interface LocalRunner {
  id: string
  name: string
  /** Whose it is: the member's e-mail. */
  owner: string
  mine: boolean
}

type DetailFields = ReturnType<typeof useForm<z.input<typeof automationFormSchema>>>[1]

/** The builder's 'Details' card: name, description, schedule (a picker, docs/decisions/036), where scheduled runs run, self-repair. */
export function AutomationDetails({
  fields,
  schedule,
  memberTimeZone,
  modelRepair,
  sessionSavedLabel,
  runLimits,
  runners,
}: {
  fields: Pick<
    DetailFields,
    | 'name'
    | 'description'
    | keyof ScheduleFields
    | 'selfRepair'
    | 'keepSession'
    | 'signInFrom'
    | 'signInTo'
    | 'signInCheck'
    | 'signInPresent'
    | 'runTimeLimitSeconds'
    | 'runStepLimit'
    | 'deviceId'
  >
  /** The saved schedule (null: none yet). */
  schedule: Schedule | null
  /** The zone in the member's settings, or null for their browser's. */
  memberTimeZone: string | null
  /** Whether self-repair may also ask the AI model (configured, and in the member's plan). */
  modelRepair: boolean
  /** When the kept browser session was saved, or null when there is none. */
  sessionSavedLabel: string | null
  /** The platform's limits of every run: the automation's own may only be lower. */
  runLimits: { timeLimitSeconds: number; maxActions: number }
  runners: LocalRunner[]
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Details</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor={fields.name.id}>Name</Label>
          <Input {...getInputProps(fields.name, { type: 'text' })} placeholder="e.g. Check order status" autoComplete="off" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor={fields.description.id}>Description</Label>
          <Textarea {...getTextareaProps(fields.description)} rows={2} className="min-h-16" placeholder="What it does, for whom" />
          <FieldError id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <SchedulePicker fields={fields} schedule={schedule} memberTimeZone={memberTimeZone} />
        <div className="space-y-1.5">
          <Label htmlFor={fields.deviceId.id}>Scheduled runs run</Label>
          <Select {...getSelectProps(fields.deviceId)} aria-describedby={`${fields.deviceId.id}-help`}>
            <option value="">In the cloud (1 credit each)</option>
            {runners.map((runner) => (
              <option key={runner.id} value={runner.id}>
                {runner.mine
                  ? `On your local runner “${runner.name}”`
                  : `On ${runner.owner}'s local runner “${runner.name}” (only they can choose it)`}
              </option>
            ))}
          </Select>
          <FieldError id={fields.deviceId.errorId} errors={fields.deviceId.errors} />
          <p id={`${fields.deviceId.id}-help`} className="text-xs text-muted-foreground">
            {runners.some((runner) => runner.mine)
              ? 'A local runner takes its runs up while “npm run runner -- serve” runs on its machine. It runs what its owner saved or approved.'
              : 'Connect a local runner (“npm run runner -- pair”, see /extension) to run schedules on your own machine.'}
          </p>
        </div>
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
        <fieldset className="space-y-2 sm:col-span-2">
          <legend className="text-sm font-medium">Sign-in steps</legend>
          <p className="text-xs text-muted-foreground">
            Steps that sign in run only when the run finds itself signed out: just before the first of them, it looks for the words below on
            the page. Leave “from” empty when the automation has none.
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
    </Card>
  )
}

/** A run limit's field is described by the limits' help, and by its error when it has one. */
function fieldHelp(field: { errors?: string[]; errorId: string }): string {
  return field.errors ? `${field.errorId} run-limits-help` : 'run-limits-help'
}
