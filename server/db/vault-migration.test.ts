import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0015 adds the credential vault (docs/decisions/025): a database whose plans were seeded
// before it gets the vault sizes of the seed (Free 5, Pro 50, Business unlimited), a plan of the
// admin's own gets none until the admin gives it some, and existing automations and runs keep no
// session and have no sign-in steps.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0015_vault_and_browser_sessions')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0015 (vault and browser sessions)', () => {
  it('sizes the seeded plans’ vaults and leaves existing automations as they were', async () => {
    await database.client.query(
      `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
    )
    await database.client.query(`insert into workspaces (id, name, kind) values ('team-1', 'Team', 'team')`)
    await database.client.query(
      `insert into automations (workspace_id, name, steps) values ('team-1', 'Old', '[{"type":"navigate","url":"https://example.com/"}]')`,
    )
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; vault_secrets: number | null }>(
      'select slug, vault_secrets from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', vault_secrets: null },
      { slug: 'custom', vault_secrets: 0 },
      { slug: 'free', vault_secrets: 5 },
      { slug: 'pro', vault_secrets: 50 },
    ])
    const automations = await database.client.query('select keep_session, sign_in_block from automations')
    expect(automations.rows).toEqual([{ keep_session: false, sign_in_block: null }])
    // A vault size below zero is refused by the database too.
    await expect(database.client.query(`update subscription_plans set vault_secrets = -1 where slug = 'custom'`)).rejects.toMatchObject({
      code: '23514',
    })
    // A secret's kind is one of the four.
    await expect(
      database.client.query(`insert into vault_secrets (workspace_id, name, kind, sealed_value) values ('team-1', 'x', 'pin', 'v1.x')`),
    ).rejects.toMatchObject({ code: '23514' })
  })
})
