import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

// Migration 0004 adds the key from profiles.subscription_plan to subscription_plans.slug. It must
// apply to a database that already has members on a plan deleted before the key existed.
const migrationsFolder = path.resolve(process.cwd(), 'server/db/migrations')
const BEFORE_KEY = '0004_profiles_plan_fk'

let client: PGlite
let db: ReturnType<typeof drizzle>
let folder: string

/** Each test starts from a database migrated up to, not including, the plan key. */
beforeEach(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'aether-migrations-'))
  cpSync(migrationsFolder, folder, { recursive: true })
  const journalPath = path.join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const index = journal.entries.findIndex((entry) => entry.tag === BEFORE_KEY)
  expect(index).toBeGreaterThan(0)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }))
  client = new PGlite()
  db = drizzle({ client })
  await migrate(db, { migrationsFolder: folder })
})
afterEach(async () => {
  await client.close()
  rmSync(folder, { recursive: true, force: true })
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

    await migrate(db, { migrationsFolder })

    expect(await planOf('on-pro')).toBe('pro')
    expect(await planOf('on-gone')).toBe('free')
    await expect(client.query(`update workspaces set plan_slug = 'gone' where id = 'on-pro'`)).rejects.toMatchObject({
      code: '23503',
    })
    await expect(client.query(`delete from subscription_plans where slug = 'pro'`)).rejects.toMatchObject({ code: '23001' })
  })

  it('recreates Free when stranded members need it and it is missing', async () => {
    await addMember('stranded', 'gone')
    await migrate(db, { migrationsFolder })
    expect(await planOf('stranded')).toBe('free')
  })

  it('adds no plan to an empty database, so the seed still writes the default three', async () => {
    await migrate(db, { migrationsFolder })
    expect((await client.query('select slug from subscription_plans')).rows).toEqual([])
  })
})
