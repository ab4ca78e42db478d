import { describe, expect, it } from 'vitest'
import { listLine } from './cli.ts'

describe('runner list', () => {
  it('says each automation’s schedule in words, as the API answers it (docs/decisions/036)', () => {
    const steps = [{}, {}]
    expect(listLine({ id: 'a1', name: 'By hand', steps, schedule: null })).toBe('a1  By hand (2 steps)')
    expect(
      listLine({
        id: 'a2',
        name: 'Morning',
        steps,
        schedule: { kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '09:00', timeZone: 'Europe/Berlin', paused: false },
      }),
    ).toBe('a2  Morning (2 steps)  Weekdays at 09:00, Europe/Berlin')
    expect(
      listLine({ id: 'a3', name: 'Nightly', steps, schedule: { kind: 'cron', expression: '0 2 * * *', timeZone: 'UTC', paused: true } }),
    ).toBe('a3  Nightly (2 steps)  Custom (cron) “0 2 * * *”, UTC (paused)')
  })
})
