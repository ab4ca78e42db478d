// Cloud-run benchmark (issue 6): runs per minute of the cloud worker and memory per concurrent
// run, against the production build. See README, "Benchmarks".
//
//   npm run bench:runs [-- --runs 20 --concurrency 2 ...]
//
// It starts its own production server (fresh temporary DATA_DIR, embedded database unless
// --postgres is given) on a free loopback port with RUN_ALLOW_PRIVATE_TARGETS=loopback, serves a
// small form page on another loopback port, and stops both at the end; it never takes the build
// lock itself (run it under `flock /tmp/aether-e2e.lock` when others build into the same build/).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { cleanups, runBenchmark, tempDir } from './bench/cleanup.mjs'
import { benchArgs } from './bench/cli.mjs'
import { loadAverage } from './bench/machine.mjs'
import { ensureBuild, startServer } from './bench/app-server.mjs'
import { scratchPostgresDatabase } from './bench/postgres.mjs'
import { freePort } from './bench/processes.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const USAGE = `usage: npm run bench:runs -- [options]
  --runs <n>              measured runs queued at once (20)
  --concurrency <n>       RUN_CONCURRENCY of the server: runs executed at the same time (2)
  --warmup <n>            unmeasured runs first; the first one starts the browser (1)
  --postgres <url>        use a fresh database on this PostgreSQL server (created and dropped)
                          instead of the embedded PGlite, e.g. postgres://postgres@127.0.0.1:5432/postgres
  --build                 build even when build/ is up to date (default: when missing or older than a source)
  --timeout <s>           how long the measured runs may take in all (900)
  --live-runs <n>         runs of each live view batch: unwatched, then each watched live (10; 0 skips it)
  --help
environment: CHROME_PATH (default /usr/bin/chromium)`

function options() {
  const { values, fail, integer } = benchArgs(USAGE, {
    runs: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '1' },
    postgres: { type: 'string' },
    build: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '900' },
    'live-runs': { type: 'string', default: '10' },
  })
  if (values.postgres && !/^postgres(ql)?:\/\//.test(values.postgres)) fail('--postgres must be a postgres:// URL')
  return {
    runs: integer('runs', 1, 5000),
    concurrency: integer('concurrency', 1, 32),
    warmup: integer('warmup', 0, 20),
    postgres: values.postgres ?? null,
    build: values.build,
    timeoutMs: integer('timeout', 10, 24 * 3600) * 1000,
    liveRuns: integer('live-runs', 0, 500),
  }
}

// ---------------------------------------------------------------------------------------------
// Memory of a process and everything it started (Chromium's browser, renderer, GPU and utility
// processes), from /proc. RSS counts shared pages once per process, so the sum overstates what a
// set of Chromium processes really takes; PSS shares them out and adds up to the real figure.

function processTree(rootPid) {
  const children = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (!children.has(ppid)) children.set(ppid, [])
      children.get(ppid).push(Number(name))
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = []
  const queue = [rootPid]
  while (queue.length) {
    const pid = queue.shift()
    tree.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return tree
}

function kbField(file, field) {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

function memory(rootPid) {
  const pids = processTree(rootPid)
  let rss = 0
  let pss = 0
  for (const pid of pids) {
    rss += kbField(`/proc/${pid}/status`, 'VmRSS')
    pss += kbField(`/proc/${pid}/smaps_rollup`, 'Pss')
  }
  return { processes: pids.length, rss, pss, serverRss: kbField(`/proc/${rootPid}/status`, 'VmRSS') }
}

function startSampler(rootPid, everyMs = 250) {
  const peak = { rss: 0, pss: 0, serverRss: 0, processes: 0 }
  let samples = 0
  const timer = setInterval(() => {
    const now = memory(rootPid)
    samples += 1
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key])
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return { ...peak, samples }
    },
  }
}

// CPU time of a process tree over an interval, from /proc: each process's own user and system time
// (not its reaped children's, which would count them twice), sampled often enough to see Chromium's
// short-lived processes. A process born during the interval counts from zero.
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return null
  }
}

function startCpuMeter(rootPid, everyMs = 100) {
  const seen = new Map()
  const sample = (first) => {
    for (const pid of processTree(rootPid)) {
      const ticks = cpuTicks(pid)
      if (ticks === null) continue
      const known = seen.get(pid)
      if (known) known.last = ticks
      else seen.set(pid, { first: first ? ticks : 0, last: ticks })
    }
  }
  sample(true)
  const timer = setInterval(() => sample(false), everyMs)
  return {
    stop() {
      clearInterval(timer)
      sample(false)
      let ticks = 0
      for (const { first, last } of seen.values()) ticks += last - first
      const own = seen.get(rootPid)
      return { total: ticks / CLOCK_TICKS, server: own ? (own.last - own.first) / CLOCK_TICKS : 0 }
    },
  }
}

/** Watches a run's live view until the stream ends (the run did); resolves to the frames received. */
async function watchLive(base, token, runId) {
  const response = await fetch(`${base}/api/runs/${runId}/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(300_000),
  })
  if (!response.ok || !response.body) return { frames: 0, status: response.status }
  const decoder = new TextDecoder()
  let frames = 0
  let text = ''
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true })
    const blocks = text.split('\n\n')
    text = blocks.pop() ?? ''
    frames += blocks.filter((block) => block.startsWith('event: frame')).length
  }
  return { frames, status: response.status }
}

// ---------------------------------------------------------------------------------------------

const FORM_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign-up form</title></head>
  <body>
    <form id="signup">
      <label>Name <input id="name" name="name"></label>
      <label>Plan <select id="plan"><option value="free">Free</option><option value="pro">Pro</option></select></label>
      <button id="submit" type="submit">Send</button>
    </form>
    <p id="result" hidden></p>
    <script>
      document.getElementById('signup').addEventListener('submit', (event) => {
        event.preventDefault()
        setTimeout(() => {
          const result = document.getElementById('result')
          result.textContent = 'Thanks, ' + document.getElementById('name').value + ' (' + document.getElementById('plan').value + ')'
          result.hidden = false
        }, 100)
      })
    </script>
  </body>
</html>`

async function startFormSite() {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/form')) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FORM_PAGE)
    else response.writeHead(404).end()
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${port}`
}

const ADMIN = { email: 'admin@bench.test', password: `admin-${randomBytes(9).toString('base64url')}` }
const MEMBER = { email: 'member@bench.test', password: `member-${randomBytes(9).toString('base64url')}` }

function client(base) {
  return async function api(route, { method, body, token } = {}) {
    const response = await fetch(`${base}${route}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', origin: base, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    const json = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(`${method ?? 'GET'} ${route}: ${response.status} ${json.message ?? ''}`)
    return json
  }
}

const STEPS = (site) => [
  { type: 'navigate', url: `${site}/form` },
  { type: 'type', selector: '#name', text: 'Ada' },
  { type: 'select', selector: '#plan', value: 'pro' },
  { type: 'click', selector: '#submit' },
  { type: 'wait', selector: '#result' },
  { type: 'extract', selector: '#result', field: 'result' },
  { type: 'screenshot', name: 'Result' },
  { type: 'assertText', selector: '#result', text: 'Thanks, Ada' },
]

/** Queues `count` cloud runs and waits until all have finished; returns them. `onRunning` hears of each run once it is seen running. */
async function runBatch(api, token, automationId, count, timeoutMs, onRunning) {
  const queuedAt = Date.now()
  const ids = []
  for (let i = 0; i < count; i++) {
    const { data } = await api(`/api/automations/${automationId}/runs`, { body: { where: 'cloud' }, token })
    ids.push(data.id)
  }
  const wanted = new Set(ids)
  const running = new Set()
  const deadline = Date.now() + timeoutMs
  let runs = []
  while (Date.now() < deadline) {
    runs = []
    for (let page = 1; ; page++) {
      const listed = await api(`/api/runs?automationId=${automationId}&limit=100&page=${page}`, { token })
      runs.push(...listed.data.filter((entry) => wanted.has(entry.id)))
      if (page * 100 >= listed.total) break
    }
    for (const entry of runs) {
      if (entry.status !== 'running' || running.has(entry.id)) continue
      running.add(entry.id)
      onRunning?.(entry.id)
    }
    if (runs.length === count && runs.every((entry) => ['succeeded', 'failed', 'cancelled'].includes(entry.status))) break
    await sleep(count > 200 ? 1000 : 250)
  }
  const pending = runs.filter((entry) => !['succeeded', 'failed', 'cancelled'].includes(entry.status)).length
  if (pending || runs.length < count)
    throw new Error(`${pending || count - runs.length} of ${count} runs did not finish within ${timeoutMs / 1000} s`)
  return { queuedAt, runs }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null
}
const mb = (bytes) => (bytes == null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10)
const ms = (a, b) => new Date(b).getTime() - new Date(a).getTime()

function chromiumVersion(chromePath) {
  const output = spawnSync(chromePath, ['--version'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? ''
  return output.match(/(\d+\.\d+\.\d+\.\d+)/)?.[1] ?? (output.trim() || null)
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = options()
  const started = new Date()
  const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium'
  if (!existsSync(chromePath))
    throw new Error(`Chromium not found at ${chromePath}. Install it with \`apt-get install chromium\` or set CHROME_PATH.`)
  if (!existsSync('/proc/self/status')) throw new Error('this benchmark reads memory from /proc: it needs Linux')

  await ensureBuild(ROOT, { force: opts.build })
  const site = await startFormSite()
  const databaseUrl = opts.postgres ? (await scratchPostgresDatabase(opts.postgres, 'aether_bench_runs')).url : null
  const dataDir = tempDir('aether-bench-runs-')
  const server = await startServer(ROOT, {
    dataDir,
    databaseUrl,
    accounts: { admin: ADMIN, member: MEMBER },
    env: {
      RUN_WORKER: 'true',
      RUN_CONCURRENCY: String(opts.concurrency),
      // The form page is on 127.0.0.1.
      RUN_ALLOW_PRIVATE_TARGETS: 'loopback',
      CHROMIUM_PATH: chromePath,
    },
  })
  console.log(
    `server ${server.base} (PID ${server.child.pid}, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, RUN_CONCURRENCY=${opts.concurrency}); form page ${site}/form`,
  )

  // Idle: started, migrated, seeded, no browser yet.
  await sleep(3_000)
  const idleSamples = []
  for (let i = 0; i < 5; i++) {
    idleSamples.push(memory(server.child.pid))
    await sleep(200)
  }
  const idle = {
    rss: Math.round(idleSamples.reduce((sum, sample) => sum + sample.rss, 0) / idleSamples.length),
    pss: Math.round(idleSamples.reduce((sum, sample) => sum + sample.pss, 0) / idleSamples.length),
    processes: idleSamples.at(-1).processes,
  }

  const api = client(server.base)
  const admin = (await api('/api/auth/login', { body: ADMIN })).data
  const member = (await api('/api/auth/login', { body: MEMBER })).data
  const settings = (await api('/api/settings', { token: admin.token })).data
  // The benchmark polls the run list; the default 60 requests a minute would answer 429.
  await api('/api/settings', { method: 'PUT', body: { ...settings, apiRateLimit: 10_000 }, token: admin.token })
  await api(`/api/users/${member.user.id}`, {
    method: 'PUT',
    body: { plan: 'business', credits: opts.runs + opts.warmup + 2 * opts.liveRuns + 10 },
    token: admin.token,
  })
  const automation = (await api('/api/automations', { body: { name: 'Benchmark form', steps: STEPS(site) }, token: member.token })).data

  const result = {
    benchmark: 'runs',
    startedAt: started.toISOString(),
    options: { runs: opts.runs, concurrency: opts.concurrency, warmup: opts.warmup, database: databaseUrl ? 'postgres' : 'pglite' },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryMb: Math.round(os.totalmem() / 1024 / 1024),
      loadAverageStart: loadAverage(),
    },
    versions: { node: process.version, chromium: chromiumVersion(chromePath) },
    steps: STEPS(site).length,
    idle: { rssMb: mb(idle.rss), pssMb: mb(idle.pss), processes: idle.processes },
    warmup: null,
    measured: null,
    memory: null,
    errors: [],
  }

  if (opts.warmup) {
    process.stdout.write(`warm-up: ${opts.warmup} run${opts.warmup > 1 ? 's' : ''} (the first starts Chromium)… `)
    const warm = await runBatch(api, member.token, automation.id, opts.warmup, 180_000)
    const first = warm.runs.at(-1)
    result.warmup = { runs: opts.warmup, firstRunMs: first?.finishedAt ? ms(first.createdAt, first.finishedAt) : null }
    console.log(`first run ${result.warmup.firstRunMs} ms`)
    for (const entry of warm.runs)
      if (entry.status !== 'succeeded') result.errors.push(`warm-up run ${entry.id}: ${entry.status} ${entry.error ?? ''}`)
  }

  process.stdout.write(`measuring: ${opts.runs} runs, ${opts.concurrency} at a time… `)
  const sampler = startSampler(server.child.pid)
  const batch = await runBatch(api, member.token, automation.id, opts.runs, opts.timeoutMs)
  const peak = sampler.stop()
  const lastFinish = Math.max(...batch.runs.map((entry) => new Date(entry.finishedAt ?? Date.now()).getTime()))
  const elapsedMs = lastFinish - batch.queuedAt
  const succeeded = batch.runs.filter((entry) => entry.status === 'succeeded')
  const durations = batch.runs.filter((entry) => entry.startedAt && entry.finishedAt).map((entry) => ms(entry.startedAt, entry.finishedAt))
  const waits = batch.runs.filter((entry) => entry.startedAt).map((entry) => ms(entry.createdAt, entry.startedAt))
  result.measured = {
    runs: opts.runs,
    succeeded: succeeded.length,
    failed: batch.runs.length - succeeded.length,
    elapsedMs,
    runsPerMinute: Math.round((opts.runs / (elapsedMs / 60_000)) * 10) / 10,
    runMs: { median: percentile(durations, 50), p95: percentile(durations, 95), max: percentile(durations, 100) },
    queueWaitMs: { median: percentile(waits, 50), max: percentile(waits, 100) },
    actionsPerRun: STEPS(site).length,
  }
  console.log(`${result.measured.runsPerMinute} runs/min`)
  for (const entry of batch.runs)
    if (entry.status !== 'succeeded') result.errors.push(`run ${entry.id}: ${entry.status} ${entry.error ?? ''}`)

  result.memory = {
    idleRssMb: mb(idle.rss),
    peakRssMb: mb(peak.rss),
    peakServerProcessRssMb: mb(peak.serverRss),
    peakProcesses: peak.processes,
    perConcurrentRunRssMb: mb((peak.rss - idle.rss) / opts.concurrency),
    idlePssMb: mb(idle.pss),
    peakPssMb: mb(peak.pss),
    perConcurrentRunPssMb: mb((peak.pss - idle.pss) / opts.concurrency),
    samples: peak.samples,
  }
  if (opts.liveRuns) result.liveView = await measureLiveView(api, server, member.token, site, opts, result.errors)
  result.finishedAt = new Date().toISOString()
  result.machine.loadAverageEnd = loadAverage()

  const outDir = path.join(ROOT, 'bench-results')
  mkdirSync(outDir, { recursive: true })
  const file = path.join(outDir, `runs-${started.toISOString().replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)

  const m = result.measured
  const mem = result.memory
  console.log(
    `\nMachine: ${result.machine.cpus} CPUs (${result.machine.cpuModel}), load average ${result.machine.loadAverageStart.join(' ')} at start, ${result.machine.loadAverageEnd.join(' ')} at end`,
  )
  console.log(`Node ${result.versions.node}, Chromium ${result.versions.chromium ?? '–'}, ${result.options.database}`)
  console.log(
    `\nRuns: ${m.runs} of ${m.actionsPerRun} actions (navigate, type, select, click, wait, extract, screenshot, assert), ${opts.concurrency} at a time`,
  )
  console.log(
    `  throughput        ${m.runsPerMinute} runs/min (${m.succeeded} succeeded, ${m.failed} failed, ${(m.elapsedMs / 1000).toFixed(1)} s from the first queued to the last finished)`,
  )
  console.log(`  one run           median ${m.runMs.median} ms, p95 ${m.runMs.p95} ms (claimed to finished)`)
  console.log(`  waiting in queue  median ${m.queueWaitMs.median} ms, max ${m.queueWaitMs.max} ms`)
  if (result.warmup) console.log(`  first run         ${result.warmup.firstRunMs} ms, queued to finished, with Chromium's start`)
  console.log('\nMemory: the server process and every process it started (Chromium included), from /proc')
  console.log(`  idle              RSS ${mem.idleRssMb} MB, PSS ${mem.idlePssMb} MB (no browser yet)`)
  console.log(
    `  peak              RSS ${mem.peakRssMb} MB, PSS ${mem.peakPssMb} MB, ${mem.peakProcesses} processes; the Node process alone ${mem.peakServerProcessRssMb} MB`,
  )
  console.log(
    `  per concurrent run (peak - idle) / ${opts.concurrency}: RSS ${mem.perConcurrentRunRssMb} MB, PSS ${mem.perConcurrentRunPssMb} MB`,
  )
  if (result.liveView) {
    const live = result.liveView
    console.log(
      `\nLive view: ${live.runs} runs of ${live.steps} steps (a 2 s wait in them), each batch ${opts.concurrency} at a time; CPU time of the server and Chromium, from /proc`,
    )
    console.log(
      `  unwatched         ${live.unwatched.cpuSecondsPerRun} CPU s per run (the Node process ${live.unwatched.serverProcessCpuSecondsPerRun} s)`,
    )
    console.log(
      `  watched live      ${live.watched.cpuSecondsPerRun} CPU s per run (the Node process ${live.watched.serverProcessCpuSecondsPerRun} s; ${live.watched.framesPerRun} frames per run reached the watcher)`,
    )
    console.log(`  cost              ${live.extraCpuPercent} % more CPU per running cloud run (target: at most 10 %)`)
  }
  if (result.errors.length) {
    console.log('\nProblems during the run:')
    for (const error of result.errors.slice(0, 20)) console.log(`  - ${error}`)
  }
  console.log(`\nSaved ${path.relative(ROOT, file)}`)
  return result.errors.length ? 1 : 0
}

/**
 * What watching costs (docs/decisions/058): a batch of runs nobody watches, then the same batch with
 * a page watching each run live from the moment it is seen running; CPU seconds per run of each.
 * The runs wait 2 s on the page, so the watcher is on for most of each.
 */
async function measureLiveView(api, server, token, site, opts, errors) {
  const steps = [STEPS(site)[0], { type: 'wait', ms: 2_000 }, ...STEPS(site).slice(1)]
  const automation = (await api('/api/automations', { body: { name: 'Benchmark live view', steps }, token })).data
  const measure = async (watched) => {
    process.stdout.write(`live view: ${opts.liveRuns} runs ${watched ? 'watched' : 'unwatched'}… `)
    const watchers = []
    const meter = startCpuMeter(server.child.pid)
    const batch = await runBatch(api, token, automation.id, opts.liveRuns, opts.timeoutMs, (id) => {
      if (watched) watchers.push(watchLive(server.base, token, id))
    })
    const seen = await Promise.all(watchers)
    const cpu = meter.stop()
    for (const entry of batch.runs)
      if (entry.status !== 'succeeded') errors.push(`live view run ${entry.id}: ${entry.status} ${entry.error ?? ''}`)
    const frames = seen.reduce((sum, watcher) => sum + watcher.frames, 0)
    if (watched && seen.length < opts.liveRuns) errors.push(`only ${seen.length} of ${opts.liveRuns} runs were seen running and watched`)
    const perRun = Math.round((cpu.total / opts.liveRuns) * 1000) / 1000
    console.log(`${perRun} CPU s per run`)
    return {
      cpuSeconds: Math.round(cpu.total * 100) / 100,
      cpuSecondsPerRun: perRun,
      serverProcessCpuSecondsPerRun: Math.round((cpu.server / opts.liveRuns) * 1000) / 1000,
      watchers: seen.length,
      framesPerRun: watched ? Math.round((frames / opts.liveRuns) * 10) / 10 : 0,
    }
  }
  const unwatched = await measure(false)
  const watched = await measure(true)
  return {
    runs: opts.liveRuns,
    steps: steps.length,
    unwatched,
    watched,
    extraCpuPercent: Math.round((watched.cpuSecondsPerRun / unwatched.cpuSecondsPerRun - 1) * 1000) / 10,
  }
}

await runBenchmark('bench:runs', main)
