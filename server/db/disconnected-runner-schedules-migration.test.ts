import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0034: schedules set to run on a local runner that was disconnected before schedules
// paused with their runner (docs/decisions/032, amended) are paused, still naming it; the rest
// are left as they are.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0034_pause_schedules_on_disconnected_runners')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0034 (schedules on disconnected runners)', () => {
  it('pauses the schedules on a revoked runner, and no others', async () => {
    const { client } = database
    await client.query(`insert into subscription_plans (name, slug) values ('Pro', 'pro')`)
    await client.query(`insert into users (id, name, email, email_verified) values ('ada', 'Ada', 'ada@example.com', true)`)
    await client.query(`insert into workspaces (id, name, kind, plan_slug) values ('ada', 'Team', 'team', 'pro')`)
    const revoked = '00000000-0000-4000-8000-00000000000a'
    const connected = '00000000-0000-4000-8000-00000000000b'
    await client.query(
      `insert into devices (id, workspace_id, user_id, name, kind, version, token_hash, revoked_at)
       values ($1, 'ada', 'ada', 'Old PC', 'runner', '1', 'hash-a', now()), ($2, 'ada', 'ada', 'New PC', 'runner', '1', 'hash-b', null)`,
      [revoked, connected],
    )
    const schedule = JSON.stringify({ kind: 'cron', expression: '0 2 * * *', timeZone: 'UTC' })
    const id = (n: number) => `00000000-0000-4000-8000-00000000010${n}`
    const automation = (n: number, deviceId: string | null, withSchedule: boolean) =>
      client.query(
        `insert into automations (id, workspace_id, owner_id, name, steps, schedule, device_id, enabled) values ($1, 'ada', 'ada', $2, '[]', $3, $4, true)`,
        [id(n), `Automation ${n}`, withSchedule ? schedule : null, deviceId],
      )
    await automation(1, revoked, true)
    await automation(2, connected, true)
    await automation(3, null, true)
    await automation(4, revoked, false)
    await database.migrateRest()
    const rows = await client.query<{ id: string; enabled: boolean; device_id: string | null }>(
      'select id, enabled, device_id from automations order by id',
    )
    expect(rows.rows).toEqual([
      { id: id(1), enabled: false, device_id: revoked },
      { id: id(2), enabled: true, device_id: connected },
      { id: id(3), enabled: true, device_id: null },
      { id: id(4), enabled: true, device_id: revoked },
    ])
  })
})
