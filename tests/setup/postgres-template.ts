import { randomBytes } from 'node:crypto'
import { openDatabase } from '#server/db/client.ts'
import { adminQuery } from '#server/testing/test-database.ts'

/** The migrated template database on TEST_DATABASE_URL's server; each test file's database is a copy of it. */
export const POSTGRES_TEMPLATE_VARIABLE = 'AETHER_TEST_POSTGRES_TEMPLATE'

/**
 * Vitest's global set-up of the PostgreSQL pass (vitest.postgres.config.ts): the migrations applied
 * once, to a database the test files copy (`create database … template …`, tenths of a second)
 * instead of migrating their own (over a second each). Dropped at the end.
 */
export default async function createPostgresTemplate() {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) return undefined
  const name = `aether_template_${Date.now()}_${randomBytes(4).toString('hex')}`
  await adminQuery(serverUrl, `create database "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 1 })
  try {
    await database.migrate()
  } finally {
    // A template may have no connection while it is copied.
    await database.close()
  }
  process.env[POSTGRES_TEMPLATE_VARIABLE] = name
  return () => adminQuery(serverUrl, `drop database if exists "${name}" with (force)`)
}
