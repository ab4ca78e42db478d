import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServices } from '#server/services.ts'
import { testEnv } from '#server/testing/create-test-app.ts'
import { openDatabase, type Database, type DatabaseOptions } from './client.ts'
import { serviceInquiries, subscriptionPlans } from './schema/index.ts'
import { seed } from './seed.ts'

// The real scripts, run as `npm run db:backup` / `db:restore` run them, in a folder of their own
// (no .env there; their default backups/ folder lands there too).
const scripts = path.resolve('scripts')
const TIMEOUT_MS = 60_000

interface Result {
  code: number | null
  stdout: string
  stderr: string
}

function runScript(name: 'db-backup.js' | 'db-restore.js', args: string[], options: { cwd: string; env: Record<string, string> }) {
  return new Promise<Result>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(scripts, name), ...args], {
      cwd: options.cwd,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Rows of a raw query: PGlite and node-postgres both answer with { rows }. */
async function query<T>(database: Database, statement: SQL): Promise<T[]> {
  return ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows
}

/** Every row of every table of the app (and the migrations journal), as sorted JSON lines. */
async function snapshot(database: Database): Promise<Record<string, string[]>> {
  const tables = await query<{ name: string }>(
    database,
    sql`select format('%I.%I', table_schema, table_name) as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  )
  const result: Record<string, string[]> = {}
  for (const { name } of tables) {
    const rows = await query<{ row: string }>(database, sql.raw(`select row_to_json(t)::text as row from ${name} t`))
    result[name] = rows.map((row) => row.row).sort()
  }
  return result
}

/** A migrated database with the demo seed (accounts, plans, posts, inquiries, settings) and a row of our own. */
async function fill(options: DatabaseOptions) {
  const database = await openDatabase(options)
  try {
    await database.migrate()
    const logger = pino({ level: 'silent' })
    const services = createServices({ database, env: testEnv(), logger, authSecret: 'backup-test-secret-that-is-long-enough-0123' })
    await seed(database.db, services, logger, {
      demo: true,
      adminEmail: 'admin@aether.test',
      adminPassword: 'admin-password-1',
      memberEmail: 'member@aether.test',
      memberPassword: 'member-password-1',
    })
    await database.db
      .insert(serviceInquiries)
      .values({ name: 'Zoë “Backup” O’Neil', email: 'zoe@example.com', projectType: 'other', message: 'Line one\nLine two ✓' })
    const before = await snapshot(database)
    expect(before['public.users']?.length).toBeGreaterThan(0)
    expect(before['public.service_inquiries']?.length).toBeGreaterThan(1)
    return before
  } finally {
    await database.close()
  }
}

/** Deletes, changes and adds rows, so that a restore has something to undo; returns the result. */
async function damage(options: DatabaseOptions) {
  const database = await openDatabase(options)
  try {
    await database.db.delete(serviceInquiries)
    await database.db.update(subscriptionPlans).set({ name: 'Changed' }).where(eq(subscriptionPlans.slug, 'pro'))
    await database.db.insert(serviceInquiries).values({ name: 'After', email: 'after@example.com', projectType: 'other', message: 'x' })
    return await snapshot(database)
  } finally {
    await database.close()
  }
}

async function read(options: DatabaseOptions) {
  const database = await openDatabase(options)
  try {
    return await snapshot(database)
  } finally {
    await database.close()
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'aether-backup-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('db:backup and db:restore with the embedded database', () => {
  const dataDir = path.join(work, 'data')
  const pgliteDir = path.join(dataDir, 'pglite')
  const options: DatabaseOptions = { kind: 'pglite', dataDir: pgliteDir }
  const env = { DATA_DIR: dataDir }
  const file = path.join(work, 'embedded.tar.gz')
  let before: Record<string, string[]> = {}

  it(
    'round-trips every row, refuses to overwrite without --force, and keeps the replaced data',
    async () => {
      before = await fill(options)

      const backup = await runScript('db-backup.js', [file], { cwd: work, env })
      expect(backup.stderr).toBe('')
      expect(backup.code).toBe(0)
      expect(backup.stdout).toContain(`backup written to ${file}`)
      expect(existsSync(`${file}.partial`)).toBe(false)

      const damaged = await damage(options)
      expect(damaged).not.toEqual(before)

      const refused = await runScript('db-restore.js', [file], { cwd: work, env })
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('already holds a database: rerun with --force')

      const restore = await runScript('db-restore.js', [file, '--force'], { cwd: work, env })
      expect(restore.stderr).toBe('')
      expect(restore.code).toBe(0)
      expect(await read(options)).toEqual(before)

      // The replaced database is moved aside, intact, and no staging folder is left behind.
      const kept = readdirSync(dataDir).filter((name) => name.startsWith('pglite.'))
      expect(kept).toEqual([expect.stringMatching(/^pglite\.before-restore-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/)])
      expect(await read({ kind: 'pglite', dataDir: path.join(dataDir, kept[0]!) })).toEqual(damaged)
    },
    TIMEOUT_MS,
  )

  it(
    'restores into an empty DATA_DIR without --force',
    async () => {
      const emptyDataDir = path.join(work, 'empty-data')
      const restore = await runScript('db-restore.js', [file], { cwd: work, env: { DATA_DIR: emptyDataDir } })
      expect(restore.code).toBe(0)
      expect(await read({ kind: 'pglite', dataDir: path.join(emptyDataDir, 'pglite') })).toEqual(before)
    },
    TIMEOUT_MS,
  )

  it.runIf(existsSync('/proc/self/fd'))(
    'refuses while another process has the embedded database open',
    async () => {
      const database = await openDatabase(options)
      try {
        await database.ping()
        const backup = await runScript('db-backup.js', [path.join(work, 'in-use.tar.gz')], { cwd: work, env })
        expect(backup.code).toBe(1)
        expect(backup.stderr).toContain('is open in another process; stop the server first')
        expect(backup.stderr).toContain(`pid ${process.pid}`)
        const restore = await runScript('db-restore.js', [file, '--force'], { cwd: work, env })
        expect(restore.code).toBe(1)
        expect(restore.stderr).toContain('is open in another process')
      } finally {
        await database.close()
      }
      expect(existsSync(path.join(work, 'in-use.tar.gz'))).toBe(false)
    },
    TIMEOUT_MS,
  )

  it(
    'explains a missing file, a wrong format and a missing argument',
    async () => {
      const missing = await runScript('db-restore.js', [path.join(work, 'nope.tar.gz')], { cwd: work, env })
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain('no such file')

      const text = path.join(work, 'notes.txt')
      writeFileSync(text, 'not a backup')
      const wrong = await runScript('db-restore.js', [text], { cwd: work, env })
      expect(wrong.code).toBe(1)
      expect(wrong.stderr).toContain('is not a backup made by db:backup')

      const none = await runScript('db-restore.js', [], { cwd: work, env })
      expect(none.code).toBe(1)
      expect(none.stderr).toContain('Usage: npm run db:restore -- <file>')

      const nothing = await runScript('db-backup.js', [], { cwd: work, env: { DATA_DIR: path.join(work, 'no-such-data') } })
      expect(nothing.code).toBe(1)
      expect(nothing.stderr).toContain('no embedded database in')

      const mismatch = await runScript('db-restore.js', [file], { cwd: work, env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } })
      expect(mismatch.code).toBe(1)
      expect(mismatch.stderr).toContain('is a backup of the embedded database, but DATABASE_URL is set')
    },
    TIMEOUT_MS,
  )
})

const serverUrl = process.env.TEST_DATABASE_URL

describe.runIf(serverUrl)('db:backup and db:restore with PostgreSQL', () => {
  const name = `aether_backup_test_${Date.now()}`
  const url = new URL(serverUrl ?? 'postgres://unused')
  url.pathname = `/${name}`
  const options: DatabaseOptions = { kind: 'postgres', url: url.toString(), poolMax: 2 }
  const env = { DATABASE_URL: url.toString() }
  const file = path.join(work, 'postgres.dump')

  async function admin(statement: string) {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }

  beforeAll(() => admin(`create database "${name}"`))
  afterAll(() => admin(`drop database if exists "${name}" with (force)`))

  it(
    'round-trips every row with pg_dump / pg_restore and dumps the replaced data first',
    async () => {
      const before = await fill(options)

      const backup = await runScript('db-backup.js', [file], { cwd: work, env })
      expect(backup.stderr).toBe('')
      expect(backup.code).toBe(0)

      const damaged = await damage(options)
      expect(damaged).not.toEqual(before)

      const refused = await runScript('db-restore.js', [file], { cwd: work, env })
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/already has \d+ tables: rerun with --force/)

      const restore = await runScript('db-restore.js', [file, '--force'], { cwd: work, env })
      expect(restore.stderr).toBe('')
      expect(restore.code).toBe(0)
      expect(await read(options)).toEqual(before)
      const kept = readdirSync(path.join(work, 'backups'))
      expect(kept).toEqual([expect.stringMatching(/^aether-postgres-before-restore-.*\.dump$/)])
    },
    TIMEOUT_MS,
  )

  it(
    'explains an unreachable database and a PostgreSQL backup without DATABASE_URL',
    async () => {
      const unreachable = await runScript('db-backup.js', [path.join(work, 'x.dump')], {
        cwd: work,
        env: { DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' },
      })
      expect(unreachable.code).toBe(1)
      expect(unreachable.stderr).toContain('cannot reach the database postgres://nobody:***@127.0.0.1:1/none')

      const mismatch = await runScript('db-restore.js', [file], { cwd: work, env: { DATA_DIR: path.join(work, 'data') } })
      expect(mismatch.code).toBe(1)
      expect(mismatch.stderr).toContain('is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set')
    },
    TIMEOUT_MS,
  )
})
