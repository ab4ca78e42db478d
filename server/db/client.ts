import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { inProcessNotifications, postgresNotifications, type Notifications } from './notifications.ts'
import * as schema from './schema/index.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Where the data lives, safe to show: a folder, or a connection URL without its password. */
  location: string
  /** Messages to every server process on this database (live pages across processes). */
  notifications: Notifications
  migrate(): Promise<void>
  ping(): Promise<boolean>
  close(): Promise<void>
}

export type DatabaseOptions = { kind: 'pglite'; dataDir?: string } | { kind: 'postgres'; url: string; poolMax?: number }

const migrationsFolder = path.resolve(process.cwd(), 'server/db/migrations')

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres' ? openPostgres(options.url, options.poolMax ?? 10) : openPglite(options.dataDir)
}

async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true })
  const client = dataDir ? new PGlite(path.resolve(dataDir)) : new PGlite()
  await client.waitReady
  const db = drizzlePglite({ client, schema, casing: 'snake_case' })
  // PGlite serves one process: its messages never need to leave it.
  const notifications = inProcessNotifications()
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    location: dataDir ? path.resolve(dataDir) : 'memory',
    notifications,
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: () => ping(db as unknown as Db),
    close: async () => {
      await notifications.close()
      await client.close()
    },
  }
}

async function openPostgres(url: string, poolMax: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax })
  // A dropped idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' })
  const notifications = postgresNotifications(url, pool)
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    location: redactUrl(url),
    notifications,
    migrate: () => migratePg(db, { migrationsFolder }),
    ping: () => ping(db as unknown as Db),
    close: async () => {
      await notifications.close()
      await pool.end()
    },
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    // Parameters can carry secrets too (password=, sslpassword=, sslkey=…): show their names only.
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '***')
    return parsed.toString()
  } catch {
    return 'postgres (unparseable URL)'
  }
}
