// Applies the SQL migrations in server/db/migrations to DATABASE_URL, or to the embedded
// database in DATA_DIR (default ./data). The server also does this at every start.
import path from 'node:path'
import { mkdirSync } from 'node:fs'

const migrationsFolder = path.resolve('server/db/migrations')
const url = process.env.DATABASE_URL

if (url) {
  const pg = (await import('pg')).default
  const { drizzle } = await import('drizzle-orm/node-postgres')
  const { migrate } = await import('drizzle-orm/node-postgres/migrator')
  const pool = new pg.Pool({ connectionString: url })
  await migrate(drizzle({ client: pool }), { migrationsFolder })
  await pool.end()
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
