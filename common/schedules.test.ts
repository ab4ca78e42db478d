import { Cron } from 'croner'
import { describe, expect, it } from 'vitest'
import {
  cronPatterns,
  minimumIntervalMinutes,
  nextRun,
  nextRuns,
  scheduleFieldSchema,
  scheduleInputSchema,
  type ZonedSchedule,
} from './schedules.ts'
import { describeSchedule } from './schedule-words.ts'
import { isTimeZone, runTimeLabel } from './time-zones.ts'

const iso = (dates: Date[]) => dates.map((date) => date.toISOString())
const weekdaysAt9 = (timeZone: string): ZonedSchedule => ({
  kind: 'weekly',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  time: '09:00',
  timeZone,
})

describe('nextRuns across daylight-saving changes', () => {
  // Europe/Berlin: CET (UTC+1) until 2026-03-29 02:00, CEST (UTC+2) until 2026-10-25 03:00.
  it('Europe/Berlin, spring: weekdays at 09:00 stay at 09:00 local, 08:00 UTC before and 07:00 UTC after', () => {
    expect(iso(nextRuns(weekdaysAt9('Europe/Berlin'), new Date('2026-03-26T00:00:00Z'), 4))).toEqual([
      '2026-03-26T08:00:00.000Z', // Thu 09:00 CET
      '2026-03-27T08:00:00.000Z', // Fri 09:00 CET
      '2026-03-30T07:00:00.000Z', // Mon 09:00 CEST
      '2026-03-31T07:00:00.000Z', // Tue 09:00 CEST
    ])
  })

  it('Europe/Berlin, autumn: weekdays at 09:00 move from 07:00 UTC to 08:00 UTC', () => {
    expect(iso(nextRuns(weekdaysAt9('Europe/Berlin'), new Date('2026-10-22T12:00:00Z'), 3))).toEqual([
      '2026-10-23T07:00:00.000Z', // Fri 09:00 CEST
      '2026-10-26T08:00:00.000Z', // Mon 09:00 CET
      '2026-10-27T08:00:00.000Z',
    ])
  })

  // America/New_York: EST (UTC-5) until 2026-03-08 02:00, EDT (UTC-4) until 2026-11-01 02:00.
  it('America/New_York, spring: daily at 07:30 is 12:30 UTC before and 11:30 UTC after', () => {
    const daily: ZonedSchedule = { kind: 'daily', time: '07:30', timeZone: 'America/New_York' }
    expect(iso(nextRuns(daily, new Date('2026-03-06T15:00:00Z'), 4))).toEqual([
      '2026-03-07T12:30:00.000Z',
      '2026-03-08T11:30:00.000Z',
      '2026-03-09T11:30:00.000Z',
      '2026-03-10T11:30:00.000Z',
    ])
  })

  it('America/New_York, autumn: Mondays and Thursdays at 18:00 move from 22:00 UTC to 23:00 UTC', () => {
    const twice: ZonedSchedule = { kind: 'weekly', days: ['thu', 'mon'], time: '18:00', timeZone: 'America/New_York' }
    expect(iso(nextRuns(twice, new Date('2026-10-28T00:00:00Z'), 3))).toEqual([
      '2026-10-29T22:00:00.000Z', // Thu 18:00 EDT
      '2026-11-02T23:00:00.000Z', // Mon 18:00 EST
      '2026-11-05T23:00:00.000Z',
    ])
  })

  it('a local time the spring-forward skips runs right after the gap; one the fall-back repeats runs once', () => {
    const early: ZonedSchedule = { kind: 'daily', time: '02:30', timeZone: 'Europe/Berlin' }
    expect(iso(nextRuns(early, new Date('2026-03-28T00:00:00Z'), 3))).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 02:30 does not exist: 03:00 CEST
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ])
    expect(iso(nextRuns(early, new Date('2026-10-24T00:00:00Z'), 3))).toEqual([
      '2026-10-24T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST), not the second (CET)
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ])
  })

  it('every hour keeps one hour between runs through both changes', () => {
    const hourly: ZonedSchedule = { kind: 'interval', every: 1, unit: 'hours', timeZone: 'Europe/Berlin' }
    for (const from of ['2026-03-28T23:30:00Z', '2026-10-24T23:30:00Z']) {
      const runs = nextRuns(hourly, new Date(from), 5)
      const gaps = runs.slice(1).map((run, index) => (run.getTime() - (runs[index]?.getTime() ?? 0)) / 3_600_000)
      expect(gaps).toEqual([1, 1, 1, 1])
    }
  })
})

describe('schedules of each kind', () => {
  it('every N minutes and hours fire on the clock', () => {
    const quarter: ZonedSchedule = { kind: 'interval', every: 15, unit: 'minutes', timeZone: 'UTC' }
    expect(iso(nextRuns(quarter, new Date('2026-05-01T10:07:00Z'), 3))).toEqual([
      '2026-05-01T10:15:00.000Z',
      '2026-05-01T10:30:00.000Z',
      '2026-05-01T10:45:00.000Z',
    ])
    const sixHours: ZonedSchedule = { kind: 'interval', every: 6, unit: 'hours', timeZone: 'Asia/Tokyo' }
    // 00:00, 06:00, 12:00, 18:00 in Tokyo (UTC+9).
    expect(iso(nextRuns(sixHours, new Date('2026-05-01T00:00:00Z'), 2))).toEqual(['2026-05-01T03:00:00.000Z', '2026-05-01T09:00:00.000Z'])
  })

  it('monthly on day 31, 30 or 29 runs on the last day of shorter months, once', () => {
    const runsOn = (day: number) =>
      nextRuns({ kind: 'monthly', day, time: '06:00', timeZone: 'UTC' }, new Date('2027-01-01T00:00:00Z'), 4).map((date) =>
        date.toISOString().slice(0, 10),
      )
    expect(runsOn(31)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30'])
    expect(runsOn(30)).toEqual(['2027-01-30', '2027-02-28', '2027-03-30', '2027-04-30'])
    expect(runsOn(29)).toEqual(['2027-01-29', '2027-02-28', '2027-03-29', '2027-04-29'])
    // In a leap year, February 29 once (the day itself and the month's last day are the same run).
    expect(
      nextRuns({ kind: 'monthly', day: 29, time: '06:00', timeZone: 'UTC' }, new Date('2028-02-01T00:00:00Z'), 2).map((date) =>
        date.toISOString().slice(0, 10),
      ),
    ).toEqual(['2028-02-29', '2028-03-29'])
    expect(runsOn(1)).toEqual(['2027-01-01', '2027-02-01', '2027-03-01', '2027-04-01'])
  })

  it('a custom cron expression in UTC fires where croner puts it in UTC (the schedules from before kinds)', () => {
    const from = new Date('2026-03-26T00:00:00Z')
    for (const expression of ['0 9 * * 1-5', '*/10 * * * *', '30 2 1 * *', '0 0 L * *', '15 14 * * MON#2']) {
      const ours = nextRuns({ kind: 'cron', expression, timeZone: 'UTC' }, from, 20)
      expect(iso(ours)).toEqual(iso(new Cron(expression, { timezone: 'UTC', paused: true }).nextRuns(20, from)))
    }
  })

  it('nextRun is the first of nextRuns, after (not at) the given time', () => {
    const daily: ZonedSchedule = { kind: 'daily', time: '09:00', timeZone: 'UTC' }
    expect(nextRun(daily, new Date('2026-05-01T09:00:00Z'))?.toISOString()).toBe('2026-05-02T09:00:00.000Z')
  })

  it('turns each kind into croner patterns', () => {
    expect(cronPatterns({ kind: 'interval', every: 1, unit: 'minutes', timeZone: 'UTC' })).toEqual(['* * * * *'])
    expect(cronPatterns({ kind: 'interval', every: 20, unit: 'minutes', timeZone: 'UTC' })).toEqual(['*/20 * * * *'])
    expect(cronPatterns({ kind: 'interval', every: 1, unit: 'hours', timeZone: 'UTC' })).toEqual(['0 * * * *'])
    expect(cronPatterns({ kind: 'interval', every: 8, unit: 'hours', timeZone: 'UTC' })).toEqual(['0 */8 * * *'])
    expect(cronPatterns({ kind: 'daily', time: '07:05', timeZone: 'UTC' })).toEqual(['5 7 * * *'])
    expect(cronPatterns(weekdaysAt9('UTC'))).toEqual(['0 9 * * 1,2,3,4,5'])
    expect(
      cronPatterns({ kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], time: '00:00', timeZone: 'UTC' }),
    ).toEqual(['0 0 * * *'])
    expect(cronPatterns({ kind: 'monthly', day: 30, time: '23:59', timeZone: 'UTC' })).toEqual(['59 23 30 * *', '59 23 L 2 *'])
    expect(cronPatterns({ kind: 'monthly', day: 31, time: '06:00', timeZone: 'UTC' })).toEqual(['0 6 L * *'])
  })
})

describe('describeSchedule', () => {
  it('says the schedule in words', () => {
    expect(describeSchedule(weekdaysAt9('Europe/Berlin'))).toBe('Weekdays at 09:00, Europe/Berlin')
    expect(describeSchedule({ kind: 'interval', every: 15, unit: 'minutes', timeZone: 'Europe/Berlin' })).toBe('Every 15 minutes')
    expect(describeSchedule({ kind: 'interval', every: 1, unit: 'minutes', timeZone: 'UTC' })).toBe('Every minute')
    expect(describeSchedule({ kind: 'interval', every: 1, unit: 'hours', timeZone: 'UTC' })).toBe('Every hour, on the hour, UTC')
    expect(describeSchedule({ kind: 'interval', every: 6, unit: 'hours', timeZone: 'Asia/Tokyo' })).toBe(
      'Every 6 hours from 00:00, Asia/Tokyo',
    )
    expect(describeSchedule({ kind: 'daily', time: '07:30', timeZone: 'UTC' })).toBe('Daily at 07:30, UTC')
    expect(describeSchedule({ kind: 'weekly', days: ['mon', 'thu'], time: '18:00', timeZone: 'America/New_York' })).toBe(
      'Mondays and Thursdays at 18:00, America/New_York',
    )
    expect(describeSchedule({ kind: 'weekly', days: ['mon', 'wed', 'fri'], time: '08:00', timeZone: 'UTC' })).toBe(
      'Mondays, Wednesdays and Fridays at 08:00, UTC',
    )
    expect(describeSchedule({ kind: 'weekly', days: ['sun'], time: '10:00', timeZone: 'UTC' })).toBe('Sundays at 10:00, UTC')
    expect(describeSchedule({ kind: 'weekly', days: ['sat', 'sun'], time: '10:00', timeZone: 'UTC' })).toBe('Weekends at 10:00, UTC')
    expect(
      describeSchedule({ kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], time: '10:00', timeZone: 'UTC' }),
    ).toBe('Daily at 10:00, UTC')
    expect(describeSchedule({ kind: 'monthly', day: 1, time: '06:00', timeZone: 'Europe/London' })).toBe(
      'Monthly on day 1 at 06:00, Europe/London',
    )
    expect(describeSchedule({ kind: 'monthly', day: 31, time: '06:00', timeZone: 'Europe/London' })).toBe(
      'Monthly on day 31 (the last day in shorter months) at 06:00, Europe/London',
    )
    expect(describeSchedule({ kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC' })).toBe('Custom (cron) “0 9 * * 1-5”, UTC')
  })

  it('labels a run in a zone', () => {
    expect(runTimeLabel(new Date('2026-03-30T07:00:00Z'), 'Europe/Berlin')).toBe('Mon, Mar 30, 2026, 09:00')
    expect(runTimeLabel(new Date('2026-03-30T07:00:00Z'), 'America/New_York')).toBe('Mon, Mar 30, 2026, 03:00')
  })
})

describe('minimumIntervalMinutes', () => {
  const from = new Date('2026-03-20T00:00:00Z')
  it('is the interval as written, in minutes', () => {
    expect(minimumIntervalMinutes({ kind: 'interval', every: 5, unit: 'minutes', timeZone: 'UTC' }, from)).toBe(5)
    expect(minimumIntervalMinutes({ kind: 'interval', every: 2, unit: 'hours', timeZone: 'Europe/Berlin' }, from)).toBe(120)
    // A daily schedule is a day apart even across the spring-forward (23 real hours that night).
    expect(minimumIntervalMinutes({ kind: 'daily', time: '09:00', timeZone: 'Europe/Berlin' }, from)).toBe(1440)
    expect(minimumIntervalMinutes({ kind: 'weekly', days: ['mon', 'thu'], time: '09:00', timeZone: 'UTC' }, from)).toBe(3 * 1440)
    expect(minimumIntervalMinutes({ kind: 'monthly', day: 31, time: '09:00', timeZone: 'UTC' }, from)).toBe(28 * 1440)
  })

  it('is the shortest gap of an irregular cron expression', () => {
    expect(minimumIntervalMinutes({ kind: 'cron', expression: '0,5 9 * * *', timeZone: 'UTC' }, from)).toBe(5)
    expect(minimumIntervalMinutes({ kind: 'cron', expression: '*/2 9 * 2 *', timeZone: 'UTC' }, from)).toBe(2)
    expect(minimumIntervalMinutes({ kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC' }, from)).toBe(1440)
  })
})

describe('the schedule schema', () => {
  const issue = (value: unknown) => {
    const error = scheduleFieldSchema.safeParse(value).error?.issues[0]
    return error ? `${error.path.join('.')}: ${error.message}` : null
  }

  it('reads each kind, with days in week order and the zone as spelled by the database', () => {
    expect(scheduleFieldSchema.parse({ kind: 'weekly', days: ['fri', 'mon'], time: '09:00', timeZone: 'europe/berlin' })).toEqual({
      kind: 'weekly',
      days: ['mon', 'fri'],
      time: '09:00',
      timeZone: 'Europe/Berlin',
    })
    expect(scheduleFieldSchema.parse({ kind: 'daily', time: '23:59', timeZone: 'UTC', paused: true })).toEqual({
      kind: 'daily',
      time: '23:59',
      timeZone: 'UTC',
      paused: true,
    })
    expect(scheduleFieldSchema.parse(null)).toBeNull()
  })

  it('reads the older cron string as a custom cron schedule in UTC, and an empty one as none', () => {
    expect(scheduleFieldSchema.parse(' 0 9 * * 1-5 ')).toEqual({ kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC' })
    expect(scheduleFieldSchema.parse('')).toBeNull()
    expect(issue('every morning')).toBe(
      ': Schedule must be a five-field cron expression (minute hour day month weekday, UTC), e.g. "0 9 * * 1-5".',
    )
  })

  it('names the field that is wrong', () => {
    expect(issue({ kind: 'daily', time: '9:00', timeZone: 'UTC' })).toBe('time: Time must be a time of day as HH:MM (24-hour), e.g. 09:00.')
    expect(issue({ kind: 'daily', time: '24:00', timeZone: 'UTC' })).toMatch(/^time: /)
    expect(issue({ kind: 'daily', time: '09:00', timeZone: 'Mars/Olympus' })).toBe(
      'timeZone: Time zone must be an IANA time zone name, such as Europe/Berlin, America/New_York or UTC.',
    )
    expect(issue({ kind: 'daily', time: '09:00', timeZone: '+01:00' })).toMatch(/^timeZone: /)
    expect(issue({ kind: 'daily', time: '09:00' })).toMatch(/^timeZone: /)
    expect(issue({ kind: 'interval', every: 7, unit: 'minutes', timeZone: 'UTC' })).toBe(
      'every: Every must split an hour evenly: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30 minutes.',
    )
    expect(issue({ kind: 'interval', every: 5, unit: 'hours', timeZone: 'UTC' })).toBe(
      'every: Every must split a day evenly: 1, 2, 3, 4, 6, 8 or 12 hours.',
    )
    expect(issue({ kind: 'interval', every: 5, unit: 'days', timeZone: 'UTC' })).toBe('unit: Unit must be minutes or hours.')
    expect(issue({ kind: 'weekly', days: [], time: '09:00', timeZone: 'UTC' })).toBe('days: Choose at least one day.')
    expect(issue({ kind: 'weekly', days: ['mon', 'mon'], time: '09:00', timeZone: 'UTC' })).toBe('days: Name each day once.')
    expect(issue({ kind: 'weekly', days: ['funday'], time: '09:00', timeZone: 'UTC' })).toMatch(/^days\.0: Days must be among mon/)
    expect(issue({ kind: 'monthly', day: 32, time: '09:00', timeZone: 'UTC' })).toBe('day: Day must be a day of the month, 1 to 31.')
    expect(issue({ kind: 'cron', expression: '0 9 * *', timeZone: 'UTC' })).toBe(
      'expression: Cron expression must have five fields (minute hour day month weekday), e.g. "0 9 * * 1-5".',
    )
    expect(issue({ kind: 'cron', expression: '0 0 30 2 *', timeZone: 'UTC' })).toMatch(/^expression: /)
    expect(issue({ kind: 'yearly', timeZone: 'UTC' })).toBe('kind: Schedule kind must be one of interval, daily, weekly, monthly, cron.')
    expect(issue({ kind: 'constructor', timeZone: 'UTC' })).toMatch(/^kind: Schedule kind must be one of/)
    expect(issue({ timeZone: 'UTC' })).toMatch(/^kind: Schedule kind must be one of/)
    expect(issue(42)).toBe(
      ': Schedule must be an object with kind (interval, daily, weekly, monthly, cron) and timeZone, a five-field cron string (UTC), or null.',
    )
    expect(issue([])).toMatch(/^: Schedule must be an object with kind/)
  })

  it('accepts IANA names and refuses everything else as a zone', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'])
      expect(isTimeZone(zone), zone).toBe(true)
    for (const zone of ['', 'Berlin', 'Mars/Olympus', '+01:00', 'UTC+1', '../etc/passwd', 'Europe/Berlin '])
      expect(isTimeZone(zone), zone).toBe(false)
    expect(scheduleInputSchema.safeParse({ kind: 'daily', time: '09:00', timeZone: 'Europe/Berlin', paused: 'yes' }).success).toBe(false)
  })
})
