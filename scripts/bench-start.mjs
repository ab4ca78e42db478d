// Cold-start benchmark (issue 18, target 6): from spawning the production server to the first 200
// of /api/health, on PGlite and on PostgreSQL. See README, "Benchmarks".
//
//   npm run bench:start [-- --runs 5 --db both --postgres <server url>]
//
// For each database one unmeasured first start creates and seeds the database (a temporary
// DATA_DIR, or a scratch database on PostgreSQL dropped at the end); then `--runs` starts of the
// same server on the same database, each stopped with SIGTERM before the next, are measured.
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { cpuSeconds, ensureBuild, spawnServer } from './bench/app-server.mjs'
import { runBenchmark, tempDir } from './bench/cleanup.mjs'
import { freePort } from './bench/processes.mjs'
import { scratchPostgresDatabase } from './bench/postgres.mjs'
import { table } from './bench/table.mjs'
import { benchArgs, databaseArgs } from './bench/cli.mjs'
import { loadAverage, machine } from './bench/machine.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres'
// Issue 18: a healthy /api/health within these, the median of the measured starts.
const TARGETS_MS = { postgres: 1000, pglite: 1500 }
const POLL_MS = 5
const START_TIMEOUT_MS = 120_000

const USAGE = `usage: npm run bench:start -- [options]
  --runs <n>                   measured starts per database, after the first (5)
  --db <pglite|postgres|both>  database(s) to measure, one after the other (both)
  --postgres <url>             PostgreSQL server for the scratch database (${DEFAULT_POSTGRES})
  --json <path>                results file (bench-results/start-<timestamp>.json)
  --build                      build even when build/ is up to date
  --skip-build                 use build/ as it is, even when sources are newer
  --cpu-prof <dir>             write each measured start's CPU profile (.cpuprofile) into <dir>
  --help`

function options() {
  const { values, fail, integer } = benchArgs(USAGE, {
    runs: { type: 'string', default: '5' },
    db: { type: 'string', default: 'both' },
    postgres: { type: 'string', default: DEFAULT_POSTGRES },
    json: { type: 'string' },
    build: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  })
  const runs = integer('runs', 1, 100)
  return {
    runs,
    ...databaseArgs(values, fail),
    json: values.json ? path.resolve(values.json) : null,
    cpuProfileDir: values['cpu-prof'] ? path.resolve(values['cpu-prof']) : null,
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const round = (ms) => Math.round(ms)

/** The median of each boot phase over the starts that logged them. */
function medianPhases(starts) {
  const logged = starts.map((start) => start.phases).filter(Boolean)
  if (!logged.length) return null
  return Object.fromEntries(Object.keys(logged[0]).map((phase) => [phase, median(logged.map((phases) => phases[phase] ?? 0))]))
}

/** The status of one GET, or null when nothing answers (not listening yet). */
function healthStatus(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 5_000 }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode))
    })
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve(null))
  })
}

/**
 * The server's own figures from its "Aether is running" log line: startupMs (startServer() to
 * listening) and the phases (load = the process start to startServer(), then database, migrate…).
 */
function bootFigures(out) {
  for (const line of out.text.split('\n')) {
    try {
      const entry = JSON.parse(line)
      if (typeof entry.startupMs === 'number') return { bootMs: entry.startupMs, phases: entry.phases ?? null }
    } catch {
      // not a JSON log line
    }
  }
  return { bootMs: null, phases: null }
}

/** One start: spawn, poll /api/health every few ms until 200, then SIGTERM and wait for the exit. */
async function oneStart(config) {
  const server = await spawnServer(ROOT, config)
  const url = `${server.base}/api/health`
  const deadline = server.spawnedAt + START_TIMEOUT_MS
  let healthyMs = null
  let cpuMs = null
  let exited = false
  server.child.once('exit', () => (exited = true))
  while (performance.now() < deadline && !exited) {
    if ((await healthStatus(url)) === 200) {
      healthyMs = performance.now() - server.spawnedAt
      cpuMs = Math.round(cpuSeconds(server.child.pid) * 1000)
      break
    }
    await sleep(POLL_MS)
  }
  // Let the log line arrive (it is written before the first request is answered, but flushed asynchronously).
  await sleep(50)
  const { bootMs, phases } = bootFigures(server.out)
  await server.stop()
  if (healthyMs === null) {
    throw new Error(`the server was not healthy within ${START_TIMEOUT_MS / 1000} s\n${server.out.text}${server.log.text}`)
  }
  if (server.child.exitCode !== 0) {
    throw new Error(`the server did not stop cleanly (${server.child.signalCode ?? `exit ${server.child.exitCode}`})\n${server.log.text}`)
  }
  // From listening to the first 200 (the process starts a few ms after spawn(): included here).
  const listening = phases ? Object.values(phases).reduce((sum, ms) => sum + ms, 0) : null
  return { healthyMs: round(healthyMs), cpuMs, bootMs, phases, afterListenMs: listening === null ? null : round(healthyMs - listening) }
}

async function measureDatabase(database, opts) {
  const dataDir = tempDir(`aether-bench-start-${database}-`)
  const databaseUrl = database === 'postgres' ? (await scratchPostgresDatabase(opts.postgres, 'aether_bench_start')).url : null
  // The same secrets and port for every start of one database: the same deployment restarted.
  const config = {
    dataDir,
    databaseUrl,
    port: await freePort(),
    env: {
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      VAULT_KEY: randomBytes(32).toString('base64url'),
      SEED_ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
      SEED_MEMBER_PASSWORD: randomBytes(12).toString('base64url'),
      LOG_LEVEL: 'info',
    },
  }
  const name = database === 'postgres' ? 'PostgreSQL' : 'PGlite'
  const loadAverageStart = loadAverage()
  process.stdout.write(`${name}: first start (creates, migrates and seeds the database)… `)
  const first = await oneStart(config)
  console.log(`${first.healthyMs} ms`)
  const starts = []
  for (let i = 0; i < opts.runs; i++) {
    const start = await oneStart({ ...config, cpuProfileDir: opts.cpuProfileDir })
    const phases = start.phases
      ? Object.entries(start.phases)
          .map(([phase, ms]) => `${phase} ${ms}`)
          .join(', ')
      : 'no phases logged'
    console.log(
      `${name}: start ${i + 1}/${opts.runs}: ${start.healthyMs} ms, CPU ${start.cpuMs} ms (${phases}, then ${start.afterListenMs ?? '?'} to healthy)`,
    )
    starts.push(start)
  }
  const times = starts.map((start) => start.healthyMs)
  const summary = {
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    cpuMedianMs: median(starts.map((start) => start.cpuMs)),
    phasesMedianMs: medianPhases(starts),
    afterListenMedianMs: starts.every((start) => start.afterListenMs !== null) ? median(starts.map((start) => start.afterListenMs)) : null,
  }
  return {
    database,
    first,
    starts,
    summary,
    targetMs: TARGETS_MS[database],
    pass: summary.medianMs <= TARGETS_MS[database],
    loadAverageStart,
    loadAverageEnd: loadAverage(),
  }
}

async function main() {
  const opts = options()
  const started = new Date()
  const build = await ensureBuild(ROOT, { force: opts.build, skip: opts.skipBuild })
  const result = {
    benchmark: 'start',
    startedAt: started.toISOString(),
    finishedAt: null,
    machine: machine(),
    versions: { node: process.version },
    options: { ...opts, postgres: opts.databases.includes('postgres') ? opts.postgres : null },
    build,
    targetsMs: TARGETS_MS,
    results: [],
    errors: [],
  }
  console.log(`load average at start: ${result.machine.loadAverageStart.join(' ')} (${result.machine.cpus} CPUs)`)
  for (const database of opts.databases) {
    try {
      result.results.push(await measureDatabase(database, opts))
    } catch (error) {
      console.error(`${database}: ${error.message}`)
      result.errors.push(`${database}: ${error.message}`)
    }
  }
  result.finishedAt = new Date().toISOString()
  result.machine.loadAverageEnd = loadAverage()

  const file = opts.json ?? path.join(ROOT, 'bench-results', `start-${started.toISOString().replace(/[:.]/g, '-')}.json`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)

  console.log(
    `\nMachine: ${result.machine.cpus} CPUs (${result.machine.cpuModel}); Node ${process.version}; load average ${result.machine.loadAverageStart.join(' ')} at start, ${result.machine.loadAverageEnd.join(' ')} at end`,
  )
  console.log(
    `Spawn to the first 200 of /api/health, ${opts.runs} starts after a first one; CPU = the server's CPU time (user + system) at that moment\n`,
  )
  table(
    ['database', 'first start', 'median', 'min', 'max', 'CPU median', 'target', ''],
    result.results.map((entry) => [
      entry.database,
      `${entry.first.healthyMs} ms`,
      `${entry.summary.medianMs} ms`,
      `${entry.summary.minMs} ms`,
      `${entry.summary.maxMs} ms`,
      `${entry.summary.cpuMedianMs} ms`,
      `≤ ${entry.targetMs} ms`,
      entry.pass ? 'ok' : 'MISS',
    ]),
  )
  for (const entry of result.results) {
    const phases = entry.summary.phasesMedianMs
    if (phases)
      console.log(
        `${entry.database} phases, median ms (load = process start to startServer()): ${Object.entries(phases)
          .map(([phase, ms]) => `${phase} ${ms}`)
          .join(', ')}; listening to healthy ${entry.summary.afterListenMedianMs ?? '?'}`,
      )
  }
  console.log(`\nResults: ${path.relative(process.cwd(), file)}`)
  return result.errors.length ? 1 : 0
}

await runBenchmark('bench:start', main)
