import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '#server/testing/test-database.ts'
import { MIGRATIONS_FOLDER, migratedUntil } from '#server/testing/migrated-until.ts'
import { migrationsPending } from './pending-migrations.ts'

// The start skips Drizzle's migrator when the newest migration of the folder is recorded (issue 18).
const closing: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (closing.length) await closing.pop()!()
})

describe('migrationsPending', () => {
  it('is true for a new database (no migrations table)', async () => {
    const client = new PGlite()
    closing.push(() => client.close())
    expect(await migrationsPending(drizzle({ client }), MIGRATIONS_FOLDER)).toBe(true)
  })

  it('is true while the newest migration is missing, false once the migrator applied it', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[]
    }
    const newest = journal.entries.at(-1)!.tag
    const database = await migratedUntil(newest)
    closing.push(database.close)
    expect(await migrationsPending(database.db, MIGRATIONS_FOLDER)).toBe(true)
    await database.migrateRest()
    expect(await migrationsPending(database.db, MIGRATIONS_FOLDER)).toBe(false)
  })

  it('is false for the database tests get (migrated by the server code), on PGlite or PostgreSQL', async () => {
    const database = await openTestDatabase()
    closing.push(database.close)
    expect(await migrationsPending(database.db)).toBe(false)
  })
})
