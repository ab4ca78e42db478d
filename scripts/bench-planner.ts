// Planner benchmark (issue 14): how often a task said in words becomes steps that run green the
// first time, how often a redesign of the site is survived, and how long a plan takes; with the
// offline planner and with the AI model (a scripted one, at the HTTP level). See README,
// "Benchmarks".
//
//   npm run bench:planner [-- --only 5 --build --corpus practice|real|all --app todomvc]
//
// `--corpus real` measures the real-app corpus instead (scripts/bench/real-app-bench.ts): apps
// written by others, installed from npm, each task judged by what its run did, per app.
//
// It starts its own production server (fresh temporary DATA_DIR, embedded database) with
// RUN_ALLOW_PRIVATE_TARGETS=loopback and AI_BASE_URL pointing at a scripted OpenAI-compatible
// server, serves the practice sites (server/testing/practice-sites.ts) on loopback, plans every
// task of the corpus (scripts/bench/planner-corpus.ts) through POST /api/automations/plan, saves
// each plan and runs it in the cloud on the original design, then on the redesign (new ids,
// classes and layout; same names and labels) and on the reworded redesign (buttons say things a
// little differently). Asked to repair a step, the scripted model answers from the question alone
// (scripted-model.ts, repairFromQuestion); the runs repaired that way are counted apart.
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startFakeChatCompletions } from '../server/testing/fake-chat-completions.ts'
import { startPracticeSites, type Design } from '../server/testing/practice-sites.ts'
import { repairFromQuestion, scriptedPlanner } from '../server/testing/scripted-model.ts'
import { ensureBuild, startServer } from './bench/app-server.mjs'
import { cleanups, runBenchmark, tempDir } from './bench/cleanup.mjs'
import { PLANNER_CORPUS, type CorpusTask } from './bench/planner-corpus.ts'
import { benchRealApps, selectRealTasks } from './bench/real-app-bench.ts'
import { REAL_APP_CORPUS, type RealAppTask } from '../server/testing/real-apps/corpus/index.ts'
import { REAL_APP_NAMES } from '../server/testing/real-apps/index.ts'
import type { RecordedChatRequest } from '../server/testing/fake-chat-completions.ts'
import { table } from './bench/table.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TARGETS = { runnableOffline: 0.8, repaired: 0.9 }
const PLANNERS = ['offline', 'model'] as const
type Planner = (typeof PLANNERS)[number]

const USAGE = `usage: npm run bench:planner -- [options]
  --only <n>     the first n tasks of the corpus (all ${PLANNER_CORPUS.length} practice, ${REAL_APP_CORPUS.length} real)
  --corpus <c>   practice (our practice sites, the default), real (real apps by others) or all
  --app <name>   with the real corpus: only this app's tasks (${REAL_APP_NAMES.join(', ')})
  --build        build even when build/ is up to date
  --help`

function options() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      corpus: { type: 'string', default: 'practice' },
      app: { type: 'string' },
      build: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const only = values.only === undefined ? undefined : Number(values.only)
  if (only !== undefined && (!Number.isInteger(only) || only < 1)) {
    console.error(`--only must be a whole number of at least 1\n\n${USAGE}`)
    process.exit(2)
  }
  const corpus = values.corpus as string
  if (!['practice', 'real', 'all'].includes(corpus)) {
    console.error(`--corpus must be practice, real or all\n\n${USAGE}`)
    process.exit(2)
  }
  let realTasks: RealAppTask[] = []
  try {
    realTasks = corpus === 'practice' ? [] : selectRealTasks(values.app, only)
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
  return { practice: corpus === 'real' ? 0 : (only ?? PLANNER_CORPUS.length), realTasks, build: values.build }
}

type Json = { data?: unknown; message?: string; total?: number }

function client(base: string) {
  return async function api<T = Json>(
    route: string,
    init: { method?: string; body?: unknown; token?: string; ip?: string } = {},
  ): Promise<T> {
    const response = await fetch(`${base}${route}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        origin: base,
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.ip ? { 'x-forwarded-for': init.ip } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(180_000),
    })
    const json = (await response.json().catch(() => ({}))) as Json
    if (!response.ok) throw new Error(`${init.method ?? 'POST'} ${route}: ${response.status} ${json.message ?? ''}`)
    return json as T
  }
}

interface Outcome {
  task: number
  planner: Planner
  ms: number
  steps: number
  notes: string[]
  automationId: string | null
  runs: Partial<Record<Design, { status: string; repairs: number; modelRepairs: number; error: string | null }>>
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 1000) / 10} %` : '–')
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null
}

async function main(): Promise<number> {
  const opts = options()
  const corpus = PLANNER_CORPUS.slice(0, opts.practice)
  await ensureBuild(ROOT, { force: opts.build })

  const sites = await startPracticeSites()
  cleanups.push(() => sites.close())
  const model = await startFakeChatCompletions()
  cleanups.push(() => model.close())
  // The scripted model answers each task with its own script, step by step. Asked to repair a step
  // (when a target's other ways and similar words found nothing), it reads the question as a model
  // would: the step's ways and the page's elements, nothing of the task.
  let scripted: (request: RecordedChatRequest) => object = scriptedPlanner([])
  model.respondWith({
    reply: (request) =>
      request.body.response_format?.json_schema?.name === 'repaired_element' ? repairFromQuestion(request) : scripted(request),
  })

  const admin = { email: 'admin@bench.test', password: `admin-${randomBytes(9).toString('base64url')}` }
  const member = { email: 'member@bench.test', password: `member-${randomBytes(9).toString('base64url')}` }
  const server = await startServer(ROOT, {
    dataDir: tempDir('aether-bench-planner-'),
    accounts: { admin, member },
    env: {
      RUN_ALLOW_PRIVATE_TARGETS: 'loopback',
      RUN_CONCURRENCY: '2',
      AI_BASE_URL: model.baseUrl,
      AI_MODEL: 'scripted',
      TRUST_PROXY: 'true',
    },
  })
  const api = client(server.base)
  const adminToken = (await api<{ data: { token: string } }>('/api/auth/login', { body: admin })).data.token
  const settings = (await api<{ data: Record<string, unknown> }>('/api/settings', { token: adminToken })).data
  await api('/api/settings', { method: 'PUT', body: { ...settings, apiRateLimit: 10_000 }, token: adminToken })

  // Planning is limited per member (20 plans in 10 minutes, 30 model calls a minute), and a member
  // whose address is not verified runs at most 5 automations a month in the cloud: each task gets
  // a member of its own on Business for each planner, whose plan runs on the three designs.
  const members: string[] = []
  for (let i = 0; i < corpus.length * PLANNERS.length; i++) {
    const account = { email: `planner-${i}@bench.test`, password: `bench-${randomBytes(9).toString('base64url')}` }
    const ip = `198.51.${100 + Math.floor(i / 200)}.${10 + (i % 200)}`
    const registered = await api<{ data: { user: { id: string } } }>('/api/auth/register', { body: account, ip })
    await api(`/api/users/${registered.data.user.id}`, { method: 'PUT', body: { plan: 'business', credits: 100_000 }, token: adminToken })
    members.push((await api<{ data: { token: string } }>('/api/auth/login', { body: account, ip })).data.token)
  }
  const tokenFor = (task: number, planner: Planner) => members[task * PLANNERS.length + PLANNERS.indexOf(planner)] as string
  const realMembers = new Map<string, string>()
  for (const [i, task] of opts.realTasks.entries()) {
    const account = { email: `real-${i}@bench.test`, password: `bench-${randomBytes(9).toString('base64url')}` }
    const ip = `203.0.${113 + Math.floor(i / 200)}.${10 + (i % 200)}`
    const registered = await api<{ data: { user: { id: string } } }>('/api/auth/register', { body: account, ip })
    await api(`/api/users/${registered.data.user.id}`, { method: 'PUT', body: { plan: 'business', credits: 100_000 }, token: adminToken })
    realMembers.set(task.id, (await api<{ data: { token: string } }>('/api/auth/login', { body: account, ip })).data.token)
  }
  let realOk = true
  if (opts.realTasks.length) {
    realOk = await benchRealApps({
      api,
      tasks: opts.realTasks,
      tokenFor: (task) => realMembers.get(task.id) as string,
      script: (reply) => (scripted = reply),
    })
  }
  if (!corpus.length) return realOk ? 0 : 1

  console.log(`planning ${corpus.length} tasks with each planner…`)
  const outcomes: Outcome[] = []
  for (const planner of PLANNERS) {
    for (const [index, task] of corpus.entries()) {
      const token = tokenFor(index, planner)
      scripted = scriptedPlanner(task.model)
      const startUrl = `${sites.url}${task.start}`
      const started = performance.now()
      const plan = (
        await api<{ data: { steps: unknown[]; notes: string[] } }>('/api/automations/plan', {
          body: { description: task.description, startUrl, planner },
          token,
        })
      ).data
      const ms = performance.now() - started
      const outcome: Outcome = { task: index + 1, planner, ms, steps: plan.steps.length, notes: plan.notes, automationId: null, runs: {} }
      if (plan.steps.length > 0) {
        const saved = await api<{ data: { id: string } }>('/api/automations', {
          body: { name: `${planner} ${index + 1}`, steps: plan.steps },
          token,
        })
        outcome.automationId = saved.data.id
      }
      outcomes.push(outcome)
      process.stdout.write('.')
    }
  }
  console.log()

  for (const design of ['original', 'redesigned', 'reworded'] as const) {
    sites.redesign(design)
    console.log(`running every plan on the ${design} design…`)
    await runAll(api, outcomes, (outcome) => tokenFor(outcome.task - 1, outcome.planner), design)
  }

  report(corpus, outcomes)
  const offline = outcomes.filter((outcome) => outcome.planner === 'offline')
  const runnable = offline.filter(runsFirstTime).length / offline.length
  const green = outcomes.filter(runsFirstTime)
  const repaired = green.filter((outcome) => outcome.runs.redesigned?.status === 'succeeded').length / Math.max(1, green.length)
  const ok = runnable >= TARGETS.runnableOffline && repaired >= TARGETS.repaired
  const byModel = green.filter((outcome) => repairedByModel(outcome, 'redesigned')).length
  console.log(
    `\ntargets: offline runnable first time ${percent(runnable, 1)} (>= 80 %: ${runnable >= TARGETS.runnableOffline ? 'ok' : 'MISS'}); redesigns survived ${percent(repaired, 1)} (>= 90 %: ${repaired >= TARGETS.repaired ? 'ok' : 'MISS'})`,
  )
  console.log(`redesigned-site runs repaired with the model path: ${byModel} of ${green.length} (${percent(byModel, green.length)})`)
  return ok && realOk ? 0 : 1
}

/** A plan that used the whole sentence and whose run on the original design succeeded. */
const runsFirstTime = (outcome: Outcome) =>
  outcome.notes.every((note) => note.startsWith('Planned offline')) && outcome.runs.original?.status === 'succeeded'

/** A run on this design that succeeded with at least one step repaired by the AI model. */
const repairedByModel = (outcome: Outcome, design: Design) =>
  outcome.runs[design]?.status === 'succeeded' && (outcome.runs[design]?.modelRepairs ?? 0) > 0

/** Runs every saved plan in the cloud (two at a time on the server) and records how each ended. */
async function runAll(api: ReturnType<typeof client>, outcomes: Outcome[], tokenOf: (outcome: Outcome) => string, design: Design) {
  const started: { outcome: Outcome; runId: string; token: string }[] = []
  for (const outcome of outcomes) {
    if (!outcome.automationId) continue
    // Only what ran green on the original is tried on the redesigns.
    if (design !== 'original' && !runsFirstTime(outcome)) continue
    const token = tokenOf(outcome)
    const run = await api<{ data: { id: string } }>(`/api/automations/${outcome.automationId}/runs`, { body: { where: 'cloud' }, token })
    started.push({ outcome, runId: run.data.id, token })
  }
  const deadline = Date.now() + 30 * 60_000
  for (const entry of started) {
    for (;;) {
      const run = (
        await api<{ data: { status: string; repairs: { how: string }[]; error: string | null } }>(`/api/runs/${entry.runId}`, {
          token: entry.token,
        })
      ).data
      if (['succeeded', 'failed', 'cancelled'].includes(run.status)) {
        entry.outcome.runs[design] = {
          status: run.status,
          repairs: run.repairs.length,
          modelRepairs: run.repairs.filter((repair) => repair.how === 'model').length,
          error: run.error,
        }
        break
      }
      if (Date.now() > deadline) throw new Error('the runs did not finish within 30 minutes')
      await sleep(250)
    }
  }
}

function report(corpus: CorpusTask[], outcomes: Outcome[]) {
  console.log('\nPer task (✓ ran green; rN: N repaired steps, an m for each by the model; ✗ failed; – not run; n: notes)')
  table(
    ['task', 'offline', 'model', 'description'],
    corpus.map((task, index) => {
      const cell = (planner: Planner) => {
        const outcome = outcomes.find((entry) => entry.task === index + 1 && entry.planner === planner)
        if (!outcome) return '–'
        const mark = (design: Design) => {
          const run = outcome.runs[design]
          if (!run) return '–'
          if (run.status !== 'succeeded') return '✗'
          return run.repairs ? `r${run.repairs}${'m'.repeat(run.modelRepairs)}` : '✓'
        }
        const notes = outcome.notes.filter((note) => !note.startsWith('Planned offline')).length
        return `${mark('original')} ${mark('redesigned')} ${mark('reworded')}${notes ? ` n${notes}` : ''}`
      }
      return [String(index + 1), cell('offline'), cell('model'), task.description.slice(0, 70)]
    }),
  )
  console.log('\nSummary')
  table(
    [
      'planner',
      'tasks',
      'runnable first time',
      'redesign survived',
      'reworded survived',
      'redesign repaired by model',
      'repairs used (by model)',
      'plan ms (median)',
      'plan ms (max)',
    ],
    PLANNERS.map((planner) => {
      const mine = outcomes.filter((outcome) => outcome.planner === planner)
      const green = mine.filter(runsFirstTime)
      const survived = (design: Design) => green.filter((outcome) => outcome.runs[design]?.status === 'succeeded').length
      const count = (key: 'repairs' | 'modelRepairs') =>
        green.reduce((sum, outcome) => sum + (outcome.runs.redesigned?.[key] ?? 0) + (outcome.runs.reworded?.[key] ?? 0), 0)
      const byModel = green.filter((outcome) => repairedByModel(outcome, 'redesigned')).length
      const times = mine.map((outcome) => outcome.ms)
      return [
        planner,
        String(mine.length),
        percent(green.length, mine.length),
        percent(survived('redesigned'), green.length),
        percent(survived('reworded'), green.length),
        `${percent(byModel, green.length)} (${byModel})`,
        `${count('repairs')} (${count('modelRepairs')})`,
        String(Math.round(median(times) ?? 0)),
        String(Math.round(Math.max(...times))),
      ]
    }),
  )
  const failures = outcomes.filter((outcome) => !runsFirstTime(outcome))
  if (failures.length) {
    console.log('\nNot runnable first time:')
    for (const outcome of failures) {
      console.log(`  ${outcome.planner} #${outcome.task}: ${outcome.runs.original?.error ?? outcome.notes.join(' | ') ?? 'no steps'}`)
    }
  }
}

await runBenchmark('bench:planner', main)
