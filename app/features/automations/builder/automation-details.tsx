import { getInputProps, getSelectProps, getTextareaProps, type useForm } from '@conform-to/react'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { Schedule } from '#common/schedules.ts'
import type { z } from '#common/zod.ts'
import type { automationFormSchema } from './automation-form.ts'
import type { ScheduleFields } from './schedule-fields.tsx'
import { SchedulePicker } from './schedule-picker.tsx'

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
  /** False for the runner the automation names that was disconnected since: shown so the member chooses again. */
  connected: boolean
}

export type DetailFields = ReturnType<typeof useForm<z.input<typeof automationFormSchema>>>[1]

/** The builder's 'Details' card: name, description, schedule (a picker, docs/decisions/036), where scheduled runs run. */
export function AutomationDetails({
  fields,
  schedule,
  memberTimeZone,
  runners,
}: {
  fields: Pick<DetailFields, 'name' | 'description' | keyof ScheduleFields | 'deviceId'>
  /** The saved schedule (null: none yet). */
  schedule: Schedule | null
  /** The zone in the member's settings, or null for their browser's. */
  memberTimeZone: string | null
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
                {!runner.connected
                  ? `On “${runner.name}”, disconnected: choose another runner or the cloud`
                  : runner.mine
                    ? `On your local runner “${runner.name}”`
                    : `On ${runner.owner}'s local runner “${runner.name}” (only they can choose it)`}
              </option>
            ))}
          </Select>
          <FieldError id={fields.deviceId.errorId} errors={fields.deviceId.errors} />
          <p id={`${fields.deviceId.id}-help`} className="text-xs text-muted-foreground">
            {runners.some((runner) => runner.mine)
              ? 'A local runner takes its runs up while “aether-runner serve” runs on its machine. It runs what its owner saved or approved.'
              : 'Connect a local runner (“aether-runner pair”, see /extension) to run schedules on your own machine.'}
          </p>
        </div>
      </CardContent>
    </Card>
  )
}
