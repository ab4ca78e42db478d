// The production server of the benchmarks: a fresh build when the sources are newer than build/,
// the server as a child process on a free loopback port with a throw-away database (temporary
// PGlite folder, or a scratch database on PostgreSQL), and its memory and CPU from /proc.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { cleanups } from './cleanup.mjs'
import { freePort, run, stopChild, tail, waitForHttp } from './processes.mjs'

// What goes into build/: a change in any of these makes the build stale. Tests do not.
const BUILD_INPUTS = ['app', 'server', 'common', 'public', 'package.json', 'react-router.config.ts', 'vite.config.ts', 'server.js']

function newestSource(root) {
  let newest = { time: 0, file: null }
  const visit = (file) => {
    let stat
    try {
      stat = statSync(file)
    } catch {
      return
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(file)) if (name !== 'node_modules') visit(path.join(file, name))
    } else if (!/\.test\.[cm]?[jt]sx?$/.test(file) && stat.mtimeMs > newest.time) {
      newest = { time: stat.mtimeMs, file }
    }
  }
  for (const input of BUILD_INPUTS) visit(path.join(root, input))
  return newest
}

/** Builds when build/ is missing, older than a source file, or `force`; `skip` uses it as it is. */
export async function ensureBuild(root, { force = false, skip = false } = {}) {
  const entry = path.join(root, 'build/server/index.js')
  const built = existsSync(entry) && existsSync(path.join(root, 'build/client'))
  if (skip) {
    if (!built) throw new Error('build/ is missing and --skip-build was given')
    console.log('build/: used as it is (--skip-build)')
    return { built: false, reason: 'skipped' }
  }
  let reason = force ? 'forced (--build)' : built ? null : 'missing'
  if (!reason) {
    const newest = newestSource(root)
    if (newest.time > statSync(entry).mtimeMs) reason = `stale: ${path.relative(root, newest.file)} is newer`
  }
  if (!reason) {
    console.log('build/ is up to date: using it')
    return { built: false, reason: 'up to date' }
  }
  console.log(`building (${reason})…`)
  await run('npm', ['run', 'build'], { cwd: root, timeoutMs: 15 * 60_000 })
  return { built: true, reason }
}

/**
 * Spawns `node server.js` in production mode with demo content, without waiting for it. `accounts`
 * seeds an admin and a member with known passwords; `env` adds or overrides variables (TRUST_PROXY,
 * RUN_*, …). `port` reuses a port (a free one otherwise).
 */
export async function spawnServer(root, { dataDir, databaseUrl = null, accounts = null, env = {}, cpuProfileDir = null, port = null }) {
  port ??= await freePort()
  const base = `http://127.0.0.1:${port}`
  const profiling = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...profiling, 'server.js'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // As `npm run serve` starts it: NODE_ENV and glibc's malloc settings (docs/decisions/034).
      ...serveEnv(root),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '', // the fresh embedded database unless PostgreSQL, whatever .env says
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      // Required in production with DATABASE_URL (the credential vault's key, docs/decisions/025).
      VAULT_KEY: randomBytes(32).toString('base64url'),
      SEED_DEMO: 'true',
      ...(accounts
        ? {
            SEED_ADMIN_EMAIL: accounts.admin.email,
            SEED_ADMIN_PASSWORD: accounts.admin.password,
            SEED_MEMBER_EMAIL: accounts.member.email,
            SEED_MEMBER_PASSWORD: accounts.member.password,
          }
        : {}),
      SMTP_URL: '', // mail stays in the outbox table, whatever .env says
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1', // unless `env` says otherwise (bench:load --processes)
      ...env,
    },
  })
  const stop = () => stopChild(child, { signals: ['SIGTERM'], graceMs: 15_000 })
  cleanups.push(stop)
  const log = tail(child.stderr)
  const out = tail(child.stdout)
  return { base, port, child, log, out, stop, spawnedAt }
}

/** spawnServer, then waits until /api/health answers 200. */
export async function startServer(root, options) {
  const server = await spawnServer(root, options)
  try {
    await waitForHttp(`${server.base}/api/health`, { child: server.child, timeoutMs: 120_000 })
  } catch (error) {
    throw new Error(`the production server did not start: ${error.message}\n${server.out.text}${server.log.text}`)
  }
  return server
}

/** The variables package.json's `serve` script sets before `node server.js`. */
export function serveEnv(root) {
  const script = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.serve
  const assignments = script.slice(0, script.indexOf('node ')).trim().split(/\s+/)
  // A value may hold '=' itself (NODE_OPTIONS=--max-old-space-size=1024): the name ends at the first.
  return Object.fromEntries(
    assignments.filter((word) => word.includes('=')).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  )
}

export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSeconds(pid) {
  try {
    // Fields after the command name, which ends with the last ')': utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
  } catch {
    return 0
  }
}
const CLOCK_TICKS_PER_SECOND = 100

/** Samples the VmRSS of one process (or what `read` says of it) every `everyMs`; stop() returns the peak and the count. */
export function sampleRss(pid, everyMs = 250, read = rssBytes) {
  let peak = read(pid)
  let samples = 1
  const timer = setInterval(() => {
    peak = Math.max(peak, read(pid))
    samples += 1
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      peak = Math.max(peak, read(pid))
      return { peak, samples: samples + 1 }
    },
  }
}
