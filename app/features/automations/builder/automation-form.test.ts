import { describe, expect, it } from 'vitest'
import { automationFormSchema, scheduleFormField, scheduleOf } from './automation-form.ts'

// The builder's schedule picker posts plain fields; the form and the action build the API's
// schedule from them with the shared schema (docs/decisions/036).
describe('the schedule picker’s fields', () => {
  it('build the schedule of each kind, or none', () => {
    expect(scheduleOf({ scheduleKind: '' })).toEqual({ schedule: null })
    expect(
      scheduleOf({
        scheduleKind: 'weekly',
        scheduleDays: ['fri', 'mon', 'tue', 'wed', 'thu'],
        scheduleTime: '09:00',
        scheduleTimeZone: 'Europe/Berlin',
        schedulePaused: false,
      }),
    ).toEqual({
      schedule: { kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '09:00', timeZone: 'Europe/Berlin', paused: false },
    })
    expect(scheduleOf({ scheduleKind: 'interval', scheduleEvery: '15', scheduleUnit: 'minutes', scheduleTimeZone: 'UTC' })).toEqual({
      schedule: { kind: 'interval', every: 15, unit: 'minutes', timeZone: 'UTC', paused: false },
    })
    expect(
      scheduleOf({ scheduleKind: 'monthly', scheduleDay: '31', scheduleTime: '06:00', scheduleTimeZone: 'UTC', schedulePaused: true }),
    ).toEqual({
      schedule: { kind: 'monthly', day: 31, time: '06:00', timeZone: 'UTC', paused: true },
    })
    expect(scheduleOf({ scheduleKind: 'cron', scheduleCron: '0 9 * * 1-5', scheduleTimeZone: 'UTC' })).toEqual({
      schedule: { kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC', paused: false },
    })
  })

  it('name the field a problem is about', () => {
    expect(scheduleOf({ scheduleKind: 'daily', scheduleTime: '', scheduleTimeZone: 'UTC' })).toEqual({
      issue: { path: 'scheduleTime', message: 'Time must be a time of day as HH:MM (24-hour), e.g. 09:00.' },
    })
    expect(scheduleOf({ scheduleKind: 'weekly', scheduleDays: [], scheduleTime: '09:00', scheduleTimeZone: 'UTC' })).toMatchObject({
      issue: { path: 'scheduleDays', message: 'Choose at least one day.' },
    })
    expect(scheduleOf({ scheduleKind: 'monthly', scheduleDay: 'x', scheduleTime: '09:00', scheduleTimeZone: 'UTC' })).toMatchObject({
      issue: { path: 'scheduleDay' },
    })
    expect(scheduleOf({ scheduleKind: 'daily', scheduleTime: '09:00', scheduleTimeZone: 'Mars/Olympus' })).toMatchObject({
      issue: { path: 'scheduleTimeZone' },
    })
    expect(scheduleOf({ scheduleKind: 'cron', scheduleCron: 'every day', scheduleTimeZone: 'UTC' })).toMatchObject({
      issue: { path: 'scheduleCron' },
    })
    // The service's issues, on `schedule` or a field inside it, go to the picker's fields.
    expect(scheduleFormField('schedule.time')).toBe('scheduleTime')
    expect(scheduleFormField('schedule.expression')).toBe('scheduleCron')
    expect(scheduleFormField('schedule')).toBe('scheduleKind')
  })

  it('are checked with the rest of the form', () => {
    const base = { name: 'Morning', steps: '[]', scheduleKind: 'daily', scheduleTimeZone: 'UTC' }
    const refused = automationFormSchema.safeParse({ ...base, scheduleTime: '25:00' })
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['scheduleTime', 'Time must be a time of day as HH:MM (24-hour), e.g. 09:00.'],
    ])
    const accepted = automationFormSchema.safeParse({ ...base, scheduleTime: '07:30', scheduleDays: 'mon' })
    expect(accepted.success).toBe(true)
    expect(accepted.data?.scheduleDays).toEqual(['mon'])
  })
})
