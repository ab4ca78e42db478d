import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '#server/db/client.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default (a copy of a migrated
 * template when the test run made one), or a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (or DATABASE_URL; a copy of a migrated template when the run made one), dropped again
 * on close. `host` (host:port) makes the app connect there instead, e.g. through a proxy that a
 * test can cut; the database is still created and dropped directly on the server.
 */
export async function openTestDatabase(options: { host?: string } = {}): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
  if (!serverUrl) {
    // A copy of the migrated template of tests/setup/pglite-template.ts when there is one; the
    // migrations then find nothing left to apply.
    const database = await openDatabase({ kind: 'pglite', copyOf: process.env.AETHER_TEST_PGLITE_TEMPLATE })
    await database.migrate()
    return database
  }
  const name = `aether_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  // A copy of the migrated template of tests/setup/postgres-template.ts when the test run made one.
  const template = process.env.AETHER_TEST_POSTGRES_TEMPLATE
  await adminQuery(serverUrl, `create database "${name}"${template ? ` template "${template}"` : ''}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  if (options.host) url.host = options.host
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 })
  await database.migrate()
  return {
    ...database,
    close: async () => {
      await database.close()
      await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`)
    },
  }
}

/** One statement on the server as its own session (create and drop database cannot run in a pool's transaction). */
export async function adminQuery(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
