import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import type { Logger } from '#server/logger.ts'
import { CONTENT_CHANNEL, changeCounter, SESSION_DATA_CHANNEL, SESSION_DATA_SETTING, type HeardChanges } from './heard-changes.ts'
import { inProcessNotifications, postgresNotifications, type Notifications } from './notifications.ts'
import { asPglite, startPgliteThread } from './pglite-thread.ts'
import * as schema from './schema/index.ts'

type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction's handle: what `db.transaction(async (tx) => …)` passes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either: for code that works alone or inside a caller's transaction. */
export type DbOrTx = Db | Tx

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Where the data lives, safe to show: a folder, or a connection URL without its password. */
  location: string
  /** Messages to every server process on this database (live pages across processes). */
  notifications: Notifications
  /** Changes of what public pages show, as this process hears of them (the page cache's version). */
  contentChanges: HeardChanges
  /**
   * Writes to the tables a session is read from, as this process hears of them: only where no
   * other process uses the database (PGlite), so that it hears of every one; null otherwise.
   */
  sessionDataChanges: HeardChanges | null
  migrate(): Promise<void>
  /**
   * Runs `work` while no other server process on this database runs its own: processes of a new
   * version starting together migrate and seed one after the other (a PostgreSQL advisory lock).
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>
  ping(): Promise<boolean>
  /** Frees what the database's own thread holds beyond its live data (PGlite; server/idle-memory.ts). */
  releaseMemory?(): Promise<void>
  close(): Promise<void>
}

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir?: string; copyOf?: string }
  | {
      kind: 'postgres'
      url: string
      poolMax?: number
      /** Lost connections and the notification listener's reconnects are logged here. */
      logger?: Pick<Logger, 'warn' | 'info'>
    }

/**
 * How long a query waits for a connection (a new one, or a free one of the pool) before it fails:
 * with the database out of reach, requests answer 503 after this instead of hanging
 * (docs/decisions/013-database-outage.md). A refused connection fails at once.
 */
const CONNECT_TIMEOUT_MS = 5_000
/** The health check's ping gives up after this, so a probe gets its answer quickly. */
const PING_TIMEOUT_MS = 3_000

const migrationsFolder = path.resolve(process.cwd(), 'server/db/migrations')

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres'
    ? openPostgres(options.url, options.poolMax ?? 10, options.logger)
    : openPglite(options.dataDir, options.copyOf)
}

/**
 * PostgreSQL settings of the embedded database (docs/decisions/034-pglite-in-a-worker-thread.md).
 * Its memory is a WebAssembly memory that never gives pages back: PostgreSQL's defaults
 * (128 MB of shared buffers, 64 MB for maintenance) would leave it at 190 MB and more, though our
 * whole database fits in a few MB and its files are in the operating system's cache anyway.
 */
export const PGLITE_SETTINGS: Record<string, string> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
  // Joins in the order the query writes them. The engine plans every statement afresh (no plan
  // is kept between statements), and weighing every order of the session lookup's seven tables
  // took 2 ms of its 2.5, on tables this small (docs/decisions/053).
  join_collapse_limit: '1',
  // Statements that change what a session lookup reads announce it (migration 0037): this
  // process, the only one on the database, keeps the sessions it read until then (ADR 055).
  [SESSION_DATA_SETTING]: 'on',
}

async function openPglite(dataDir?: string, copyOf?: string): Promise<Database> {
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true })
  // Loaded only for the embedded database: a PostgreSQL server never needs them.
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ])
  // PGlite runs in its own thread, so HTTP and the database use both cores. It listens from the
  // start, and every statement runs in this process: no change can go unheard.
  const contentChanges = changeCounter()
  const sessionDataChanges = changeCounter()
  const client = await startPgliteThread({
    dataDir: dataDir ? path.resolve(dataDir) : undefined,
    copyOf,
    settings: PGLITE_SETTINGS,
    listen: [CONTENT_CHANNEL, SESSION_DATA_CHANNEL],
    onNotification: (channel) => (channel === SESSION_DATA_CHANNEL ? sessionDataChanges : contentChanges).changed(),
  })
  contentChanges.listening(true)
  sessionDataChanges.listening(true)
  const db = drizzlePglite({ client: asPglite(client), schema, casing: 'snake_case' })
  // PGlite serves one process: its messages never need to leave it.
  const notifications = inProcessNotifications()
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    location: dataDir ? path.resolve(dataDir) : 'memory',
    notifications,
    contentChanges,
    sessionDataChanges,
    migrate: () => migratePglite(db, { migrationsFolder }),
    // PGlite belongs to one process.
    exclusively: (work) => work(),
    ping: () => ping(db as unknown as Db),
    releaseMemory: () => client.releaseMemory(),
    close: async () => {
      await notifications.close()
      await client.close()
    },
  }
}

async function openPostgres(url: string, poolMax: number, logger?: Pick<Logger, 'warn' | 'info'>): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  // A dropped connection must not crash the process: an unhandled 'error' event would. The pool
  // handles idle ones (its 'error' event; the next query opens a new connection), but a client
  // checked out for a transaction has no listener of its own while its query is not running.
  // The failed query rejects either way, and the pool discards the broken client on release.
  pool.on('error', (error) => logger?.warn({ err: error }, 'an idle database connection was lost'))
  // Every connection of the pool listens for changes of public content as well: PostgreSQL tells
  // a connection of its own change before the answer to its commit, so a change this process
  // makes is heard before the code that made it goes on (docs/decisions/050).
  const contentChanges = changeCounter()
  pool.on('connect', (client) => {
    client.on('error', () => {})
    client.on('notification', (message) => {
      if (message.channel === CONTENT_CHANNEL) contentChanges.changed()
    })
    client.query(`LISTEN ${CONTENT_CHANNEL}`).catch(() => {})
  })
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' })
  // Other processes' changes arrive on the listening connection; without it they could go unheard.
  const notifications = postgresNotifications(url, pool, {
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    alsoListen: { [CONTENT_CHANNEL]: () => contentChanges.changed() },
    onLost: (error) => {
      contentChanges.listening(false)
      logger?.warn({ err: error }, 'database notifications: connection lost; reconnecting')
    },
    onListening: (reconnected) => {
      contentChanges.listening(true)
      if (reconnected) logger?.info('database notifications: listening again')
    },
  })
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    location: redactUrl(url),
    notifications,
    contentChanges,
    sessionDataChanges: null,
    migrate: () => migratePg(db, { migrationsFolder }),
    exclusively: (work) => withAdvisoryLock(url, work),
    ping: () => ping(db as unknown as Db),
    close: async () => {
      await notifications.close()
      await pool.end()
    },
  }
}

/** Any fixed number: the key of the lock that boot steps take on a PostgreSQL database. */
export const BOOT_LOCK_KEY = 7_346_221

async function withAdvisoryLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  // Its own connection, so the pool stays free for `work`; the lock ends with the session anyway.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [BOOT_LOCK_KEY])
    return await work()
  } finally {
    await client.end().catch(() => {})
  }
}

async function ping(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)
  })
  const query = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  )
  try {
    return await Promise.race([query, timeout])
  } finally {
    clearTimeout(timer)
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
