import { useId, useMemo, useState, useSyncExternalStore } from 'react'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { useBrowserTimeZone } from '#app/lib/use-browser-time-zone.ts'
import {
  describeSchedule,
  INTERVAL_HOURS,
  INTERVAL_MINUTES,
  nextRuns,
  WEEKDAYS,
  zonedOf,
  type Schedule,
  type ScheduleKind,
  type Weekday,
} from '#common/schedules.ts'
import { timeZoneNames } from '#common/time-zones.ts'
import { NextRuns } from '../next-runs.tsx'
import { CRON_EXAMPLES, DEFAULT_DAYS, scheduleOf, type scheduleFormFields } from './automation-form.ts'

/** What the picker needs of a Conform field: where it is, and its errors. */
interface FieldMeta {
  id: string
  name: string
  errorId: string
  errors?: string[]
}
export type ScheduleFields = Record<keyof typeof scheduleFormFields, FieldMeta>

const KIND_CHOICES: { value: '' | ScheduleKind; label: string }[] = [
  { value: '', label: 'None: run it only when started' },
  { value: 'interval', label: 'Every few minutes or hours' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'On chosen weekdays' },
  { value: 'monthly', label: 'Once a month' },
  { value: 'cron', label: 'Custom (cron)' },
]
const DAY_LABELS: Record<Weekday, [short: string, long: string]> = {
  mon: ['Mon', 'Monday'],
  tue: ['Tue', 'Tuesday'],
  wed: ['Wed', 'Wednesday'],
  thu: ['Thu', 'Thursday'],
  fri: ['Fri', 'Friday'],
  sat: ['Sat', 'Saturday'],
  sun: ['Sun', 'Sunday'],
}
/** How many next runs the preview shows. */
const PREVIEW_RUNS = 3

/** The time the preview counts from: only in the browser (the server's HTML has no times in it). */
const useNow = () =>
  useSyncExternalStore(
    () => () => {},
    () => Math.floor(Date.now() / 60_000),
    () => null,
  )

interface PickerState {
  kind: '' | ScheduleKind
  every: string
  unit: string
  time: string
  days: Weekday[]
  day: string
  expression: string
  /** The zone the member chose; null until they do (then the settings' or the browser's). */
  timeZone: string | null
  paused: boolean
}

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

/** The ids a field is described by: its error when it has one, and the help below it. */
const describedBy = (field: FieldMeta, ...more: string[]) =>
  [field.errors?.length ? field.errorId : null, ...more].filter(Boolean).join(' ') || undefined

/**
 * The builder's schedule (docs/decisions/036): plain choices (every N minutes or hours, every day,
 * chosen weekdays, once a month) or a custom cron expression, in a time zone (the settings', else
 * the browser's, for a new schedule), and paused. Below it, the schedule in words and its next runs
 * in the member's zone, as the server will read it. Plain form fields: it posts without JavaScript.
 * Over 300 lines: one state for every kind's fields (switching kinds keeps what was typed), and
 * each field's label, error and help are spelled out where they render.
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
  const everyChoices: readonly number[] = state.unit === 'hours' ? INTERVAL_HOURS : INTERVAL_MINUTES
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

      {state.kind === 'interval' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor={fields.scheduleEvery.id}>Every</Label>
            <Select
              id={fields.scheduleEvery.id}
              name={fields.scheduleEvery.name}
              value={state.every}
              onChange={(event) => set({ every: event.target.value })}
              aria-invalid={fields.scheduleEvery.errors?.length ? true : undefined}
              aria-describedby={describedBy(fields.scheduleEvery)}
            >
              {everyChoices.map((every) => (
                <option key={every} value={String(every)}>
                  {every}
                </option>
              ))}
            </Select>
            <FieldError id={fields.scheduleEvery.errorId} errors={fields.scheduleEvery.errors} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={fields.scheduleUnit.id}>Unit</Label>
            <Select
              id={fields.scheduleUnit.id}
              name={fields.scheduleUnit.name}
              value={state.unit}
              onChange={(event) => {
                const unit = event.target.value
                const choices: readonly number[] = unit === 'hours' ? INTERVAL_HOURS : INTERVAL_MINUTES
                // An interval that does not split the new unit evenly starts again from the first that does.
                set({ unit, every: choices.includes(Number(state.every)) ? state.every : String(choices[0]) })
              }}
            >
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
            </Select>
            <FieldError id={fields.scheduleUnit.errorId} errors={fields.scheduleUnit.errors} />
          </div>
        </div>
      ) : null}

      {state.kind === 'weekly' ? (
        <fieldset className="space-y-1.5" aria-describedby={describedBy(fields.scheduleDays)}>
          <legend className="text-sm font-medium">On</legend>
          <div className="flex flex-wrap gap-3">
            {WEEKDAYS.map((day) => (
              <label key={day} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  name={fields.scheduleDays.name}
                  value={day}
                  checked={state.days.includes(day)}
                  onChange={(event) =>
                    set({ days: event.target.checked ? [...state.days, day] : state.days.filter((other) => other !== day) })
                  }
                  aria-label={DAY_LABELS[day][1]}
                  className="size-4 accent-primary"
                />
                <span aria-hidden="true">{DAY_LABELS[day][0]}</span>
              </label>
            ))}
          </div>
          <FieldError id={fields.scheduleDays.errorId} errors={fields.scheduleDays.errors} />
        </fieldset>
      ) : null}

      {state.kind === 'monthly' ? (
        <div className="space-y-1.5 sm:w-1/2">
          <Label htmlFor={fields.scheduleDay.id}>On day</Label>
          <Input
            id={fields.scheduleDay.id}
            name={fields.scheduleDay.name}
            type="number"
            min={1}
            max={31}
            value={state.day}
            onChange={(event) => set({ day: event.target.value })}
            aria-invalid={fields.scheduleDay.errors?.length ? true : undefined}
            aria-describedby={describedBy(fields.scheduleDay, `${fields.scheduleDay.id}-help`)}
          />
          <FieldError id={fields.scheduleDay.errorId} errors={fields.scheduleDay.errors} />
          <p id={`${fields.scheduleDay.id}-help`} className="text-xs text-muted-foreground">
            Days 29 to 31 run on the last day of shorter months.
          </p>
        </div>
      ) : null}

      {timed ? (
        <div className="space-y-1.5 sm:w-1/2">
          <Label htmlFor={fields.scheduleTime.id}>At</Label>
          <Input
            id={fields.scheduleTime.id}
            name={fields.scheduleTime.name}
            type="time"
            value={state.time}
            onChange={(event) => set({ time: event.target.value })}
            aria-invalid={fields.scheduleTime.errors?.length ? true : undefined}
            aria-describedby={describedBy(fields.scheduleTime)}
          />
          <FieldError id={fields.scheduleTime.errorId} errors={fields.scheduleTime.errors} />
        </div>
      ) : null}

      {state.kind === 'cron' ? (
        <div className="space-y-1.5">
          <Label htmlFor={fields.scheduleCron.id}>Cron expression</Label>
          <Input
            id={fields.scheduleCron.id}
            name={fields.scheduleCron.name}
            value={state.expression}
            onChange={(event) => set({ expression: event.target.value })}
            placeholder="0 9 * * 1-5"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            aria-invalid={fields.scheduleCron.errors?.length ? true : undefined}
            aria-describedby={describedBy(fields.scheduleCron, `${fields.scheduleCron.id}-help`)}
          />
          <FieldError id={fields.scheduleCron.errorId} errors={fields.scheduleCron.errors} />
          <div id={`${fields.scheduleCron.id}-help`} className="space-y-1 text-xs text-muted-foreground">
            <p>Five fields: minute, hour, day of month, month, weekday, in the time zone above.</p>
            <ul>
              {CRON_EXAMPLES.map((example) => (
                <li key={example.cron}>
                  <code className="font-mono text-foreground">{example.cron}</code> {example.meaning}
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}

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
