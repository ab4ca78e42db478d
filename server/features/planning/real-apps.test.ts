import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { createStepExecutor } from '#server/features/runs/step-executor.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { REAL_APP_CI_SUBSET, REAL_APP_CORPUS, realAppTask } from '#server/testing/real-apps/corpus/index.ts'
import { startRealApps, type RealApps } from '#server/testing/real-apps/index.ts'

// The CI subset of the real-app corpus (issue 28): a few tasks over apps written by others
// (TodoMVC, TiddlyWiki, Swagger UI, JSONEditor, MailDev, installed from npm), planned with the
// offline planner through the API, run in the cloud browser with the task's own check steps after
// them, and judged by what the run did (data extracted, state reached). Which tasks: the list
// REAL_APP_CI_SUBSET in server/testing/real-apps/corpus/index.ts. The whole corpus, with the
// model and steps moved to other builds: `npm run bench:planner -- --corpus real`.

const WORKER = 'real-apps-test:1:ci'
const logger = pino({ level: 'silent' })
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })
// REAL_APP_TASKS=todo-add-three,json-change-city (or =all) runs other tasks of the corpus the same way;
// REAL_APP_DEBUG=1 prints each plan's steps.
const chosen = process.env.REAL_APP_TASKS
const tasks = (
  chosen === 'all' ? REAL_APP_CORPUS.map((task) => task.id) : chosen ? chosen.split(',').map((id) => id.trim()) : REAL_APP_CI_SUBSET
).map(realAppTask)

let t: TestApp
let apps: RealApps
type Member = Awaited<ReturnType<TestApp['signUp']>>

/** A member on Business for each task: a member may plan only 20 times in 10 minutes. */
async function newMember(): Promise<Member> {
  const member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 10_000 }).where(eq(workspaces.id, member.id))
  return member
}

beforeAll(async () => {
  ;[t, apps] = await Promise.all([
    createTestApp({ privateTargets: 'loopback' }),
    startRealApps({ maildev: tasks.some((task) => task.app === 'maildev') }),
  ])
}, 120_000)
afterAll(async () => {
  await browsers.close()
  await apps?.close()
  await t?.close()
})

/** Runs these steps in the cloud browser as the worker would, and returns the finished run. */
async function run(caller: Caller, steps: AutomationStep[]) {
  const automation = await t.services.automations.create(caller, {
    name: 'Real app',
    description: '',
    steps,
    schedule: null,
    enabled: true,
  })
  await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })
  const claimed = await t.services.runQueue.claim(WORKER)
  if (!claimed) throw new Error('the run was not queued')
  const executor = createStepExecutor({
    reporting: t.services.runQueue,
    runFiles: t.services.runFiles,
    browsers,
    logger,
    config: { stepTimeoutMs: 15_000, timeLimitMs: 90_000, maxActions: 1000, privateTargets: 'loopback', heartbeatMs: 500 },
  })
  await executor.execute(claimed, WORKER)
  return t.services.runs.get(claimed.id, caller)
}

describe('the offline planner on real apps written by others', () => {
  for (const task of tasks) {
    it(`${task.id}: ${task.description}`, { timeout: 240_000 }, async () => {
      const member = await newMember()
      // Planned on the app as a member finds it, not as the last task's run left it (an emptied mailbox).
      await apps.reset(task.app)
      const response = await t.request('/api/automations/plan', {
        body: { description: task.description, startUrl: `${apps.url(task.app, task.build)}${task.path ?? ''}`, planner: 'offline' },
        token: member.token,
      })
      expect(response.status).toBe(200)
      const plan = ((await response.json()) as { data: { steps: AutomationStep[]; notes: string[] } }).data
      if (process.env.REAL_APP_DEBUG) console.log(JSON.stringify(plan.steps))
      await apps.reset(task.app)
      const done = await run(personalCaller(member), [...plan.steps, ...(task.check.after ?? [])])
      const fields: Record<string, string[]> = {}
      for (const row of done.extracted)
        for (const [name, value] of Object.entries(row)) if (value !== null) (fields[name] ??= []).push(value)
      const why = done.status === 'succeeded' ? await task.check.judge({ fields, apps }) : done.error
      // Why the run did not do the task (null when it did), with the planner's notes beside it.
      expect(why, `planner notes: ${plan.notes.join(' | ') || 'none'}`).toBeNull()
    })
  }
})
