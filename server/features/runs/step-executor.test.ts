import { createSocket } from 'node:dgram'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createSharedBrowser, type BrowserSource } from '#server/browser/shared-browser.ts'
import type { Run } from './run.service.ts'
import { createStepExecutor, type ExecutorConfig } from './step-executor.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { personalCaller } from '#server/testing/callers.ts'
import type { Caller } from '#common/auth.ts'

const WORKER = 'test-host:1:abc123'
const logger = pino({ level: 'silent' })

let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let caller: Caller
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })

beforeAll(async () => {
  t = await createTestApp()
  // A redirect and an image that lead from the (allowed) loopback page to a private network.
  site = await startTestSite({ redirectTo: 'http://10.255.0.1/secret', imageFrom: 'http://192.168.77.1/pixel.png' })
  const member = await t.signUp()
  caller = personalCaller(member)
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
})

/** The test page is on 127.0.0.1: these tests (and only they) allow loopback. */
const CONFIG: ExecutorConfig = {
  stepTimeoutMs: 5_000,
  timeLimitMs: 60_000,
  maxActions: 1000,
  privateTargets: 'loopback',
  heartbeatMs: 200,
}

function executor(config: Partial<ExecutorConfig> = {}, source: BrowserSource = browsers) {
  return createStepExecutor({
    reporting: t.services.runQueue,
    runFiles: t.services.runFiles,
    browsers: source,
    logger,
    config: { ...CONFIG, ...config },
  })
}

/** Queues a cloud run of these steps and claims it as the worker would. */
async function claimRun(steps: AutomationStep[]): Promise<Run> {
  const automation = await t.services.automations.create(caller, { name: 'Form', description: '', steps, schedule: null, enabled: true })
  const queued = await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })
  const claimed = await t.services.runQueue.claim(WORKER)
  expect(claimed?.id).toBe(queued.id)
  return claimed as Run
}

async function credits() {
  const [row] = await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, caller.id))
  return row?.credits
}

const reload = (run: Run) => t.services.runs.get(run.id, caller)
const messages = (run: Run) => run.log.map((line) => line.message)

describe('step executor', () => {
  it('fills the form, submits, waits for the result, extracts it, takes a screenshot and checks the text', async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'css', selector: '#name' }], text: 'Ada' },
      { type: 'select', target: [{ by: 'css', selector: '#plan' }], value: 'pro' },
      { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
      { type: 'wait', target: [{ by: 'css', selector: '#result' }] },
      { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
      { type: 'extract', target: [{ by: 'css', selector: '.item a' }], field: 'link', attribute: 'href' },
      { type: 'screenshot', name: 'After submit' },
      { type: 'assertText', target: [{ by: 'css', selector: '#result' }], text: 'Thanks, Ada' },
      { type: 'assertText', text: 'Beta' },
      { type: 'wait', ms: 10 },
    ])
    const before = await credits()
    expect(await executor().execute(claimed, WORKER)).toBe('succeeded')

    const run = await reload(claimed)
    expect(run).toMatchObject({ status: 'succeeded', actionsPerformed: 11, error: null, refundedAt: null, workerId: WORKER, attempts: 1 })
    expect(run.extracted).toEqual([
      { result: 'Thanks, Ada (pro)', link: `${site.url}/alpha` },
      { result: null, link: `${site.url}/beta` },
    ])
    expect(messages(run)).toContain(`Step 1 (navigate): ${site.url}/form`)
    expect(messages(run)).toContain('Step 4 (click): Element “submit” (found by the page’s structure)')
    expect(messages(run)).toContain('Step 7 (extract): 2 values for "link".')
    expect(messages(run).at(-1)).toMatch(/^Finished: 11 steps in [\d.]+ s\.$/)

    expect(run.screenshots).toEqual([{ name: 'After submit', file: 'step-8-1.png', step: 8 }])
    const png = readFileSync(path.join(t.dataDir, 'runs', run.id, 'step-8-1.png'))
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(png.length).toBeGreaterThan(1000)
    expect(await credits()).toBe(before)
  })

  it('fails the run at a selector that never matches, naming the step, without a refund', async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'css', selector: '#name' }], text: 'Ada' },
      { type: 'click', target: [{ by: 'css', selector: '#missing' }] },
      { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
    ])
    expect(await executor({ stepTimeoutMs: 2_000 }).execute(claimed, WORKER)).toBe('failed')
    const run = await reload(claimed)
    expect(run).toMatchObject({
      status: 'failed',
      error: 'Step 3 (click): no element matches Element “missing” (found by the page’s structure) within 2 s',
      actionsPerformed: 2,
      refundedAt: null,
    })
    expect(run.log.at(-1)).toMatchObject({
      level: 'error',
      message: 'Step 3 (click): no element matches Element “missing” (found by the page’s structure) within 2 s',
    })
    // A picture of the page as it was, to see why.
    expect(run.screenshots).toEqual([{ name: 'At failure', file: 'step-3-1.png', step: 3 }])
  })

  it('fails an assertion that does not hold, saying what the element reads', async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'assertText', target: [{ by: 'css', selector: 'li.item' }], text: 'Gamma' },
    ])
    expect(await executor({ stepTimeoutMs: 1_500 }).execute(claimed, WORKER)).toBe('failed')
    expect((await reload(claimed)).error).toBe(
      'Step 2 (assertText): List item (found by the page’s structure) does not contain "Gamma" (it reads "Alpha")',
    )
  })

  it('refuses a private first address without starting a browser', async () => {
    const claimed = await claimRun([{ type: 'navigate', url: `${site.url}/form` }])
    let launches = 0
    const counting = {
      acquire: () => {
        launches += 1
        return browsers.acquire()
      },
      release: () => browsers.release(),
    }
    expect(await executor({ privateTargets: 'none' }, counting).execute(claimed, WORKER)).toBe('failed')
    expect(launches).toBe(0)
    expect(await reload(claimed)).toMatchObject({
      status: 'failed',
      error: 'Step 1 (navigate): the address 127.0.0.1 is private; cloud runs may only reach public addresses',
      actionsPerformed: 0,
      refundedAt: null,
    })
  })

  it('blocks a redirect and a subresource that lead to a private network, even when loopback is allowed', async () => {
    const redirected = await claimRun([{ type: 'navigate', url: `${site.url}/redirect` }])
    expect(await executor().execute(redirected, WORKER)).toBe('failed')
    const run = await reload(redirected)
    expect(run.error).toBe(
      'Step 1 (navigate): the page led to http://10.255.0.1/secret: the address 10.255.0.1 is private; cloud runs may only reach public and loopback addresses',
    )

    const pixel = await claimRun([
      { type: 'navigate', url: `${site.url}/pixel` },
      { type: 'assertText', text: 'Ready' },
    ])
    expect(await executor().execute(pixel, WORKER)).toBe('succeeded')
    expect(messages(await reload(pixel))).toContain(
      'Blocked a request to http://192.168.77.1/pixel.png: the address 192.168.77.1 is private; cloud runs may only reach public and loopback addresses.',
    )
  })

  it('sends no WebRTC traffic past the guard proxy: no UDP leaves the browser, not even to an allowed address', async () => {
    // Without the browser's policy (CHROMIUM_ARGS), the page's STUN and TURN requests reach this listener.
    const udp = createSocket('udp4')
    let packets = 0
    udp.on('message', () => packets++)
    udp.bind(0, '127.0.0.1')
    await once(udp, 'listening')
    try {
      const claimed = await claimRun([
        { type: 'navigate', url: `${site.url}/webrtc?port=${udp.address().port}` },
        { type: 'wait', ms: 1500 },
        { type: 'assertText', target: [{ by: 'css', selector: '#state' }], text: 'gathered' },
      ])
      const outcome = await executor().execute(claimed, WORKER)
      expect({ outcome, packets, error: (await reload(claimed)).error }).toEqual({ outcome: 'succeeded', packets: 0, error: null })
    } finally {
      udp.close()
    }
  })

  it('stops at once when the member cancels the run, keeping its charge', async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'wait', target: [{ by: 'css', selector: '#never-appears' }] },
      { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
    ])
    const before = await credits()
    const started = Date.now()
    const execution = executor({ stepTimeoutMs: 30_000 }).execute(claimed, WORKER)
    await waitFor(async () => (await reload(claimed)).actionsPerformed === 1)
    await t.services.runs.cancel(claimed.id, caller)
    expect(await execution).toBe('stopped')
    expect(Date.now() - started).toBeLessThan(10_000)
    const run = await reload(claimed)
    expect(run).toMatchObject({ status: 'cancelled', actionsPerformed: 1, refundedAt: null })
    expect(await credits()).toBe(before)
  })

  it("fails a run that reaches the run's time limit, without a refund", async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'wait', ms: 30_000 },
    ])
    expect(await executor({ timeLimitMs: 4_000 }).execute(claimed, WORKER)).toBe('failed')
    expect(await reload(claimed)).toMatchObject({
      status: 'failed',
      error: "Step 2 (wait): the run's time limit of 4 s was reached",
      refundedAt: null,
    })
  })

  it("fails a run over the worker's action limit", async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'wait', ms: 1 },
      { type: 'wait', ms: 1 },
    ])
    expect(await executor({ maxActions: 2 }).execute(claimed, WORKER)).toBe('failed')
    expect((await reload(claimed)).error).toBe("Step 3 (wait): the run's action limit of 2 was reached")
  })

  it('refunds the run when the browser cannot start', async () => {
    const claimed = await claimRun([{ type: 'navigate', url: `${site.url}/form` }])
    const before = await credits()
    const missing = createSharedBrowser({ executablePath: '/nonexistent/chromium', logger })
    expect(await executor({}, missing).execute(claimed, WORKER)).toBe('failed')
    const run = await reload(claimed)
    expect(run.status).toBe('failed')
    expect(run.error).toBe('The cloud browser could not start (Chromium was not found at /nonexistent/chromium); the credit was refunded.')
    expect(run.refundedAt).not.toBeNull()
    expect(await credits()).toBe((before ?? 0) + 1)
  })

  it('gives up quietly when told to stop (shutdown), leaving the run to the caller', async () => {
    const claimed = await claimRun([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'wait', ms: 30_000 },
    ])
    const abort = new AbortController()
    const execution = executor().execute(claimed, WORKER, abort.signal)
    await waitFor(async () => (await reload(claimed)).actionsPerformed === 1)
    abort.abort()
    expect(await execution).toBe('aborted')
    expect((await reload(claimed)).status).toBe('running')
    expect(await t.services.runQueue.release(claimed.id, WORKER, 'The server was shutting down.')).toBe(true)
    expect(await reload(claimed)).toMatchObject({ status: 'queued', workerId: null, attempts: 0 })
    // Another worker takes it up from the start.
    const again = await t.services.runQueue.claim('other-worker')
    expect(again).toMatchObject({ id: claimed.id, attempts: 1 })
    await t.services.runs.cancel(claimed.id, caller)
  })
})

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition not met in time')
}
