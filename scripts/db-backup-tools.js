// Shared by scripts/db-backup.js and scripts/db-restore.js (docs/operations.md, "Backups and restore").
import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'

/** A failure the user can act on: printed without a stack trace, exit code 1. */
export class UserError extends Error {}

/**
 * The database the server would use: DATABASE_URL, else the embedded one in DATA_DIR/pglite.
 * Like server.js, a local .env fills what the environment does not set.
 */
export function loadConfig() {
  try {
    process.loadEnvFile('.env')
  } catch {
    // no .env file: the environment alone decides
  }
  const url = process.env.DATABASE_URL?.trim() || undefined
  if (url && !/^postgres(ql)?:\/\//.test(url)) throw new UserError('DATABASE_URL must start with postgres:// or postgresql://')
  const dataDir = process.env.DATA_DIR?.trim() || './data'
  return { url, dataDir, pgliteDir: path.resolve(dataDir, 'pglite') }
}

/** `[file] [--force]` (and --help). */
export function parseArgs(argv) {
  const options = { file: undefined, force: false, help: false }
  for (const arg of argv) {
    if (arg === '--force') options.force = true
    else if (arg === '--help' || arg === '-h') options.help = true
    else if (arg.startsWith('-')) throw new UserError(`unknown option ${arg} (try --help)`)
    else if (options.file) throw new UserError(`one file only, got ${options.file} and ${arg}`)
    else options.file = arg
  }
  return options
}

/** 2026-01-31T12-00-00Z: sortable, and valid in file names everywhere. */
export function timestamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')
}

export function redactUrl(url) {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '***')
    return parsed.toString()
  } catch {
    return 'postgres (unparseable URL)'
  }
}

export function formatBytes(bytes) {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * What a backup file holds, from its first bytes: a pg_dump custom archive ('PGDMP'), or a
 * gzipped tar of a PGlite data directory (one with PG_VERSION at its root).
 */
export function detectFormat(file) {
  if (!existsSync(file)) throw new UserError(`no such file: ${file}`)
  const head = Buffer.alloc(5)
  const fd = openSync(file, 'r')
  let read
  try {
    read = readSync(fd, head, 0, 5, 0)
  } finally {
    closeSync(fd)
  }
  if (read === 5 && head.toString('latin1') === 'PGDMP') return 'postgres'
  if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    let tar
    try {
      tar = gunzipSync(readFileSync(file))
    } catch (error) {
      throw new UserError(`${file} is a damaged gzip file: ${error.message}`)
    }
    if (tarEntryNames(tar).some((name) => name.replace(/^\.?\/+/, '') === 'PG_VERSION')) return 'pglite'
    throw new UserError(`${file} is a gzip file, but not a backup of the embedded database (no PG_VERSION inside)`)
  }
  if (head.toString('latin1').startsWith('--')) {
    throw new UserError(`${file} looks like a plain SQL dump: load it with psql, not with db:restore (which takes pg_dump --format=custom)`)
  }
  throw new UserError(`${file} is not a backup made by db:backup (neither a pg_dump custom archive nor an embedded-database tarball)`)
}

/** Names of the entries of an uncompressed tar (ustar headers, 512-byte blocks). */
function tarEntryNames(tar) {
  const names = []
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) break
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '')
    const prefix = field(345, 155)
    const name = field(0, 100)
    names.push(prefix ? `${prefix}/${name}` : name)
    const size = parseInt(field(124, 12).trim() || '0', 8)
    if (!Number.isFinite(size)) break
    offset += 512 + Math.ceil(size / 512) * 512
  }
  return names
}

/**
 * Processes that have files of `dir` open, from /proc (Linux). A running PGlite keeps its
 * relation files open, so this finds a server that has the embedded database open. Processes of
 * other users are invisible to a non-root user; null when /proc is missing (not Linux).
 */
function processesUsing(dir) {
  if (!existsSync('/proc/self/fd')) return null
  const prefix = `${path.resolve(dir)}/`
  const found = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    let fds
    try {
      fds = readdirSync(`/proc/${entry}/fd`)
    } catch {
      continue // gone, or another user's
    }
    for (const fd of fds) {
      let target
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`)
      } catch {
        continue
      }
      if (target.startsWith(prefix)) {
        found.push({ pid: Number(entry), command: commandOf(entry) })
        break
      }
    }
  }
  return found
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 120)
  } catch {
    return '?'
  }
}

/**
 * Refuses when a process has the embedded database open (a copy or a replacement would be torn).
 * PGlite writes postmaster.pid while open and removes it on close; one left behind without an
 * owner means a crash, or an owner this user cannot see: --force goes ahead.
 */
export function assertPgliteIdle(pgliteDir, force, log) {
  const users = processesUsing(pgliteDir)
  if (users && users.length) {
    const list = users.map((user) => `  pid ${user.pid}: ${user.command}`).join('\n')
    throw new UserError(`the embedded database in ${pgliteDir} is open in another process; stop the server first:\n${list}`)
  }
  if (existsSync(path.join(pgliteDir, 'postmaster.pid'))) {
    const why = users
      ? 'no process of this user has it open: the server stopped without closing it, or runs as another user'
      : 'this system has no /proc to check which process has it open'
    if (!force) {
      throw new UserError(
        `${pgliteDir} is marked as open (postmaster.pid), and ${why}. Stop the server; if it is stopped, rerun with --force.`,
      )
    }
    log(`warning: ${pgliteDir} is marked as open (postmaster.pid); going ahead because of --force`)
  }
}

/** A PostgreSQL client tool: from PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPgTool(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name)
  }
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((entry) => /^\d+$/.test(entry)) : []
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    const file = path.join(root, version, 'bin', name)
    if (existsSync(file)) return file
  }
  throw new UserError(
    `${name} not found on PATH or in /usr/lib/postgresql/*/bin: install the PostgreSQL client tools (e.g. apt-get install postgresql-client)`,
  )
}

/**
 * The URL without its password, which goes to the tools in PGPASSWORD instead: a command line is
 * visible to every user of the machine (ps), the environment is not.
 */
export function connectionFor(url) {
  const parsed = new URL(url)
  const env = { ...process.env }
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password)
    parsed.password = ''
  }
  return { dbname: parsed.toString(), env }
}

/** Connects once: a clear message when the database cannot be reached, and the server's major version. */
export async function inspectPostgres(url) {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  try {
    await client.connect()
  } catch (error) {
    throw new UserError(`cannot reach the database ${redactUrl(url)}: ${error.message || error.code || error}`)
  }
  try {
    const version = await client.query('show server_version_num')
    const tables = await client.query(
      "select count(*)::int as count from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    )
    const others = await client.query(
      `select coalesce(nullif(application_name, ''), client_addr::text, 'local') as name
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    )
    return {
      major: Math.floor(Number(version.rows[0].server_version_num) / 10000),
      tables: tables.rows[0].count,
      otherSessions: others.rows.map((row) => row.name),
    }
  } finally {
    await client.end()
  }
}

/** The major version of a client tool (`pg_dump (PostgreSQL) 15.20` -> 15). */
export async function toolMajor(tool) {
  const { stdout } = await run(tool, ['--version'])
  const match = /(\d+)(?:\.\d+)?/.exec(stdout)
  return match ? Number(match[1]) : NaN
}

/** Runs a tool; rejects with its own error output when it fails. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', (error) => reject(new UserError(`cannot run ${command}: ${error.message}`)))
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout, stderr })
      else reject(new UserError(`${path.basename(command)} failed (exit code ${code}):\n${stderr.trim() || stdout.trim()}`))
    })
  })
}

/** Runs a script's main function: a UserError is one line on stderr and exit code 1. */
export async function runScript(name, main) {
  try {
    await main()
  } catch (error) {
    if (error instanceof UserError) {
      console.error(`${name}: ${error.message}`)
      process.exit(1)
    }
    throw error
  }
}
