import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { adminQuery } from './test-database.ts'

export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), 'server/db/migrations')

/** What a migration test sends its SQL to: PGlite's and node-postgres's `query` alike. */
export interface MigrationClient {
  query<T = Record<string, unknown>>(statement: string, params?: unknown[]): Promise<{ rows: T[] }>
}

/**
 * A fresh database migrated up to, not including, the migration tagged `before`: the state a
 * migration test seeds before running the rest (`migrateRest`). In-memory PGlite; with `postgres`
 * and TEST_DATABASE_URL set, a brand-new database on that PostgreSQL server instead (dropped by
 * `close`), so a back-fill is checked on both. (Opt-in: older migration tests expect PGlite's
 * error codes, which some PostgreSQL versions name differently.) `close` removes it all.
 */
export async function migratedUntil(before: string, options: { postgres?: boolean } = {}) {
  const folder = mkdtempSync(path.join(tmpdir(), 'aether-migrations-'))
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true })
  const journalPath = path.join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const index = journal.entries.findIndex((entry) => entry.tag === before)
  if (index < 1) throw new Error(`no migration before ${before}`)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }))
  const serverUrl = process.env.TEST_DATABASE_URL
  if (options.postgres && serverUrl) return migratedPostgres(serverUrl, folder)

  const client = new PGlite()
  const db = drizzle({ client })
  await migrate(db, { migrationsFolder: folder })
  return {
    client: client as MigrationClient,
    db,
    migrateRest: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await client.close()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}

async function migratedPostgres(serverUrl: string, folder: string) {
  const name = `aether_migration_${Date.now()}_${randomBytes(4).toString('hex')}`
  await adminQuery(serverUrl, `create database "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 })
  const db = drizzlePg({ client: pool })
  await migratePg(db, { migrationsFolder: folder })
  return {
    client: pool as MigrationClient,
    db,
    migrateRest: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await pool.end()
      await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`)
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
