// The real-app part of `npm run bench:planner` (issue 28): plans each task of the real-app corpus
// (server/testing/real-apps/corpus) on the app's build through POST /api/automations/plan, with
// the offline planner and with the scripted model; runs the plan in the cloud with the task's own
// read-only check steps after it (never shown to the planner) and judges the outcome: what the run
// extracted and what the app's backend holds. A plan that did its task is then moved: its steps,
// their addresses pointed at another build of the same app, run and judged again (a green run with
// repaired steps counted apart). The apps run side by side, each app's runs one after another (their
// backends are reset before each run).
import { setTimeout as sleep } from 'node:timers/promises'
import type { AutomationStep } from '../../common/automation-steps.ts'
import { REAL_APP_CORPUS, type RealAppTask } from '../../server/testing/real-apps/corpus/index.ts'
import { REAL_APP_BUILDS, REAL_APP_NAMES, startRealApps, type RealAppName, type RealApps } from '../../server/testing/real-apps/index.ts'
import type { RecordedChatRequest } from '../../server/testing/fake-chat-completions.ts'
import { promptOf, scriptedPlanner } from '../../server/testing/scripted-model.ts'
import { table } from './table.mjs'

type Api = <T>(route: string, init?: { method?: string; body?: unknown; token?: string }) => Promise<T>
export const REAL_PLANNERS = ['offline', 'model'] as const
type Planner = (typeof REAL_PLANNERS)[number]

interface RunResult {
  status: string
  repairs: number
  why: string | null
}
interface Outcome {
  task: RealAppTask
  planner: Planner
  steps: number
  notes: string[]
  first: RunResult | null
  moved: RunResult | null
}

export interface RealAppBenchContext {
  api: Api
  /** A member's token for the task (each task its own: plans are limited per member). */
  tokenFor: (task: RealAppTask) => string
  /** Sets what the scripted model answers to a planning question (the repair questions are the caller's). */
  script: (reply: (request: RecordedChatRequest) => object) => void
}

/**
 * The scripted model for tasks planned side by side: each question is answered from the script of
 * the task its prompt names (a fresh script for each plan).
 */
function scriptsByTask() {
  const scripts = new Map<string, ReturnType<typeof scriptedPlanner>>()
  return {
    begin: (task: RealAppTask) => scripts.set(task.description, scriptedPlanner(task.model)),
    reply(request: RecordedChatRequest): object {
      const prompt = promptOf(request)
      const found = [...scripts.entries()].find(([description]) => prompt.includes(description.slice(0, 30)))
      return found ? found[1](request) : { thought: 'No task I know.', done: true, step: null }
    },
  }
}

export function selectRealTasks(app: string | undefined, only: number | undefined): RealAppTask[] {
  if (app && !(REAL_APP_NAMES as readonly string[]).includes(app)) throw new Error(`--app must be one of ${REAL_APP_NAMES.join(', ')}`)
  const tasks = REAL_APP_CORPUS.filter((task) => !app || task.app === app)
  return only ? tasks.slice(0, only) : tasks
}

const startOf = (apps: RealApps, task: RealAppTask, build = task.build) => `${apps.url(task.app, build)}${task.path ?? ''}`

/** The plan's steps on another build: every address of the first build's pages points at the other's. */
function moveSteps(apps: RealApps, task: RealAppTask, steps: AutomationStep[]): AutomationStep[] {
  const from = apps.url(task.app, task.build)
  const to = apps.url(task.app, task.movedTo)
  return steps.map((step) =>
    step.type === 'navigate' && step.url.startsWith(from) ? { ...step, url: to + step.url.slice(from.length) } : step,
  )
}

const fieldsOf = (rows: Record<string, string | null>[]) => {
  const fields: Record<string, string[]> = {}
  for (const row of rows) for (const [name, value] of Object.entries(row)) if (value !== null) (fields[name] ??= []).push(value)
  return fields
}

/** Runs these steps and the task's check after them, and judges what the run did. */
async function runAndJudge(context: RealAppBenchContext, apps: RealApps, task: RealAppTask, steps: AutomationStep[], name: string) {
  const token = context.tokenFor(task)
  await apps.reset(task.app)
  const saved = await context.api<{ data: { id: string } }>('/api/automations', {
    body: { name, steps: [...steps, ...(task.check.after ?? [])] },
    token,
  })
  const started = await context.api<{ data: { id: string } }>(`/api/automations/${saved.data.id}/runs`, { body: { where: 'cloud' }, token })
  const deadline = Date.now() + 5 * 60_000
  for (;;) {
    type Run = { status: string; error: string | null; repairs: unknown[]; extracted: Record<string, string | null>[] }
    const run = (await context.api<{ data: Run }>(`/api/runs/${started.data.id}`, { token })).data
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) {
      const why = run.status === 'succeeded' ? await task.check.judge({ fields: fieldsOf(run.extracted), apps }) : run.error
      return { status: run.status === 'succeeded' && !why ? 'green' : 'not done', repairs: run.repairs.length, why } satisfies RunResult
    }
    if (Date.now() > deadline) return { status: 'not done', repairs: 0, why: 'the run did not finish in 5 minutes' } satisfies RunResult
    await sleep(300)
  }
}

/** Plans, runs and moves every task of one app, one after another. */
async function benchApp(
  context: RealAppBenchContext,
  scripts: ReturnType<typeof scriptsByTask>,
  apps: RealApps,
  tasks: RealAppTask[],
  planners: readonly Planner[],
  outcomes: Outcome[],
) {
  for (const task of tasks) {
    for (const planner of planners) {
      if (planner === 'model') scripts.begin(task)
      // Planned on the app as a member finds it, not as the last task's run left it (an emptied mailbox).
      await apps.reset(task.app)
      // A plan the server could not make (it took too long, the page broke) is a task not done.
      const plan = await context
        .api<{ data: { steps: AutomationStep[]; notes: string[] } }>('/api/automations/plan', {
          body: { description: task.description, startUrl: startOf(apps, task), planner },
          token: context.tokenFor(task),
        })
        .then(
          (answer) => answer.data,
          (error: unknown) => ({ steps: [] as AutomationStep[], notes: [`planning failed: ${(error as Error).message}`] }),
        )
      const outcome: Outcome = { task, planner, steps: plan.steps.length, notes: plan.notes, first: null, moved: null }
      outcomes.push(outcome)
      if (plan.steps.length === 0) {
        outcome.first = { status: 'not done', repairs: 0, why: `no steps: ${plan.notes.join(' | ')}` }
        console.log(`${task.id} ${planner}: not done: no steps`)
        continue
      }
      outcome.first = await runAndJudge(context, apps, task, plan.steps, `${planner} ${task.id}`)
      if (outcome.first.status === 'green' && task.movedTo) {
        outcome.moved = await runAndJudge(
          context,
          apps,
          task,
          moveSteps(apps, task, plan.steps),
          `${planner} ${task.id} on ${task.movedTo}`,
        )
      }
      const said = (run: RunResult | null) =>
        !run
          ? '–'
          : run.status === 'green'
            ? `green${run.repairs ? ` (${run.repairs} repaired)` : ''}`
            : `not done: ${(run.why ?? '').slice(0, 160)}`
      console.log(
        `${task.id} ${planner}: ${said(outcome.first)}${task.movedTo && outcome.first.status === 'green' ? `; moved to ${task.movedTo}: ${said(outcome.moved)}` : ''}`,
      )
    }
  }
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 1000) / 10} %` : '–')

/** Runs the real-app corpus; true when the targets are met (offline first-time green ≥ 90 %, moved ≥ 90 %). */
export async function benchRealApps(
  context: RealAppBenchContext & { tasks: RealAppTask[]; planners?: readonly Planner[] },
): Promise<boolean> {
  const apps = await startRealApps({ maildev: context.tasks.some((task) => task.app === 'maildev') })
  const started = performance.now()
  const outcomes: Outcome[] = []
  const scripts = scriptsByTask()
  context.script((request) => scripts.reply(request))
  try {
    console.log(`real apps: planning and running ${context.tasks.length} tasks with each planner…`)
    // The apps side by side; the server plans three and runs two at a time.
    await Promise.all(
      REAL_APP_NAMES.map((app) =>
        benchApp(
          context,
          scripts,
          apps,
          context.tasks.filter((task) => task.app === app),
          context.planners ?? REAL_PLANNERS,
          outcomes,
        ),
      ),
    )
  } finally {
    await apps.close()
  }
  console.log(`\nreal apps took ${Math.round((performance.now() - started) / 1000)} s`)
  return reportRealApps(outcomes)
}

function reportRealApps(outcomes: Outcome[]): boolean {
  const mark = (run: RunResult | null) => (!run ? '–' : run.status === 'green' ? (run.repairs ? `r${run.repairs}` : '✓') : '✗')
  console.log('\nPer task (first run, then moved to another build; ✓ did the task, rN with N repaired steps, ✗ did not, – not run)')
  const tasks = [...new Set(outcomes.map((outcome) => outcome.task))]
  table(
    ['task', 'offline', 'model', 'moved to'],
    tasks.map((task) => {
      const cell = (planner: Planner) => {
        const outcome = outcomes.find((entry) => entry.task === task && entry.planner === planner)
        return outcome ? `${mark(outcome.first)} ${mark(outcome.moved)}` : '–'
      }
      return [task.id, cell('offline'), cell('model'), task.movedTo ?? '–']
    }),
  )
  console.log('\nPer app')
  const rows: string[][] = []
  let offlineGreen = 0
  let offlineAll = 0
  let movedGreen = 0
  let movedAll = 0
  for (const app of REAL_APP_NAMES) {
    const mine = outcomes.filter((outcome) => outcome.task.app === app)
    if (!mine.length) continue
    const row = [app, `${REAL_APP_BUILDS[app].length}`, String(mine.length / 2)]
    for (const planner of REAL_PLANNERS) {
      const theirs = mine.filter((outcome) => outcome.planner === planner)
      const green = theirs.filter((outcome) => outcome.first?.status === 'green')
      const moved = green.filter((outcome) => outcome.moved)
      const movedOk = moved.filter((outcome) => outcome.moved?.status === 'green')
      const repaired = movedOk.filter((outcome) => (outcome.moved?.repairs ?? 0) > 0)
      row.push(`${percent(green.length, theirs.length)} (${green.length}/${theirs.length})`)
      row.push(
        moved.length ? `${percent(movedOk.length, moved.length)} (${movedOk.length}/${moved.length}, ${repaired.length} repaired)` : '–',
      )
      if (planner === 'offline') {
        offlineGreen += green.length
        offlineAll += theirs.length
      }
      movedGreen += movedOk.length
      movedAll += moved.length
    }
    rows.push(row)
  }
  table(['app', 'builds', 'tasks', 'offline first-time green', 'offline moved green', 'model first-time green', 'model moved green'], rows)
  const failures = outcomes.filter((outcome) => outcome.first?.status !== 'green' || (outcome.moved && outcome.moved.status !== 'green'))
  if (failures.length) {
    console.log('\nNot done:')
    for (const outcome of failures) {
      const run = outcome.first?.status !== 'green' ? outcome.first : outcome.moved
      const where = outcome.first?.status !== 'green' ? 'first' : `moved to ${outcome.task.movedTo}`
      console.log(`  ${outcome.planner} ${outcome.task.id} (${where}): ${(run?.why ?? '').slice(0, 300)}`)
    }
  }
  const offline = offlineGreen / Math.max(1, offlineAll)
  const moved = movedGreen / Math.max(1, movedAll)
  console.log(
    `\nreal-app targets: offline first-time green ${percent(offlineGreen, offlineAll)} (>= 90 %: ${offline >= 0.9 ? 'ok' : 'MISS'}); moved steps green ${percent(movedGreen, movedAll)} (>= 90 %: ${moved >= 0.9 ? 'ok' : 'MISS'})`,
  )
  return offline >= 0.9 && moved >= 0.9
}

export type { RealAppName }
