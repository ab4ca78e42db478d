// Load benchmark (issue 7): a mixed workload at a fixed rate against the production server, on
// PGlite and on PostgreSQL. See README, "Benchmarks".
//
//   npm run bench:load [-- --db both --rate 300 --duration 60 --connections 32 --mix pages=30,… ]
//
// For each database it starts its own production server (fresh temporary DATA_DIR, or a scratch
// database on PostgreSQL that it drops at the end) on a free loopback port, raises the API rate
// limit through the admin API, drives the mix with autocannon and samples the server's RSS. It
// never takes the build lock itself (run it under `flock /tmp/aether-e2e.lock`).
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { table } from './bench/table.mjs'
import { benchArgs, databaseArgs } from './bench/cli.mjs'
import { loadAverage, machine } from './bench/machine.mjs'
import { runBenchmark, tempDir } from './bench/cleanup.mjs'
import { addressSource, CLASSES, DEFAULT_MIX, parseMix, requestsFor, share } from './bench/load-mix.mjs'
import { runClasses, summarize } from './bench/load-run.mjs'
import { cpuSeconds, ensureBuild, rssBytes, sampleRss, startServer } from './bench/app-server.mjs'
import { scratchPostgresDatabase } from './bench/postgres.mjs'
import { countCores, describeCores } from './bench/cores.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres'
// Issue 7 set the rate and the API reads' p99 (for PostgreSQL); issue 18 holds PGlite to the same
// p99 and sets the memory of the server process (VmRSS): idle after the load, and the peak.
const TARGETS = {
  rate: 300,
  apiReadP99Ms: { pglite: 25, postgres: 25 },
  idleAfterLoadRssMb: { pglite: null, postgres: 150 },
  peakRssMb: { pglite: 400, postgres: 250 },
}
// The general API limit's maximum (System Settings accept 1 to 10,000 requests per minute).
const API_RATE_LIMIT = 10_000

const USAGE = `usage: npm run bench:load -- [options]
  --db <pglite|postgres|both>  database(s) to measure, one after the other (both)
  --postgres <url>             PostgreSQL server for the scratch database (${DEFAULT_POSTGRES})
  --rate <n>                   requests per second, all classes together (300)
  --duration <s>               measured seconds per database (60)
  --warmup <s>                 unmeasured seconds of the same mix first (5)
  --settle <s>                 seconds without load after the run; then the idle RSS is read (30)
  --connections <n>            connections, shared by weight; at least 2 per class (32)
  --processes <n,…>            server processes (WEB_CONCURRENCY), one run per count; above 1
                               on PostgreSQL only (1). CPU and memory are those of all of them
  --mix <class=weight,…>       shares in percent; classes: ${Object.keys(DEFAULT_MIX).join(', ')}
                               (${Object.entries(DEFAULT_MIX)
                                 .map(([name, weight]) => `${name}=${weight}`)
                                 .join(',')})
  --json <path>                results file (bench-results/load-<timestamp>.json)
  --build                      build even when build/ is up to date
  --skip-build                 use build/ as it is, even when sources are newer
  --cpu-prof <dir>             write the server's CPU profile (.cpuprofile) into <dir>
  --help`

function options() {
  const { values, fail, integer } = benchArgs(USAGE, {
    db: { type: 'string', default: 'both' },
    postgres: { type: 'string', default: DEFAULT_POSTGRES },
    rate: { type: 'string', default: '300' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    settle: { type: 'string', default: '30' },
    connections: { type: 'string', default: '32' },
    processes: { type: 'string', default: '1' },
    mix: { type: 'string' },
    json: { type: 'string' },
    build: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  })
  const { databases, postgres, build, skipBuild } = databaseArgs(values, fail)
  let mix
  try {
    mix = parseMix(values.mix)
  } catch (error) {
    fail(error.message)
  }
  const processes = [...new Set(values.processes.split(',').map((part) => Number(part.trim())))]
  if (!processes.every((count) => Number.isInteger(count) && count >= 1 && count <= 64))
    fail('--processes takes counts from 1 to 64, separated by commas (1,2)')
  return {
    databases,
    processes,
    postgres,
    rate: integer('rate', 1, 20_000),
    duration: integer('duration', 1, 3600),
    warmup: integer('warmup', 0, 300),
    settle: integer('settle', 0, 600),
    connections: integer('connections', 1, 1000),
    mix,
    json: values.json ? path.resolve(values.json) : null,
    build,
    skipBuild,
    cpuProfileDir: values['cpu-prof'] ? path.resolve(values['cpu-prof']) : null,
  }
}

const mb = (bytes) => (bytes == null ? null : Math.round((bytes / 2 ** 20) * 10) / 10)

/**
 * The server's processes: the one started, and the ones it started (WEB_CONCURRENCY's processes;
 * with one process, and no cloud run in the mix, there are none).
 */
function serverPids(pid) {
  const children = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry))
    } catch {
      // ended meanwhile
    }
  }
  return [pid, ...children]
}

const sum = (values) => values.reduce((acc, value) => acc + (value ?? 0), 0)

/** The server's resident memory now, all its processes together: in all, anonymous (heaps, WASM memory) and file-backed (code). */
function memoryOf(pid) {
  const kb = (of, field) => {
    try {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${of}/status`, 'utf8'))
      return match ? Number(match[1]) * 1024 : null
    } catch {
      return null
    }
  }
  const pids = serverPids(pid)
  return {
    rssMb: mb(sum(pids.map(rssBytes))),
    anonMb: mb(sum(pids.map((of) => kb(of, 'RssAnon')))),
    fileMb: mb(sum(pids.map((of) => kb(of, 'RssFile')))),
  }
}

const treeCpuSeconds = (pid) => sum(serverPids(pid).map(cpuSeconds))
const treeRssBytes = (pid) => sum(serverPids(pid).map(rssBytes))

// ---------------------------------------------------------------------------------------------
// Setting up one server

function client(base, address) {
  return async function api(route, { method, body, token } = {}) {
    const response = await fetch(`${base}${route}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': address(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    const json = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(`${method ?? 'GET'} ${route}: ${response.status} ${json.message ?? ''}`)
    return json
  }
}

async function status(base, route, headers) {
  try {
    const response = await fetch(`${base}${route}`, { headers, signal: AbortSignal.timeout(15_000) })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    return error.message
  }
}

/** Requests of every class; GET paths that do not answer 2xx now are left out and listed. */
async function prepareClasses(base, opts, context) {
  const rates = share(opts.mix, opts.rate, 1)
  const connections = share(opts.mix, opts.connections, 2)
  const classes = []
  const skipped = []
  for (const name of Object.keys(rates)) {
    const requests = []
    for (const request of requestsFor(name, context)) {
      if (request.method === 'GET') {
        const answer = await status(base, request.path, { ...request.headers, 'x-forwarded-for': context.address() })
        if (typeof answer !== 'number' || answer >= 300) {
          skipped.push({ class: name, path: request.path, status: answer })
          continue
        }
      }
      requests.push(request)
    }
    if (!requests.length) continue
    classes.push({
      name,
      label: CLASSES[name].label,
      group: CLASSES[name].group,
      weight: opts.mix[name],
      rate: rates[name],
      connections: Math.min(connections[name], rates[name]),
      paths: [...new Set(requests.map((request) => `${request.method} ${request.path}`))],
      requests,
    })
  }
  return { classes, skipped }
}

// ---------------------------------------------------------------------------------------------

async function measureDatabase(database, processes, opts) {
  const accounts = {
    admin: { email: 'admin@bench.test', password: `admin-${randomBytes(9).toString('base64url')}` },
    member: { email: 'member@bench.test', password: `member-${randomBytes(9).toString('base64url')}` },
  }
  const dataDir = tempDir(`aether-bench-load-${database}-`)
  const scratch = database === 'postgres' ? await scratchPostgresDatabase(opts.postgres, 'aether_bench_load') : null
  console.log(
    `\n== ${database === 'postgres' ? `PostgreSQL (scratch database ${scratch.name})` : 'PGlite (temporary DATA_DIR)'}, ${processes} server process${processes === 1 ? '' : 'es'}`,
  )
  const server = await startServer(ROOT, {
    dataDir,
    databaseUrl: scratch?.url ?? null,
    accounts,
    // Each request names its own client address (load-mix.mjs).
    env: { TRUST_PROXY: 'true', WEB_CONCURRENCY: String(processes) },
    cpuProfileDir: opts.cpuProfileDir,
  })
  try {
    console.log(`server ${server.base} (PID ${server.child.pid})`)
    const address = addressSource()
    const api = client(server.base, address)
    const admin = (await api('/api/auth/login', { body: accounts.admin })).data.token
    const member = (await api('/api/auth/login', { body: accounts.member })).data.token
    const settings = (await api('/api/settings', { token: admin })).data
    // Admin and member requests count against one user each: raise the limit to its maximum.
    await api('/api/settings', { method: 'PUT', body: { ...settings, apiRateLimit: API_RATE_LIMIT }, token: admin })
    const posts = await api('/api/blog?limit=1')
    const slug = posts.data?.[0]?.slug ?? null
    if (!slug) console.warn('no published post: /blog/<slug> and /api/blog/<slug> are left out')

    const context = { slug, admin, member, memberAccount: accounts.member, address }
    const { classes, skipped } = await prepareClasses(server.base, opts, context)
    for (const entry of skipped) console.warn(`left out ${entry.path} (${entry.class}): it answered ${entry.status}`)
    if (!classes.length) throw new Error('no class has a request that answers')
    const headers = { 'accept-encoding': 'gzip, deflate, br' }

    await sleep(1_000)
    const readyMemory = memoryOf(server.child.pid)
    const sampler = sampleRss(server.child.pid, 250, treeRssBytes)
    const loadStart = loadAverage()
    if (opts.warmup) {
      process.stdout.write(`warm-up: ${opts.warmup} s at ${opts.rate} req/s… `)
      await runClasses(server.base, classes, { duration: opts.warmup, headers })
      console.log('done')
    }
    process.stdout.write(
      `measuring: ${opts.duration} s at ${opts.rate} req/s, ${classes.reduce((acc, c) => acc + c.connections, 0)} connections… `,
    )
    const cpuStart = treeCpuSeconds(server.child.pid)
    const coreCount = countCores()
    const results = await runClasses(server.base, classes, { duration: opts.duration, headers })
    const cpuUsed = treeCpuSeconds(server.child.pid) - cpuStart
    const cores = coreCount.stop(cpuUsed)
    const loadEnd = loadAverage()
    if (opts.settle) {
      process.stdout.write(`settling: ${opts.settle} s without load… `)
      await sleep(opts.settle * 1000)
      console.log('done')
    }
    const memory = sampler.stop()
    const afterMemory = memoryOf(server.child.pid)
    const overall = summarize(results, opts.duration)
    console.log(`${overall.throughput} req/s`)

    const perClass = results.map((record) => ({
      name: record.name,
      label: record.label,
      group: record.group,
      weight: record.weight,
      connections: record.connections,
      paths: record.paths,
      ...summarize([record], opts.duration),
    }))
    const groups = {}
    for (const group of [...new Set(results.map((record) => record.group))]) {
      groups[group] = summarize(
        results.filter((record) => record.group === group),
        opts.duration,
      )
    }
    return {
      database,
      processes,
      server: server.base,
      loadAverageStart: loadStart,
      loadAverageEnd: loadEnd,
      skipped,
      overall,
      groups,
      classes: perClass,
      memory: {
        readyRssMb: readyMemory.rssMb,
        idleAfterLoadRssMb: afterMemory.rssMb,
        peakRssMb: mb(memory.peak),
        ready: readyMemory,
        idleAfterLoad: afterMemory,
        settleSeconds: opts.settle,
        samples: memory.samples,
        everyMs: 250,
      },
      cpu: {
        coresBusy: Number((cpuUsed / opts.duration).toFixed(2)),
        msPerRequest: overall.responses ? Number(((cpuUsed * 1000) / overall.responses).toFixed(2)) : null,
      },
      cores,
      serverLog: server.log.text.split('\n').slice(-20).join('\n'),
    }
  } finally {
    await server.stop()
    await scratch?.drop()
  }
}

// ---------------------------------------------------------------------------------------------
// Printing

/** postgres, or postgres ×2 for two server processes. */
const runName = ({ database, processes }) => (processes > 1 ? `${database} ×${processes}` : database)

const row = (name, s) => [
  name,
  s.targetRate,
  s.throughput,
  s.latencyMs.p50,
  s.latencyMs.p95,
  s.latencyMs.p99,
  s.latencyMs.max,
  s.ok,
  s.serverErrors,
  s.rateLimited,
  s.otherNon2xx,
  s.socketErrors + s.timeouts,
]

function printDatabase(entry, opts) {
  console.log(
    `\n${entry.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${entry.processes} process${entry.processes === 1 ? '' : 'es'}: ${opts.duration} s at ${opts.rate} req/s; load average ${entry.loadAverageStart.join(' ')} at start, ${entry.loadAverageEnd.join(' ')} at end`,
  )
  table(
    ['class', 'rate', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', '2xx', '5xx', '429', 'other 4xx', 'errors'],
    [
      ...entry.classes.map((s) => row(`${s.name} (${s.label})`, s)),
      ...Object.entries(entry.groups).map(([group, s]) => row(`= ${group}`, s)),
      row('= all', entry.overall),
    ],
  )
  const codes = Object.entries(entry.overall.statuses)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ')
  const errors = Object.entries(entry.overall.errors)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ')
  console.log(`statuses ${codes}; socket errors ${errors || 0}; timeouts ${entry.overall.timeouts}`)
  const m = entry.memory
  const parts = (x) => `anonymous ${x.anonMb} MB, files ${x.fileMb} MB`
  console.log(
    `server RSS: ready ${m.readyRssMb} MB (${parts(m.ready)}); peak ${m.peakRssMb} MB (VmRSS every 250 ms from the warm-up to the end of settling, ${m.samples} samples); idle ${m.settleSeconds} s after the load ${m.idleAfterLoadRssMb} MB (${parts(m.idleAfterLoad)})`,
  )
  console.log(`server CPU: ${entry.cpu.coresBusy} cores busy on average, ${entry.cpu.msPerRequest} ms per request`)
  console.log(`the machine's cores over the measured seconds: ${describeCores(entry.cores)}`)
  for (const skipped of entry.skipped) console.log(`left out ${skipped.path} (${skipped.class}): answered ${skipped.status}`)
}

function targets(entry, opts) {
  const o = entry.overall
  const reads = entry.groups['api-read']
  const checks = [
    { name: `zero 5xx`, pass: o.serverErrors === 0, value: o.serverErrors },
    {
      name: 'zero errors (socket errors, timeouts, 4xx other than 429)',
      pass: o.socketErrors + o.timeouts + o.otherNon2xx === 0,
      value: o.socketErrors + o.timeouts + o.otherNon2xx,
    },
    {
      name: `throughput ≥ 98% of ${opts.rate} req/s`,
      pass: o.throughput >= 0.98 * o.targetRate,
      value: `${o.throughput} req/s of ${o.targetRate}`,
    },
    {
      name: `API reads p99 ≤ ${TARGETS.apiReadP99Ms[entry.database]} ms`,
      pass: reads ? reads.latencyMs.p99 <= TARGETS.apiReadP99Ms[entry.database] : false,
      value: `${reads?.latencyMs.p99 ?? '–'} ms`,
    },
  ]
  // The memory targets are a process's; several are measured together (their sum is reported).
  if (entry.processes > 1) return { rate: opts.rate, rateIsTarget: opts.rate >= TARGETS.rate, checks, rateLimited: o.rateLimited }
  const idleTarget = TARGETS.idleAfterLoadRssMb[entry.database]
  if (idleTarget != null)
    checks.push({
      name: `RSS idle after the load ≤ ${idleTarget} MB`,
      pass: entry.memory.idleAfterLoadRssMb <= idleTarget,
      value: `${entry.memory.idleAfterLoadRssMb} MB`,
    })
  const peakTarget = TARGETS.peakRssMb[entry.database]
  checks.push({ name: `RSS peak ≤ ${peakTarget} MB`, pass: entry.memory.peakRssMb <= peakTarget, value: `${entry.memory.peakRssMb} MB` })
  return { rate: opts.rate, rateIsTarget: opts.rate >= TARGETS.rate, checks, rateLimited: o.rateLimited }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = options()
  const started = new Date()
  if (!/^linux/.test(process.platform)) throw new Error('this benchmark reads the server memory from /proc: it needs Linux')
  const build = await ensureBuild(ROOT, { force: opts.build, skip: opts.skipBuild })
  const readVersion = (name) => {
    try {
      return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version
    } catch {
      return null
    }
  }
  const result = {
    benchmark: 'load',
    startedAt: started.toISOString(),
    finishedAt: null,
    machine: machine(),
    versions: { node: process.version, autocannon: readVersion('autocannon') },
    options: { ...opts, postgres: opts.databases.includes('postgres') ? opts.postgres : null },
    build,
    targets: TARGETS,
    runs: [],
    errors: [],
  }
  console.log(`load average at start: ${result.machine.loadAverageStart.join(' ')} (${result.machine.cpus} CPUs)`)
  console.log(
    `mix (percent of ${opts.rate} req/s): ${Object.entries(opts.mix)
      .map(([name, weight]) => `${name}=${weight}`)
      .join(', ')}`,
  )

  for (const database of opts.databases) {
    for (const processes of opts.processes) {
      if (processes > 1 && database === 'pglite') {
        console.log(`\n== PGlite: ${processes} processes left out (the embedded database belongs to one process)`)
        continue
      }
      try {
        const entry = await measureDatabase(database, processes, opts)
        entry.targets = targets(entry, opts)
        result.runs.push(entry)
      } catch (error) {
        console.error(`${runName({ database, processes })}: ${error.message}`)
        result.errors.push(`${runName({ database, processes })}: ${error.message}`)
      }
    }
  }
  result.finishedAt = new Date().toISOString()
  result.machine.loadAverageEnd = loadAverage()

  const file = opts.json ?? path.join(ROOT, 'bench-results', `load-${started.toISOString().replace(/[:.]/g, '-')}.json`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)

  console.log(
    `\nMachine: ${result.machine.cpus} CPUs (${result.machine.cpuModel}), ${result.machine.totalMemoryMb} MB; Node ${process.version}, autocannon ${result.versions.autocannon}`,
  )
  console.log(
    `load average ${result.machine.loadAverageStart.join(' ')} at start, ${result.machine.loadAverageEnd.join(' ')} at end (autocannon runs on the same machine)`,
  )
  for (const entry of result.runs) printDatabase(entry, opts)
  if (result.runs.length) {
    console.log('\nFootprint and speed (each figure with its target: ok or MISS)')
    const verdict = (value, target, unit) =>
      target == null || value == null ? `${value ?? '–'} ${unit}` : `${value} ${unit} ${value <= target ? 'ok' : 'MISS'} (≤ ${target})`
    table(
      ['database', 'req/s', 'API reads p99', 'CPU ms/request', 'RSS ready', 'RSS idle after load', 'RSS peak'],
      result.runs.map((entry) => {
        const perProcess = entry.processes === 1
        return [
          runName(entry),
          entry.overall.throughput,
          verdict(entry.groups['api-read']?.latencyMs.p99, TARGETS.apiReadP99Ms[entry.database], 'ms'),
          entry.cpu.msPerRequest,
          `${entry.memory.readyRssMb} MB`,
          perProcess
            ? verdict(entry.memory.idleAfterLoadRssMb, TARGETS.idleAfterLoadRssMb[entry.database], 'MB')
            : `${entry.memory.idleAfterLoadRssMb} MB (all)`,
          perProcess ? verdict(entry.memory.peakRssMb, TARGETS.peakRssMb[entry.database], 'MB') : `${entry.memory.peakRssMb} MB (all)`,
        ]
      }),
    )
    for (const entry of result.runs.filter((run) => run.processes > 1)) {
      const single = result.runs.find((run) => run.database === entry.database && run.processes === 1)
      if (single)
        console.log(
          `${runName(entry)}: ${(entry.overall.throughput / single.overall.throughput).toFixed(2)}x the requests per second of one process (API reads p99 ${entry.groups['api-read']?.latencyMs.p99} ms vs ${single.groups['api-read']?.latencyMs.p99} ms); at a rate both hold, the figures are equal: raise --rate to find the ceiling${entry.cores.machineBound ? `. Machine-bound: ${entry.cores.idle} of ${entry.cores.cpus} cores were idle, so the ratio is the machine's, not the server's` : ''}`,
        )
    }
  }
  console.log('\nTargets (informative, the run does not fail on them; set for 300 req/s on 2 CPUs)')
  for (const entry of result.runs) {
    for (const check of entry.targets.checks)
      console.log(`  ${check.pass ? 'ok  ' : 'MISS'} ${runName(entry)}: ${check.name} (${check.value})`)
    if (entry.targets.rateLimited)
      console.log(`  note ${runName(entry)}: ${entry.targets.rateLimited} answers were 429 (rate limited), counted apart`)
  }
  if (result.errors.length) {
    console.log('\nProblems during the run:')
    for (const error of result.errors) console.log(`  - ${error}`)
  }
  console.log(`\nSaved ${path.relative(process.cwd(), file) || file}`)
  return result.errors.length ? 1 : 0
}

await runBenchmark('bench:load', main)
