import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil, type MigrationClient } from '#server/testing/migrated-until.ts'

// Migration 0004 adds the key from profiles.subscription_plan to subscription_plans.slug. It must
// apply to a database that already has members on a plan deleted before the key existed.
let database: Awaited<ReturnType<typeof migratedUntil>>
let client: MigrationClient

/** Each test starts from a database migrated up to, not including, the plan key. */
beforeEach(async () => {
  database = await migratedUntil('0004_profiles_plan_fk')
  client = database.client
})
afterEach(async () => {
  await database.close()
})

async function addMember(id: string, plan: string) {
  await client.query(`insert into users (id, email) values ($1, $2)`, [id, `${id}@example.com`])
  await client.query(`insert into profiles (id, subscription_plan) values ($1, $2)`, [id, plan])
}

// After every migration, a member's plan is their personal workspace's (0010, same id).
const planOf = async (id: string) =>
  (await client.query<{ plan_slug: string }>(`select plan_slug from workspaces where id = $1`, [id])).rows[0]?.plan_slug

describe('migration 0004 (profiles.subscription_plan references a plan)', () => {
  it('moves members of a deleted plan to Free, keeps the others, then refuses a new dangling plan', async () => {
    await client.query(`insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro')`)
    await addMember('on-pro', 'pro')
    await addMember('on-gone', 'gone')

    await database.migrateRest()

    expect(await planOf('on-pro')).toBe('pro')
    expect(await planOf('on-gone')).toBe('free')
    await expect(client.query(`update workspaces set plan_slug = 'gone' where id = 'on-pro'`)).rejects.toMatchObject({
      code: '23503',
    })
    await expect(client.query(`delete from subscription_plans where slug = 'pro'`)).rejects.toMatchObject({ code: '23001' })
  })

  it('recreates Free when stranded members need it and it is missing', async () => {
    await addMember('stranded', 'gone')
    await database.migrateRest()
    expect(await planOf('stranded')).toBe('free')
  })

  it('adds no plan to an empty database, so the seed still writes the default three', async () => {
    await database.migrateRest()
    expect((await client.query('select slug from subscription_plans')).rows).toEqual([])
  })
})
