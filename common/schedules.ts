import { Cron } from 'croner'
import { timeZoneSchema } from './time-zones.ts'
import { z } from './zod.ts'

/**
 * When an automation runs by itself (docs/decisions/036-readable-schedules.md): a structured
 * schedule people choose from plain options (every N minutes or hours, daily, on weekdays, monthly,
 * or a custom cron expression), in an IANA time zone, that fires at that zone's local time across
 * daylight-saving changes. The server validates and fires it, the builder and lists preview it in
 * words with its next runs, and the extension and desktop apps can read it: no I/O. The words are
 * in schedule-words.ts, zone names in time-zones.ts.
 */

export const SCHEDULE_KINDS = ['interval', 'daily', 'weekly', 'monthly', 'cron'] as const
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number]

/** Days of the week as the schedule names them, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]
/** Cron's day numbers (0 is Sunday). */
const CRON_DAY: Record<Weekday, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 0 }

/** Intervals that split an hour (or a day) evenly, so every gap is the same: no short run at the turn of the hour. */
export const INTERVAL_MINUTES = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30] as const
export const INTERVAL_HOURS = [1, 2, 3, 4, 6, 8, 12] as const
export const INTERVAL_UNITS = ['minutes', 'hours'] as const

const listWords = (items: readonly (string | number)[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`

const TIME_MESSAGE = 'Time must be a time of day as HH:MM (24-hour), e.g. 09:00.'
const timeOfDay = z
  .string({ error: TIME_MESSAGE })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE)
  .meta({ description: 'Local time of day in the time zone, HH:MM (24-hour)' })

const CRON_MESSAGE = 'Cron expression must have five fields (minute hour day month weekday), e.g. "0 9 * * 1-5".'
/** A five-field cron expression croner reads and that fires at least once. */
function isCronExpression(expression: string): boolean {
  if (expression.split(/\s+/).length !== 5) return false
  try {
    return new Cron(expression, { timezone: 'UTC', paused: true }).nextRun(new Date()) !== null
  } catch {
    return false
  }
}

/** Fields every kind has: the zone, and whether the schedule is paused (kept while paused, it fires again when resumed). */
const zoned = { timeZone: timeZoneSchema }
const pausedInput = z
  .boolean({ error: 'paused must be true or false' })
  .optional()
  .meta({ description: 'Paused: the schedule is kept but does not fire. Left out: unchanged (a new schedule is not paused)' })

const ruleShapes = {
  interval: {
    kind: z.literal('interval'),
    every: z
      .number({ error: 'Every must be a whole number.' })
      .int('Every must be a whole number.')
      .min(1, 'Every must be at least 1.')
      .meta({
        description: `Minutes: ${INTERVAL_MINUTES.join(', ')}; hours: ${INTERVAL_HOURS.join(', ')} (even splits of an hour or a day)`,
      }),
    unit: z.enum(INTERVAL_UNITS, { error: 'Unit must be minutes or hours.' }),
  },
  daily: { kind: z.literal('daily'), time: timeOfDay },
  weekly: {
    kind: z.literal('weekly'),
    days: z
      .array(z.enum(WEEKDAYS, { error: `Days must be among ${WEEKDAYS.join(', ')}.` }), { error: 'Days must be a list of weekdays.' })
      .min(1, 'Choose at least one day.')
      .max(7, 'A week has seven days.')
      .refine((days) => new Set(days).size === days.length, 'Name each day once.')
      .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
    time: timeOfDay,
  },
  monthly: {
    kind: z.literal('monthly'),
    day: z
      .number({ error: 'Day must be a day of the month, 1 to 31.' })
      .int('Day must be a day of the month, 1 to 31.')
      .min(1, 'Day must be a day of the month, 1 to 31.')
      .max(31, 'Day must be a day of the month, 1 to 31.')
      .meta({ description: 'Day of the month; 29 to 31 run on the last day of shorter months' }),
    time: timeOfDay,
  },
  cron: {
    kind: z.literal('cron'),
    expression: z
      .string({ error: CRON_MESSAGE })
      .trim()
      .max(100, 'Cron expression must be at most 100 characters.')
      .refine(isCronExpression, CRON_MESSAGE)
      .meta({ description: 'Five-field cron (minute hour day month weekday) in the time zone' }),
  },
}

const intervalSplitsEvenly = (value: { every: number; unit: 'minutes' | 'hours' }, context: z.RefinementCtx) => {
  const allowed: readonly number[] = value.unit === 'minutes' ? INTERVAL_MINUTES : INTERVAL_HOURS
  if (!allowed.includes(value.every)) {
    context.addIssue({
      code: 'custom',
      path: ['every'],
      message:
        value.unit === 'minutes'
          ? `Every must split an hour evenly: ${listWords(INTERVAL_MINUTES)} minutes.`
          : `Every must split a day evenly: ${listWords(INTERVAL_HOURS)} hours.`,
    })
  }
}

const KIND_MESSAGE = `Schedule kind must be one of ${SCHEDULE_KINDS.join(', ')}.`
/** The schedule: each kind's fields, the zone, and `paused` as the input or the answer has it. */
function scheduleUnion<P extends z.ZodType>(paused: P) {
  const common = { ...zoned, paused }
  return z.discriminatedUnion(
    'kind',
    [
      z.object({ ...ruleShapes.interval, ...common }).superRefine(intervalSplitsEvenly),
      z.object({ ...ruleShapes.daily, ...common }),
      z.object({ ...ruleShapes.weekly, ...common }),
      z.object({ ...ruleShapes.monthly, ...common }),
      z.object({ ...ruleShapes.cron, ...common }),
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? KIND_MESSAGE : undefined) },
  )
}

/** A schedule as the API and forms send it (`paused` may be left out). */
export const scheduleInputSchema = scheduleUnion(pausedInput)
export type ScheduleInput = z.output<typeof scheduleInputSchema>

/** A schedule as the API answers it. */
export const scheduleOutputSchema = scheduleUnion(z.boolean())
/** A schedule with its zone and its paused state, as the API answers it. */
export type Schedule = z.output<typeof scheduleOutputSchema>
type WithoutPaused<T> = T extends unknown ? Omit<T, 'paused'> : never
/** What decides when a schedule fires: its kind's fields and its zone (stored with the automation; paused is the automation's `enabled`). */
export type ZonedSchedule = WithoutPaused<Schedule>

/** The rule and zone of a schedule, without its paused state. */
export function zonedOf(schedule: ZonedSchedule & { paused?: boolean }): ZonedSchedule {
  const { paused: _paused, ...rest } = schedule
  return rest as ZonedSchedule
}

const LEGACY_MESSAGE = 'Schedule must be a five-field cron expression (minute hour day month weekday, UTC), e.g. "0 9 * * 1-5".'
/**
 * Before schedules had kinds, `schedule` was a five-field cron string in UTC. It is still accepted:
 * read as a custom cron schedule in UTC, so it fires at the same instants ('' is no schedule).
 */
const legacyCron = z
  .string()
  .trim()
  .max(100, 'Schedule must be at most 100 characters.')
  .refine((value) => value === '' || isCronExpression(value), LEGACY_MESSAGE)
  .transform((value): ScheduleInput | null => (value ? { kind: 'cron', expression: value, timeZone: 'UTC' } : null))
  .meta({ description: 'Deprecated: a five-field cron string in UTC, read as { kind: "cron", expression, timeZone: "UTC" }' })

const SHAPE_MESSAGE = `Schedule must be an object with kind (${SCHEDULE_KINDS.join(', ')}) and timeZone, a five-field cron string (UTC), or null.`
/** Every form the `schedule` field takes, for its documentation (OpenAPI, automation.schema.json). */
export const scheduleShapesSchema = z.union([scheduleInputSchema, legacyCron]).nullable()
export const SCHEDULE_FIELD_DESCRIPTION =
  'When it runs by itself: an object with kind and timeZone (paused to keep it without firing), null to run only when started; a five-field cron string is read as a custom cron schedule in UTC'

/**
 * The `schedule` field of an automation: a schedule, the older cron string, or null (runs only
 * when started). Each form is checked by its own schema, chosen by the value's type, so a problem
 * is reported on the field inside the schedule ('schedule.time: …'), which a union would only
 * report as "Invalid input". Its documentation is scheduleShapesSchema's (the server attaches it).
 */
export const scheduleFieldSchema = z.unknown().transform((value, context): ScheduleInput | null => {
  const schema = value === null ? z.null() : typeof value === 'string' ? legacyCron : scheduleInputSchema
  const result = schema.safeParse(value)
  if (result.success) return result.data
  for (const issue of result.error.issues) {
    const shape = issue.path.length === 0 && issue.code !== 'custom'
    context.addIssue({ code: 'custom', path: issue.path, message: shape ? SHAPE_MESSAGE : issue.message })
  }
  return z.NEVER
})

const hourMinute = (time: string) => {
  const [hour = 0, minute = 0] = time.split(':').map(Number)
  return { hour, minute }
}

/**
 * The croner patterns of a schedule: one, or two for a monthly day 29 or 30 (that day where the
 * month has it, and February's last day). Day 31 is cron's `L`: the last day of every month.
 */
export function cronPatterns(schedule: ZonedSchedule): string[] {
  switch (schedule.kind) {
    case 'interval':
      if (schedule.unit === 'minutes') return [schedule.every === 1 ? '* * * * *' : `*/${schedule.every} * * * *`]
      return [schedule.every === 1 ? '0 * * * *' : `0 */${schedule.every} * * *`]
    case 'daily': {
      const { hour, minute } = hourMinute(schedule.time)
      return [`${minute} ${hour} * * *`]
    }
    case 'weekly': {
      const { hour, minute } = hourMinute(schedule.time)
      const days = schedule.days.length === 7 ? '*' : schedule.days.map((day) => CRON_DAY[day]).join(',')
      return [`${minute} ${hour} * * ${days}`]
    }
    case 'monthly': {
      const { hour, minute } = hourMinute(schedule.time)
      if (schedule.day <= 28) return [`${minute} ${hour} ${schedule.day} * *`]
      if (schedule.day === 31) return [`${minute} ${hour} L * *`]
      return [`${minute} ${hour} ${schedule.day} * *`, `${minute} ${hour} L 2 *`]
    }
    case 'cron':
      return [schedule.expression]
  }
}

function runsOf(patterns: string[], timeZone: string, from: Date, count: number): Date[] {
  const times = new Set<number>()
  for (const pattern of patterns) {
    for (const run of new Cron(pattern, { timezone: timeZone, paused: true }).nextRuns(count, from)) times.add(run.getTime())
  }
  return [...times]
    .sort((a, b) => a - b)
    .slice(0, count)
    .map((time) => new Date(time))
}

/**
 * The next `count` times the schedule fires after `from`, as instants. Times are the zone's local
 * times: "09:00 Europe/Berlin" is 08:00 UTC in winter and 07:00 UTC in summer. A local time that
 * a spring-forward skips runs at the first time after the gap that day; one an autumn fall-back
 * repeats runs once, at its first occurrence (croner's rule for fixed times, after Vixie cron).
 */
export function nextRuns(schedule: ZonedSchedule, from: Date, count: number): Date[] {
  return runsOf(cronPatterns(schedule), schedule.timeZone, from, count)
}

/** The next time the schedule fires after `from`, or null when it never does. */
export function nextRun(schedule: ZonedSchedule, from: Date): Date | null {
  return nextRuns(schedule, from, 1)[0] ?? null
}

/** How many runs the minimum interval is measured over (cron expressions may be irregular). */
const INTERVAL_SAMPLE = 100

/**
 * The shortest time between two runs, in minutes, as the schedule is written (on a clock without
 * daylight-saving changes: "daily" is 1,440 even on the 23-hour day of a spring-forward), or null
 * when it fires at most once. A plan's minimum interval is compared with this.
 */
export function minimumIntervalMinutes(schedule: ZonedSchedule, from: Date): number | null {
  if (schedule.kind === 'interval') return schedule.every * (schedule.unit === 'hours' ? 60 : 1)
  const runs = runsOf(cronPatterns(schedule), 'UTC', from, INTERVAL_SAMPLE)
  let shortest: number | null = null
  for (let index = 1; index < runs.length; index++) {
    const gap = ((runs[index]?.getTime() ?? 0) - (runs[index - 1]?.getTime() ?? 0)) / 60_000
    shortest = shortest === null ? gap : Math.min(shortest, gap)
  }
  return shortest
}
