import { FieldError } from '#app/components/forms/field-error.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { INTERVAL_HOURS, INTERVAL_MINUTES, WEEKDAYS, type ScheduleKind, type Weekday } from '#common/schedules.ts'
import { CRON_EXAMPLES, type scheduleFormFields } from './automation-form.ts'

// The schedule picker's fields for each kind of schedule (schedule-picker.tsx holds the state and
// the preview). Plain form fields: the builder posts them without JavaScript.

/** What the picker needs of a Conform field: where it is, and its errors. */
interface FieldMeta {
  id: string
  name: string
  errorId: string
  errors?: string[]
}
export type ScheduleFields = Record<keyof typeof scheduleFormFields, FieldMeta>

/** What the member typed for every kind (switching kinds keeps it). */
export interface PickerState {
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

const DAY_LABELS: Record<Weekday, [short: string, long: string]> = {
  mon: ['Mon', 'Monday'],
  tue: ['Tue', 'Tuesday'],
  wed: ['Wed', 'Wednesday'],
  thu: ['Thu', 'Thursday'],
  fri: ['Fri', 'Friday'],
  sat: ['Sat', 'Saturday'],
  sun: ['Sun', 'Sunday'],
}

/** The ids a field is described by: its error when it has one, and the help below it. */
export const describedBy = (field: FieldMeta, ...more: string[]) =>
  [field.errors?.length ? field.errorId : null, ...more].filter(Boolean).join(' ') || undefined

interface KindFieldsProps {
  fields: ScheduleFields
  state: PickerState
  set: (change: Partial<PickerState>) => void
}

/** Every N minutes or hours: only the steps that split the hour or the day evenly. */
export function IntervalFields({ fields, state, set }: KindFieldsProps) {
  const everyChoices: readonly number[] = state.unit === 'hours' ? INTERVAL_HOURS : INTERVAL_MINUTES
  return (
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
  )
}

/** The weekdays of a weekly schedule, as checkboxes named for the whole day. */
export function WeekdayFields({ fields, state, set }: KindFieldsProps) {
  return (
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
              onChange={(event) => set({ days: event.target.checked ? [...state.days, day] : state.days.filter((other) => other !== day) })}
              aria-label={DAY_LABELS[day][1]}
              className="size-4 accent-primary"
            />
            <span aria-hidden="true">{DAY_LABELS[day][0]}</span>
          </label>
        ))}
      </div>
      <FieldError id={fields.scheduleDays.errorId} errors={fields.scheduleDays.errors} />
    </fieldset>
  )
}

/** The day of the month of a monthly schedule. */
export function MonthDayField({ fields, state, set }: KindFieldsProps) {
  return (
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
  )
}

/** The local time of a daily, weekly or monthly schedule. */
export function TimeOfDayField({ fields, state, set }: KindFieldsProps) {
  return (
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
  )
}

/** A custom five-field cron expression, with examples. */
export function CronField({ fields, state, set }: KindFieldsProps) {
  return (
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
  )
}
