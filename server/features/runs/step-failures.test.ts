import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { AutomationData } from '#common/automations.ts'
import type { Caller } from '#common/auth.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import type { Run } from './run.service.ts'
import { createStepExecutor, type ExecutorConfig } from './step-executor.ts'

// A cloud run's answer to failing steps (docs/decisions/028): a step tried again, skipped or gone
// past, and the limits an automation sets below the platform's, in a real browser.
const WORKER = 'test-host:1:onerror'
const logger = pino({ level: 'silent' })
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })
const CONFIG: ExecutorConfig = { stepTimeoutMs: 1_000, timeLimitMs: 60_000, maxActions: 1000, privateTargets: 'loopback', heartbeatMs: 200 }

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
  await browsers.close()
  await site?.close()
  await t?.close()
})

async function run(steps: AutomationStep[], fields: Partial<AutomationData> = {}): Promise<Run> {
  const automation = await t.services.automations.create(caller, {
    name: 'On error',
    description: '',
    steps,
    schedule: null,
    enabled: true,
    ...fields,
  })
  const queued = await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })
  const claimed = await t.services.runQueue.claim(WORKER)
  expect(claimed?.id).toBe(queued.id)
  const executor = createStepExecutor({ reporting: t.services.runQueue, runFiles: t.services.runFiles, browsers, logger, config: CONFIG })
  await executor.execute(claimed as Run, WORKER)
  return t.services.runs.get(queued.id, caller)
}

const messages = (finished: Run) => finished.log.map((line) => line.message)
const missing: AutomationStep = { type: 'click', target: [{ by: 'css', selector: '#missing' }] }
const extractState: AutomationStep = { type: 'extract', target: [{ by: 'css', selector: '#state' }], field: 'state' }

describe('steps that fail', () => {
  it('a step tried again finds the button that came late, and the run succeeds', async () => {
    const finished = await run([
      // Well after the first try's 1 s, however slowly the page loads on a busy machine; within the retries.
      { type: 'navigate', url: `${site.url}/late?ms=3500` },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Late' }], onError: { retries: 5, delayMs: 500, then: 'fail' } },
      extractState,
    ])
    expect(finished).toMatchObject({ status: 'succeeded', error: null, extracted: [{ state: 'Clicked' }], actionsPerformed: 3 })
    expect(messages(finished).some((line) => /^Step 2 \(click\): .*; trying again in 0\.5 s \(retry 1 of 5\)\.$/.test(line))).toBe(true)
  })

  it("'skip' leaves the step out after its tries; the rest runs and the run succeeds", async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/late?ms=0` },
      { ...missing, onError: { retries: 1, delayMs: 0, then: 'skip' } },
      extractState,
    ])
    expect(finished).toMatchObject({ status: 'succeeded', error: null, extracted: [{ state: 'waiting' }], actionsPerformed: 2 })
    expect(messages(finished)).toContain(
      'Step 2 (click): no element matches Element “missing” (found by the page’s structure) within 1 s; trying again (retry 1 of 1).',
    )
    expect(messages(finished)).toContain(
      'Step 2 (click): no element matches Element “missing” (found by the page’s structure) within 1 s; the step is skipped and the run goes on.',
    )
  })

  it("'continue' runs the steps after it, then fails the run with the step's error and a picture of it", async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/late?ms=0` },
      { ...missing, onError: { retries: 0, delayMs: 0, then: 'continue' } },
      extractState,
    ])
    expect(finished).toMatchObject({
      status: 'failed',
      error: 'Step 2 (click): no element matches Element “missing” (found by the page’s structure) within 1 s (the steps after it ran)',
      extracted: [{ state: 'waiting' }],
      refundedAt: null,
    })
    expect(finished.screenshots).toEqual([{ name: 'Step 2 failed', file: 'step-2-1.png', step: 2 }])
  })

  it("'fail' after its tries fails the run at that step; the steps after it do not run", async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/late?ms=0` },
      { ...missing, onError: { retries: 1, delayMs: 0, then: 'fail' } },
      extractState,
    ])
    expect(finished).toMatchObject({
      status: 'failed',
      error: 'Step 2 (click): no element matches Element “missing” (found by the page’s structure) within 1 s',
      extracted: [],
    })
  })
})

describe("an automation's own run limits", () => {
  it('a lower action limit stops the run there', async () => {
    const finished = await run(
      [
        { type: 'navigate', url: `${site.url}/late?ms=0` },
        { type: 'wait', ms: 1 },
        { type: 'wait', ms: 1 },
      ],
      { runStepLimit: 2 },
    )
    expect(finished).toMatchObject({ status: 'failed', error: "Step 3 (wait): the run's action limit of 2 was reached", stepLimit: 2 })
  })

  it('a lower time limit stops the run when it runs out', async () => {
    // The clock starts with the browser; a single long step keeps a slow start on a busy machine
    // from using the limit up before the step this test is about.
    const finished = await run([{ type: 'wait', ms: 10_000 }], { runTimeLimitSeconds: 4 })
    expect(finished).toMatchObject({
      status: 'failed',
      error: "Step 1 (wait): the run's time limit of 4 s was reached",
      timeLimitSeconds: 4,
    })
  })

  it("limits above the platform's are refused when saved, naming the platform's", async () => {
    await expect(
      t.services.automations.create(caller, {
        name: 'Too long',
        description: '',
        steps: [],
        schedule: null,
        enabled: true,
        runTimeLimitSeconds: 121,
      }),
    ).rejects.toThrow('Runs stop after 120 seconds on this server: the time limit can only be lower.')
    await expect(
      t.services.automations.create(caller, {
        name: 'Too many',
        description: '',
        steps: [],
        schedule: null,
        enabled: true,
        runStepLimit: 1001,
      }),
    ).rejects.toThrow('Runs stop after 1000 actions on this server: the action limit can only be lower.')
  })
})
