import { useId, useMemo, useState, useSyncExternalStore } from 'react'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { useBrowserTimeZone } from '#app/lib/use-browser-time-zone.ts'
import { nextRuns, zonedOf, type Schedule, type ScheduleKind } from '#common/schedules.ts'
import { describeSchedule } from '#common/schedule-words.ts'
import { timeZoneNames } from '#common/time-zones.ts'
import { NextRuns } from '../next-runs.tsx'
import { DEFAULT_DAYS, scheduleOf } from './automation-form.ts'
import {
  CronField,
  describedBy,
  IntervalFields,
  MonthDayField,
  TimeOfDayField,
  WeekdayFields,
  type PickerState,
  type ScheduleFields,
} from './schedule-fields.tsx'

const KIND_CHOICES: { value: '' | ScheduleKind; label: string }[] = [
  { value: '', label: 'None: run it only when started' },
  { value: 'interval', label: 'Every few minutes or hours' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'On chosen weekdays' },
  { value: 'monthly', label: 'Once a month' },
  { value: 'cron', label: 'Custom (cron)' },
]
/** How many next runs the preview shows. */
const PREVIEW_RUNS = 3

/** The time the preview counts from: only in the browser (the server's HTML has no times in it). */
const useNow = () =>
  useSyncExternalStore(
    () => () => {},
    () => Math.floor(Date.now() / 60_000),
    () => null,
  )

function initialState(schedule: Schedule | null): PickerState {
  return {
    kind: schedule?.kind ?? '',
    every: schedule?.kind === 'interval' ? String(schedule.every) : '15',
    unit: schedule?.kind === 'interval' ? schedule.unit : 'minutes',
    time: schedule && 'time' in schedule ? schedule.time : '09:00',
    days: schedule?.kind === 'weekly' ? schedule.days : [...DEFAULT_DAYS],
    day: schedule?.kind === 'monthly' ? String(schedule.day) : '1',
    expression: schedule?.kind === 'cron' ? schedule.expression : '',
    timeZone: schedule?.timeZone ?? null,
    paused: schedule?.paused ?? false,
  }
}

/**
 * The builder's schedule (docs/decisions/036): plain choices (every N minutes or hours, every day,
 * chosen weekdays, once a month) or a custom cron expression, in a time zone (the settings', else
 * the browser's, for a new schedule), and paused. Below it, the schedule in words and its next runs
 * in the member's zone, as the server will read it. Plain form fields: it posts without JavaScript.
 */
export function SchedulePicker({
  fields,
  schedule,
  memberTimeZone,
}: {
  fields: ScheduleFields
  schedule: Schedule | null
  memberTimeZone: string | null
}) {
  const [state, setState] = useState(() => initialState(schedule))
  const set = (change: Partial<PickerState>) => setState((current) => ({ ...current, ...change }))
  const browserZone = useBrowserTimeZone()
  const timeZone = state.timeZone ?? memberTimeZone ?? browserZone ?? 'UTC'
  const now = useNow()
  const zonesId = useId()
  const previewId = useId()
  // The zones to choose from, once in the browser (its own list: the server's may differ).
  const zones = useMemo(() => (browserZone ? timeZoneNames() : []), [browserZone])

  const checked = scheduleOf({
    scheduleKind: state.kind,
    scheduleEvery: state.every,
    scheduleUnit: state.unit,
    scheduleTime: state.time,
    scheduleDays: state.days,
    scheduleDay: state.day,
    scheduleCron: state.expression,
    scheduleTimeZone: timeZone,
    schedulePaused: state.paused,
  })
  const valid = 'schedule' in checked ? checked.schedule : undefined
  const upcoming =
    valid && now !== null && !valid.paused
      ? nextRuns(zonedOf(valid), new Date(now * 60_000), PREVIEW_RUNS).map((run) => run.toISOString())
      : []
  const timed = state.kind === 'daily' || state.kind === 'weekly' || state.kind === 'monthly'

  return (
    <div className="space-y-3 sm:col-span-2">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={fields.scheduleKind.id}>Schedule</Label>
          <Select
            id={fields.scheduleKind.id}
            name={fields.scheduleKind.name}
            value={state.kind}
            onChange={(event) => set({ kind: event.target.value as PickerState['kind'] })}
            aria-invalid={fields.scheduleKind.errors?.length ? true : undefined}
            aria-describedby={describedBy(fields.scheduleKind, previewId)}
          >
            {KIND_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
          <FieldError id={fields.scheduleKind.errorId} errors={fields.scheduleKind.errors} />
        </div>
        {state.kind ? (
          <div className="space-y-1.5">
            <Label htmlFor={fields.scheduleTimeZone.id}>Time zone</Label>
            <Input
              id={fields.scheduleTimeZone.id}
              name={fields.scheduleTimeZone.name}
              value={timeZone}
              onChange={(event) => set({ timeZone: event.target.value })}
              list={zonesId}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={fields.scheduleTimeZone.errors?.length ? true : undefined}
              aria-describedby={describedBy(fields.scheduleTimeZone, `${fields.scheduleTimeZone.id}-help`)}
            />
            <datalist id={zonesId}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
            <FieldError id={fields.scheduleTimeZone.errorId} errors={fields.scheduleTimeZone.errors} />
            <p id={`${fields.scheduleTimeZone.id}-help`} className="text-xs text-muted-foreground">
              Times are this zone’s local times, summer and winter alike (e.g. Europe/Berlin, America/New_York, UTC).
            </p>
          </div>
        ) : null}
      </div>

      {state.kind === 'interval' ? <IntervalFields fields={fields} state={state} set={set} /> : null}
      {state.kind === 'weekly' ? <WeekdayFields fields={fields} state={state} set={set} /> : null}
      {state.kind === 'monthly' ? <MonthDayField fields={fields} state={state} set={set} /> : null}
      {timed ? <TimeOfDayField fields={fields} state={state} set={set} /> : null}
      {state.kind === 'cron' ? <CronField fields={fields} state={state} set={set} /> : null}

      {state.kind ? (
        <div className="flex items-center gap-2">
          <input
            type="checkbox"
            id={fields.schedulePaused.id}
            name={fields.schedulePaused.name}
            value="on"
            checked={state.paused}
            onChange={(event) => set({ paused: event.target.checked })}
            className="size-4 accent-primary"
          />
          <Label htmlFor={fields.schedulePaused.id}>Pause this schedule</Label>
          <FieldError id={fields.schedulePaused.errorId} errors={fields.schedulePaused.errors} />
        </div>
      ) : null}

      <div id={previewId} aria-live="polite" className="space-y-1 rounded-md border bg-muted/40 p-3">
        {!state.kind ? (
          <p className="text-sm">Runs only when you start it.</p>
        ) : valid ? (
          <>
            <p className="text-sm font-medium">
              {describeSchedule(zonedOf(valid))}
              {valid.paused ? ' (paused: it keeps the schedule and does not run until you untick “Pause this schedule”)' : ''}
            </p>
            <NextRuns runs={upcoming} memberTimeZone={memberTimeZone} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{'issue' in checked ? checked.issue.message : null}</p>
        )}
      </div>
    </div>
  )
}
