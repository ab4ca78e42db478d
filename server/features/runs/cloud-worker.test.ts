import { eq, inArray } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createCloudWorker, newWorkerId, type CloudWorkerConfig } from './cloud-worker.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { personalCaller } from '#server/testing/callers.ts'
import type { Caller } from '#common/auth.ts'

const logger = pino({ level: 'silent' })

let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let caller: Caller
beforeAll(async () => {
  t = await createTestApp()
  site = await startTestSite()
  const member = await t.signUp()
  caller = personalCaller(member)
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await site?.close()
  await t?.close()
})

/** The test page is on 127.0.0.1: these tests allow loopback. */
const CONFIG: CloudWorkerConfig = {
  concurrency: 2,
  chromiumPath: '/usr/bin/chromium',
  stepTimeoutMs: 5_000,
  timeLimitMs: 60_000,
  maxActions: 1000,
  privateTargets: 'loopback',
  heartbeatMs: 200,
  pollMs: 100,
}

const worker = (config: Partial<CloudWorkerConfig> = {}) =>
  createCloudWorker({
    runQueue: t.services.runQueue,
    runFiles: t.services.runFiles,
    events: t.services.events,
    logger,
    config: { ...CONFIG, ...config },
  })

async function queue(steps: AutomationStep[], count: number): Promise<string[]> {
  const automation = await t.services.automations.create(caller, { name: 'Form', description: '', steps, schedule: null, enabled: true })
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })).id)
  return ids
}

const runsById = (ids: string[]) => t.db.select().from(automationRuns).where(inArray(automationRuns.id, ids))

async function until(check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('condition not met in time')
}

const FORM: AutomationStep[] = [
  { type: 'navigate', url: 'SITE/form' },
  { type: 'type', target: [{ by: 'css', selector: '#name' }], text: 'Grace' },
  { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
  { type: 'wait', target: [{ by: 'css', selector: '#result' }] },
  { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
]
const withSite = (steps: AutomationStep[]) =>
  steps.map((step) => (step.type === 'navigate' ? { ...step, url: step.url.replace('SITE', site.url) } : step))

describe('cloud worker', () => {
  it('has a worker id of host, process and a random part', () => {
    expect(newWorkerId()).toMatch(new RegExp(`^.+:${process.pid}:[0-9a-f]{6}$`))
    expect(newWorkerId()).not.toBe(newWorkerId())
  })

  it('executes queued runs, two at a time, each once', { timeout: 90_000 }, async () => {
    const ids = await queue(withSite(FORM), 4)
    const cloud = worker()
    cloud.start()
    try {
      await until(async () => (await runsById(ids)).every((run) => run.status === 'succeeded'), 85_000)
    } finally {
      await cloud.stop(5_000)
    }
    for (const run of await runsById(ids)) {
      expect(run).toMatchObject({ attempts: 1, workerId: cloud.workerId, actionsPerformed: 5, refundedAt: null })
      expect(run.extracted).toEqual([{ result: 'Thanks, Grace (free)' }])
    }
  })

  it('fails runs at once, refunded, when Chromium is missing (they never hang)', async () => {
    const before = (await t.db.select().from(workspaces).where(eq(workspaces.id, caller.workspace.id)))[0]?.credits ?? 0
    const ids = await queue(withSite(FORM), 2)
    const cloud = worker({ chromiumPath: '/nonexistent/chromium' })
    cloud.start()
    try {
      await until(async () => (await runsById(ids)).every((run) => run.status === 'failed'), 10_000)
    } finally {
      await cloud.stop(1_000)
    }
    for (const run of await runsById(ids)) {
      expect(run.error).toContain('Chromium was not found at /nonexistent/chromium')
      expect(run.refundedAt).not.toBeNull()
    }
    expect((await t.db.select().from(workspaces).where(eq(workspaces.id, caller.workspace.id)))[0]?.credits).toBe(before)
  })

  it('on shutdown gives a run that does not finish within the grace period back to the queue', async () => {
    const [long] = await queue(
      withSite([
        { type: 'navigate', url: 'SITE/form' },
        { type: 'wait', ms: 60_000 },
      ]),
      1,
    )
    const cloud = worker({ concurrency: 1 })
    cloud.start()
    await until(async () => (await runsById([long ?? '']))[0]?.actionsPerformed === 1)
    await cloud.stop(300)
    const [run] = await runsById([long ?? ''])
    expect(run).toMatchObject({ status: 'queued', workerId: null, attempts: 0 })
    expect(run?.log.at(-1)?.message).toBe('The server running this was shutting down. It is queued again.')
    await t.services.runs.cancel(long ?? '', caller)
  })
})
