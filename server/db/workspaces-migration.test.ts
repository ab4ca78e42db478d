import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil, type MigrationClient } from '#server/testing/migrated-until.ts'

// Migration 0010 moves ownership to workspaces (docs/decisions/021). A database from before it,
// with members, automations, runs, keys, credits, subscriptions and payments, must come out with
// every row in the right personal workspace and every balance unchanged.
let database: Awaited<ReturnType<typeof migratedUntil>>
let client: MigrationClient

beforeEach(async () => {
  database = await migratedUntil('0010_workspaces')
  client = database.client
})
afterEach(async () => {
  await database.close()
})

const rows = async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows

/** A member as the database held them before workspaces: profile, ledger, automation, run, key, subscription, payment. */
async function seedMember(id: string, plan: string, credits: number) {
  await client.query(`insert into users (id, email) values ($1, $2)`, [id, `${id}@example.com`])
  await client.query(`insert into profiles (id, subscription_plan, credits, full_name) values ($1, $2, $3, $4)`, [
    id,
    plan,
    credits,
    `Name ${id}`,
  ])
  await client.query(`insert into credit_ledger (user_id, delta, balance_after, reason) values ($1, $2, $2, 'signup')`, [id, credits])
  const [automation] = await rows<{ id: string }>(
    `insert into automations (owner_id, name, steps) values ($1, $2, '[]'::jsonb) returning id`,
    [id, `Automation of ${id}`],
  )
  await client.query(
    `insert into automation_runs (automation_id, automation_name, user_id, status, trigger, runner, steps) values ($1, 'x', $2, 'succeeded', 'manual', 'cloud', '[]'::jsonb)`,
    [automation?.id, id],
  )
  await client.query(`insert into api_keys (user_id, name, prefix, hash) values ($1, 'key', $2, 'hash')`, [id, `ak_${id.slice(0, 8)}`])
  await client.query(
    `insert into subscriptions (user_id, provider, provider_subscription_id, plan_slug, status, last_event_at) values ($1, 'sandbox', $2, $3, 'active', now())`,
    [id, `sub_${id}`, plan],
  )
  await client.query(`insert into payments (user_id, provider_transaction_id, amount, status) values ($1, $2, 29, 'success')`, [
    id,
    `txn_${id}`,
  ])
}

describe('migration 0010 (workspaces)', () => {
  it('gives every account a personal workspace with its id, plan and balance, and moves everything it owned there', async () => {
    await client.query(`insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business')`)
    await seedMember('alice00000000001', 'pro', 250)
    await seedMember('bob0000000000002', 'free', 7)
    // An account whose profile was never created (the profile is made on first sign-in).
    await client.query(`insert into users (id, email) values ('carol00000000003', 'carol@example.com')`)

    await database.migrateRest()

    expect(await rows(`select id, kind, personal_owner_id, plan_slug, credits from workspaces order by id`)).toEqual([
      { id: 'alice00000000001', kind: 'personal', personal_owner_id: 'alice00000000001', plan_slug: 'pro', credits: 250 },
      { id: 'bob0000000000002', kind: 'personal', personal_owner_id: 'bob0000000000002', plan_slug: 'free', credits: 7 },
      { id: 'carol00000000003', kind: 'personal', personal_owner_id: 'carol00000000003', plan_slug: 'free', credits: 0 },
    ])
    expect(await rows(`select workspace_id, user_id, role from workspace_members order by user_id`)).toEqual([
      { workspace_id: 'alice00000000001', user_id: 'alice00000000001', role: 'owner' },
      { workspace_id: 'bob0000000000002', user_id: 'bob0000000000002', role: 'owner' },
      { workspace_id: 'carol00000000003', user_id: 'carol00000000003', role: 'owner' },
    ])
    for (const table of ['credit_ledger', 'subscriptions', 'payments']) {
      expect(await rows(`select workspace_id from ${table} order by workspace_id`)).toEqual([
        { workspace_id: 'alice00000000001' },
        { workspace_id: 'bob0000000000002' },
      ])
    }
    for (const [table, person] of [
      ['automations', 'owner_id'],
      ['automation_runs', 'user_id'],
      ['api_keys', 'user_id'],
    ]) {
      const moved = await rows<{ workspace_id: string; person: string }>(`select workspace_id, ${person} as person from ${table}`)
      expect(moved).toHaveLength(2)
      for (const row of moved) expect(row.workspace_id).toBe(row.person)
    }
    // Balances still equal the ledger's sum, per workspace.
    const balances = await rows<{ id: string; credits: number; ledger: number }>(
      `select w.id, w.credits, coalesce(sum(l.delta), 0)::int as ledger from workspaces w left join credit_ledger l on l.workspace_id = w.id group by w.id`,
    )
    for (const balance of balances) expect(balance.credits).toBe(balance.ledger)
    // The profile keeps the person only.
    const columns = await rows<{ column_name: string }>(`select column_name from information_schema.columns where table_name = 'profiles'`)
    expect(columns.map((column) => column.column_name)).not.toContain('credits')
    expect(await rows(`select full_name from profiles order by id`)).toEqual([
      { full_name: 'Name alice00000000001' },
      { full_name: 'Name bob0000000000002' },
    ])
  })

  it('keeps the plans referenced: a plan in use by a workspace cannot be deleted', async () => {
    await client.query(`insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro')`)
    await seedMember('dave00000000004', 'pro', 1)
    await database.migrateRest()
    await expect(client.query(`delete from subscription_plans where slug = 'pro'`)).rejects.toMatchObject({ code: '23001' })
  })
})
