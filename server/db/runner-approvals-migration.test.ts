import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0020: a local runner runs only what its owner approved (docs/decisions/032, amended by
// issue 27). An automation already set to run on a runner stays approved when its last change, as
// the activity log records it, was the runner owner's; a colleague's change, or none recorded,
// waits for the owner's approval.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0025_runner_approvals')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0020 (runner approvals)', () => {
  it("approves the automations on a runner whose last change was the runner's owner's, and no others", async () => {
    const { client } = database
    await client.query(`insert into subscription_plans (name, slug) values ('Business', 'business')`)
    await client.query(
      `insert into users (id, name, email, email_verified) values ('ada', 'Ada', 'ada@example.com', true), ('bob', 'Bob', 'bob@example.com', true)`,
    )
    await client.query(`insert into workspaces (id, name, kind, plan_slug) values ('team', 'Team', 'team', 'business')`)
    await client.query(
      `insert into devices (id, workspace_id, user_id, name, kind, version, token_hash)
       values ('00000000-0000-4000-8000-00000000000a', 'team', 'ada', 'Ada PC', 'runner', '1', 'hash-a')`,
    )
    const automation = async (id: string, deviceId: string | null, version: number, changes: [string, string, string][]) => {
      await client.query(
        `insert into automations (id, workspace_id, owner_id, name, steps, version, device_id) values ($1, 'team', 'ada', $2, '[]', $3, $4)`,
        [id, `Automation ${id.slice(-1)}`, version, deviceId],
      )
      for (const [actor, action, at] of changes) {
        await client.query(
          `insert into audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, summary, created_at)
           values ('team', $1, $2, $3, 'automation', $4, 'x', $5)`,
          [actor, actor, action, id, at],
        )
      }
    }
    const runner = '00000000-0000-4000-8000-00000000000a'
    const id = (n: number) => `00000000-0000-4000-8000-00000000010${n}`
    // Ada made it and changed it last.
    await automation(id(1), runner, 3, [
      ['ada', 'automation.create', '2026-01-01T00:00:00Z'],
      ['bob', 'automation.update', '2026-01-02T00:00:00Z'],
      ['ada', 'automation.repair', '2026-01-03T00:00:00Z'],
    ])
    // Bob changed it after Ada; a run (not a change) by Ada later does not count.
    await automation(id(2), runner, 2, [
      ['ada', 'automation.create', '2026-01-01T00:00:00Z'],
      ['bob', 'automation.update', '2026-01-02T00:00:00Z'],
      ['ada', 'run.start', '2026-01-03T00:00:00Z'],
    ])
    // No change recorded at all.
    await automation(id(3), runner, 1, [])
    // In the cloud: nothing to approve.
    await automation(id(4), null, 1, [['ada', 'automation.create', '2026-01-01T00:00:00Z']])
    await database.migrateRest()
    const rows = await client.query<{ id: string; device_approved_version: number | null }>(
      'select id, device_approved_version from automations order by id',
    )
    expect(rows.rows).toEqual([
      { id: id(1), device_approved_version: 3 },
      { id: id(2), device_approved_version: null },
      { id: id(3), device_approved_version: null },
      { id: id(4), device_approved_version: null },
    ])
  })
})
