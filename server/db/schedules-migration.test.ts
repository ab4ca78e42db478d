import { Cron } from 'croner'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { automationInputSchema } from '#common/automations.ts'
import { describeSchedule } from '#common/schedule-words.ts'
import { nextRuns, type ZonedSchedule } from '#common/schedules.ts'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0019 gives schedules kinds and time zones (docs/decisions/036). A database at 0018 kept
// a schedule as a five-field cron string in UTC: it becomes a custom cron schedule in UTC that fires
// at the same instants, keeps its next run and its paused state; plans get their shortest interval
// (Free 15 minutes, Pro 5, Business none, a plan of the admin's own 15), and members a time zone.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0019_readable_schedules')
})
afterEach(async () => {
  await database.close()
})

const CRONS = ['0 9 * * 1-5', '*/15 * * * *', '30 2 1 * *', '0 0 L * *']
const NEXT_RUN = new Date('2026-03-26T08:00:00Z')

async function seedAt0018() {
  await database.client.query(
    `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
  )
  await database.client.query(`insert into users (id, name, email, email_verified) values ('u-1', 'Ada', 'ada@example.com', true)`)
  await database.client.query(`insert into workspaces (id, name, kind, personal_owner_id) values ('u-1', 'Personal', 'personal', 'u-1')`)
  await database.client.query(`insert into profiles (id, full_name) values ('u-1', 'Ada')`)
  for (const [index, cron] of CRONS.entries()) {
    await database.client.query(
      `insert into automations (workspace_id, owner_id, name, steps, schedule, enabled, next_run_at) values ('u-1', 'u-1', $1, '[]', $2, $3, $4)`,
      [`Scheduled ${index}`, cron, index !== 1, NEXT_RUN],
    )
  }
  await database.client.query(`insert into automations (workspace_id, owner_id, name, steps) values ('u-1', 'u-1', 'By hand', '[]')`)
}

describe('migration 0019 (readable schedules)', () => {
  it('turns each cron schedule into a custom cron schedule in UTC that fires at the same instants', async () => {
    await seedAt0018()
    await database.migrateRest()
    const rows = await database.client.query<{ name: string; schedule: ZonedSchedule | null; enabled: boolean; next_run_at: Date | null }>(
      'select name, schedule, enabled, next_run_at from automations order by name',
    )
    expect(rows.rows.map((row) => [row.name, row.schedule, row.enabled])).toEqual([
      ['By hand', null, true],
      ['Scheduled 0', { kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC' }, true],
      ['Scheduled 1', { kind: 'cron', expression: '*/15 * * * *', timeZone: 'UTC' }, false],
      ['Scheduled 2', { kind: 'cron', expression: '30 2 1 * *', timeZone: 'UTC' }, true],
      ['Scheduled 3', { kind: 'cron', expression: '0 0 L * *', timeZone: 'UTC' }, true],
    ])
    const from = new Date('2026-03-01T00:00:00Z')
    for (const row of rows.rows) {
      if (!row.schedule) continue
      // Before, the scheduler asked croner for the pattern's next time in UTC (nextCronRun); now nextRuns.
      const before = new Cron(CRONS[Number(row.name.at(-1))] ?? '', { timezone: 'UTC', paused: true }).nextRuns(50, from)
      expect(nextRuns(row.schedule, from, 50).map(String)).toEqual(before.map(String))
      expect(row.next_run_at?.toISOString()).toBe(NEXT_RUN.toISOString())
      // It reads back through the API's schema unchanged, and says what it is.
      expect(automationInputSchema.shape.schedule.parse(row.schedule)).toEqual(row.schedule)
      expect(describeSchedule(row.schedule)).toMatch(/^Custom \(cron\) “.+”, UTC$/)
    }
  })

  it('gives the plans their shortest interval and members an empty time zone, and keeps schedules to their kinds', async () => {
    await seedAt0018()
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; schedule_min_minutes: number | null }>(
      'select slug, schedule_min_minutes from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', schedule_min_minutes: null },
      { slug: 'custom', schedule_min_minutes: 15 },
      { slug: 'free', schedule_min_minutes: 15 },
      { slug: 'pro', schedule_min_minutes: 5 },
    ])
    await expect(
      database.client.query(`update subscription_plans set schedule_min_minutes = 0 where slug = 'custom'`),
    ).rejects.toMatchObject({ code: '23514' })
    const profiles = await database.client.query<{ time_zone: string | null }>('select time_zone from profiles')
    expect(profiles.rows).toEqual([{ time_zone: null }])
    for (const schedule of [
      '{"kind": "yearly", "timeZone": "UTC"}',
      '{"kind": "daily", "time": "09:00"}',
      '{"timeZone": "UTC"}',
      '"daily"',
    ]) {
      await expect(
        database.client.query(`update automations set schedule = $1::jsonb where name = 'By hand'`, [schedule]),
      ).rejects.toMatchObject({ code: '23514' })
    }
    await database.client.query(`update automations set schedule = $1::jsonb where name = 'By hand'`, [
      JSON.stringify({ kind: 'daily', time: '09:00', timeZone: 'Europe/Berlin' }),
    ])
  })
})
