// Applies the SQL migrations in server/db/migrations to DATABASE_URL, or to the embedded
// database in DATA_DIR (default ./data). The server also does this at every start. On PostgreSQL
// it holds the advisory lock that starting servers hold while they migrate and seed, so it never
// migrates at the same time as one of them.
import path from 'node:path'
import { mkdirSync } from 'node:fs'

const migrationsFolder = path.resolve('server/db/migrations')
/** BOOT_LOCK_KEY of server/db/client.ts (a test checks that they match). */
const BOOT_LOCK_KEY = 7_346_221
const url = process.env.DATABASE_URL

if (url) {
  const pg = (await import('pg')).default
  const { drizzle } = await import('drizzle-orm/node-postgres')
  const { migrate } = await import('drizzle-orm/node-postgres/migrator')
  const pool = new pg.Pool({ connectionString: url })
  const lock = await pool.connect()
  try {
    await lock.query('select pg_advisory_lock($1)', [BOOT_LOCK_KEY])
    await migrate(drizzle({ client: pool }), { migrationsFolder })
  } finally {
    lock.release(true)
    await pool.end()
  }
  console.log('migrations applied to PostgreSQL')
} else {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const dir = path.resolve(process.env.DATA_DIR ?? './data', 'pglite')
  mkdirSync(path.dirname(dir), { recursive: true })
  const client = new PGlite(dir)
  await migrate(drizzle({ client }), { migrationsFolder })
  await client.close()
  console.log(`migrations applied to the embedded database in ${dir}`)
}
