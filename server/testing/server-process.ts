import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { redactUrl } from '#server/db/client.ts'
import { adminQuery as adminQueryOn } from './test-database.ts'

// Real server processes (the production build, as `npm run serve` starts it) for tests that need
// more than the in-process app: several processes on one PostgreSQL, a process killed mid-write.

const ROOT = process.cwd()

/**
 * The PostgreSQL server tests may create databases on: TEST_DATABASE_URL, else DATABASE_URL. The
 * tests that need one run in the suite's PostgreSQL pass (README), not twice.
 */
const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || ''

export const SEEDED_ADMIN = { email: 'admin@processes.test', password: 'admin-password-123' }
export const SEEDED_MEMBER = { email: 'member@processes.test', password: 'member-password-123' }

/** Whether the PostgreSQL server answers; when not, the caller skips and says why (`testFile`). */
export async function postgresReachable(testFile: string, url = POSTGRES_SERVER_URL): Promise<boolean> {
  if (!url) {
    console.warn(`SKIPPED ${testFile}: it needs PostgreSQL (set TEST_DATABASE_URL, as the suite's PostgreSQL pass does).`)
    return false
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    console.warn(`SKIPPED ${testFile}: no PostgreSQL reachable at ${redactUrl(url)} (set TEST_DATABASE_URL).`)
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** A new, empty database on the PostgreSQL server; `drop` removes it (connections and all). */
export async function createScratchDatabase(prefix: string) {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`
  await adminQuery(`create database "${name}"`)
  const url = new URL(POSTGRES_SERVER_URL)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists "${name}" with (force)`) }
}

const adminQuery = (statement: string) => adminQueryOn(POSTGRES_SERVER_URL, statement)

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full))
    else if (/\.(ts|tsx|sql)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs)
  }
  return newest
}

/** Builds (under the shared build lock) when the build is missing or older than server/, common/ or app/. */
export function ensureFreshBuild() {
  const bundle = path.join(ROOT, 'build/server/index.js')
  const sources = Math.max(...['server', 'common', 'app'].map((dir) => newestSource(path.join(ROOT, dir))))
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return
  console.warn('The production build is missing or older than the sources: building it (under /tmp/aether-e2e.lock)')
  const options = { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 1_200_000 } as const
  let result = spawnSync('flock', ['-w', '900', '/tmp/aether-e2e.lock', 'npm', 'run', 'build'], options)
  // Without flock (not Linux), nobody else shares the lock either.
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') result = spawnSync('npm', ['run', 'build'], options)
  if (result.status !== 0) throw new Error(`npm run build failed (${result.status}):\n${(result.stdout + result.stderr).slice(-4000)}`)
}

async function freePort(): Promise<number> {
  const probe = createServer()
  probe.listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const address = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** The last 8,000 characters the process wrote, for failure messages. */
  output: () => string
  dataDir: string
}

export interface ServerProcessOptions {
  /** PostgreSQL; without it the process uses PGlite in `dataDir`. */
  databaseUrl?: string
  /** Reuse a data folder (a restart); by default a fresh temporary one. */
  dataDir?: string
  /** The same secret for processes that must accept each other's sessions. */
  authSecret: string
  /** More environment (RUN_WORKER, TRUST_PROXY…). */
  env?: Record<string, string>
}

/** Starts `node server.js` in production mode and waits until /api/health answers. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'aether-process-'))
  const child = spawn(process.execPath, ['server.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, DATABASE_POOL_MAX: '5' } : {}),
      AUTH_SECRET: options.authSecret,
      // Processes on one PostgreSQL share the vault's key (required in production with DATABASE_URL).
      VAULT_KEY: `${options.authSecret}:vault-key-for-tests`,
      SEED_DEMO: 'true',
      SEED_ADMIN_EMAIL: SEEDED_ADMIN.email,
      SEED_ADMIN_PASSWORD: SEEDED_ADMIN.password,
      SEED_MEMBER_EMAIL: SEEDED_MEMBER.email,
      SEED_MEMBER_PASSWORD: SEEDED_MEMBER.password,
      LOG_LEVEL: 'warn',
      // One process per start: tests that want several start several, or set WEB_CONCURRENCY.
      WEB_CONCURRENCY: '1',
      ...options.env,
    },
  })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false)
    if (healthy) return { url, child, output: () => output, dataDir }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill('SIGKILL')
  throw new Error(`the server on ${url} did not start:\n${output}`)
}

/** SIGTERM (SIGKILL after 20 s); removes the data folder unless `keepData`. */
export async function stopServerProcess(server: ServerProcess | undefined, { keepData = false } = {}) {
  if (!server) return
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = once(server.child, 'exit')
    server.child.kill('SIGTERM')
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 20_000)
    await exited
    clearTimeout(timer)
  }
  if (!keepData) rmSync(server.dataDir, { recursive: true, force: true })
}

/** JSON calls to a server process's API, as the extension or desktop apps make them (bearer token). */
export function apiClient(base: string) {
  async function api<T = Record<string, unknown> & { id: string }>(
    route: string,
    init: { method?: string; body?: unknown; token?: string } = {},
  ): Promise<T> {
    const response = await fetch(`${base}${route}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        origin: base,
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    const body = (await response.json()) as { data: T }
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${response.status} ${JSON.stringify(body)}`)
    return body.data
  }
  async function login(account: { email: string; password: string }) {
    const data = await api<{ token: string; user: { id: string } }>('/api/auth/login', { body: account })
    return { token: data.token, id: data.user.id }
  }
  return { api, login }
}
