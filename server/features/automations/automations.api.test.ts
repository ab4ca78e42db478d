import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { automationRuns, creditLedger, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { personalCaller } from '#server/testing/callers.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Body = {
  data: Record<string, unknown> & { id: string }
  message?: string
  code?: string
  issues?: { path: string; message: string }[]
}

let t: TestApp
let admin: Account
beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

const STEPS = [
  { type: 'navigate', url: 'https://example.com/form' },
  {
    type: 'type',
    target: [
      { by: 'label', text: 'Name' },
      { by: 'css', selector: '#name' },
    ],
    text: 'Ada',
  },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
  { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
]

async function call(account: Account, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await t.request(path, { ...init, token: account.token })
  return { status: response.status, body: (await response.json()) as Body }
}

async function createAutomation(account: Account, input: Record<string, unknown> = {}) {
  const { status, body } = await call(account, '/api/automations', { body: { name: 'Fill the form', steps: STEPS, ...input } })
  expect(status, JSON.stringify(body)).toBe(201)
  return body.data
}

const startRun = (account: Account, automationId: string, where: 'cloud' | 'client' = 'cloud') =>
  call(account, `/api/automations/${automationId}/runs`, { body: { where } })

async function balance(userId: string) {
  const [row] = await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, userId))
  return row?.credits
}

async function setPlan(account: Account, plan: string) {
  expect((await call(admin, `/api/users/${account.id}`, { method: 'PUT', body: { plan } })).status).toBe(200)
}

async function setCredits(account: Account, credits: number) {
  expect((await call(admin, `/api/users/${account.id}`, { method: 'PUT', body: { credits } })).status).toBe(200)
}

describe('automations CRUD', () => {
  it('creates, lists, reads, changes only what is sent, duplicates and deletes', async () => {
    const owner = await t.signUp()
    const created = await createAutomation(owner, { description: 'Signs up for the newsletter' })
    expect(created).toMatchObject({ name: 'Fill the form', steps: STEPS, stepsVersion: 4, schedule: null, enabled: true })

    const renamed = await call(owner, `/api/automations/${created.id}`, { method: 'PUT', body: { name: 'Newsletter' } })
    expect(renamed.body.data).toMatchObject({ name: 'Newsletter', description: 'Signs up for the newsletter', steps: STEPS })

    const copy = await call(owner, `/api/automations/${created.id}/duplicate`, { method: 'POST' })
    expect(copy.status).toBe(201)
    expect(copy.body.data).toMatchObject({ name: 'Copy of Newsletter', steps: STEPS })

    const listed = await call(owner, '/api/automations')
    expect((listed.body as unknown as { total: number }).total).toBe(2)

    expect((await call(owner, `/api/automations/${created.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call(owner, `/api/automations/${created.id}`)).status).toBe(404)
  })

  it("another member's automation is 404 for every verb; an admin may read it but not change it", async () => {
    const owner = await t.signUp()
    const stranger = await t.signUp()
    const { id } = await createAutomation(owner)
    expect((await call(stranger, `/api/automations/${id}`)).status).toBe(404)
    expect((await call(stranger, `/api/automations/${id}`, { method: 'PUT', body: { name: 'Mine now' } })).status).toBe(404)
    expect((await call(stranger, `/api/automations/${id}/duplicate`, { method: 'POST' })).status).toBe(404)
    expect((await startRun(stranger, id)).status).toBe(404)
    expect((await call(stranger, `/api/automations/${id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await call(admin, `/api/automations/${id}`)).status).toBe(200)
    expect((await call(admin, `/api/automations/${id}`, { method: 'PUT', body: { name: 'Admin was here' } })).status).toBe(404)
    expect((await call(owner, `/api/automations/${id}`)).body.data.name).toBe('Fill the form')
  })

  it('refuses invalid steps with a message naming the step and the field', async () => {
    const owner = await t.signUp()
    const { status, body } = await call(owner, '/api/automations', {
      body: { name: 'Broken', steps: [{ type: 'navigate', url: 'https://example.com' }, { type: 'click' }, { type: 'fly', to: 'moon' }] },
    })
    expect(status).toBe(400)
    expect(body.message).toBe('Step 2 (click): element is required')
    expect(body.issues).toEqual([
      { path: 'steps.1.target', message: 'Step 2 (click): element is required' },
      {
        path: 'steps.2.type',
        message:
          'Step 3: type must be one of navigate, click, type, select, press, wait, extract, screenshot, assertText, check, hover, doubleClick, clear, goBack, scroll, dialog, switchTab, assertChecked, assertCount, if, else, end, repeat, forEach, forEachRow, next, stop, script, download, upload, saveTable, readData, writeData, moveFile, copyFile, openFile, askPerson',
      },
    ])
    const javascriptUrl = await call(owner, '/api/automations', {
      body: { name: 'x', steps: [{ type: 'navigate', url: 'javascript:alert(1)' }] },
    })
    expect(javascriptUrl.body.message).toBe('Step 1 (navigate): url must be an http or https address')
    const badTarget = await call(owner, '/api/automations', {
      body: { name: 'x', steps: [{ type: 'click', target: [{ by: 'role', role: 'spaceship' }, { by: 'nose' }] }] },
    })
    expect(badTarget.status).toBe(400)
    expect(badTarget.body.issues?.map((issue) => issue.path)).toEqual(['steps.0.target.0.role', 'steps.0.target.1.by'])
  })

  it('takes version-1 steps (a selector) and keeps them as the current version (a target with that CSS selector)', async () => {
    const owner = await t.signUp()
    const v1 = [
      { type: 'navigate', url: 'https://example.com/form' },
      { type: 'type', selector: '#name', text: 'Ada' },
      { type: 'wait', selector: 'text=Thanks' },
      { type: 'assertText', text: 'Thanks' },
    ]
    const created = await createAutomation(owner, { steps: v1 })
    expect(created.steps).toEqual([
      { type: 'navigate', url: 'https://example.com/form' },
      { type: 'type', target: [{ by: 'css', selector: '#name' }], text: 'Ada' },
      { type: 'wait', target: [{ by: 'css', selector: 'text=Thanks' }] },
      { type: 'assertText', text: 'Thanks' },
    ])
    expect(created.stepsVersion).toBe(4)
  })

  it('checks the cron schedule and sets the next run; disabling clears it', async () => {
    const owner = await t.signUp()
    const bad = await call(owner, '/api/automations', { body: { name: 'x', steps: STEPS, schedule: 'every morning' } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/^schedule: Schedule must be a five-field cron expression/)
    const scheduled = await createAutomation(owner, { schedule: '0 9 * * 1-5' })
    const next = new Date(String(scheduled.nextRunAt))
    expect(next.getUTCHours()).toBe(9)
    expect(next.getTime()).toBeGreaterThan(Date.now())
    const disabled = await call(owner, `/api/automations/${scheduled.id}`, { method: 'PUT', body: { enabled: false } })
    expect(disabled.body.data.nextRunAt).toBeNull()
  })

  it('serves the JSON Schema of the steps', async () => {
    const response = await t.request('/api/automations/steps.schema.json')
    expect(response.status).toBe(200)
    const schema = (await response.json()) as { type: string; items: { oneOf?: unknown[]; anyOf?: unknown[] } }
    expect(schema.type).toBe('array')
    // 19 actions; the 9 workflow steps of docs/decisions/046 (blocks, stop, script), its 3 file steps and 5 desktop steps.
    expect((schema.items.oneOf ?? schema.items.anyOf)?.length).toBe(37)
    // Every step that acts may say what to do when it fails (docs/decisions/028).
    expect(JSON.stringify(schema)).toContain('"then":{"default":"fail","type":"string","enum":["fail","skip","continue"]}')
  })

  it('keeps what a step does when it fails, and the run limits, and refuses values out of range', async () => {
    const owner = await t.signUp()
    const steps = [STEPS[0], { ...STEPS[2], onError: { retries: 2, then: 'skip' } }]
    const created = await createAutomation(owner, { steps, runTimeLimitSeconds: 30, runStepLimit: 50 })
    expect(created).toMatchObject({
      runTimeLimitSeconds: 30,
      runStepLimit: 50,
      // The pause between tries defaults to a second.
      steps: [STEPS[0], { ...STEPS[2], onError: { retries: 2, delayMs: 1000, then: 'skip' } }],
    })
    const cleared = await call(owner, `/api/automations/${created.id}`, { method: 'PUT', body: { runTimeLimitSeconds: null } })
    expect(cleared.body.data).toMatchObject({ runTimeLimitSeconds: null, runStepLimit: 50 })

    const badStep = await call(owner, '/api/automations', {
      body: { name: 'Bad', steps: [{ ...STEPS[2], onError: { retries: 6, then: 'explode' } }] },
    })
    expect(badStep.status).toBe(400)
    expect(badStep.body.issues).toEqual([
      { path: 'steps.0.onError.retries', message: 'Step 1 (click): onError.retries must be at most 5' },
      { path: 'steps.0.onError.then', message: 'Step 1 (click): onError.then must be one of fail, skip, continue' },
    ])
    const tooLong = await call(owner, `/api/automations/${created.id}`, { method: 'PUT', body: { runTimeLimitSeconds: 121 } })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.message).toBe('Runs stop after 120 seconds on this server: the time limit can only be lower.')
    const zero = await call(owner, `/api/automations/${created.id}`, { method: 'PUT', body: { runStepLimit: 0 } })
    expect(zero.status).toBe(400)
    expect(zero.body.message).toContain('runStepLimit must be at least 1')
    expect((await call(owner, `/api/automations/${created.id}`)).body.data).toMatchObject({ runTimeLimitSeconds: null, runStepLimit: 50 })
  })

  it('a run keeps the limits its automation had when it started', async () => {
    const owner = await t.signUp()
    await t.db.update(workspaces).set({ credits: 10 }).where(eq(workspaces.id, owner.id))
    const automation = await createAutomation(owner, { runTimeLimitSeconds: 45, runStepLimit: 9 })
    const started = await startRun(owner, automation.id)
    expect(started.status).toBe(201)
    await call(owner, `/api/automations/${automation.id}`, { method: 'PUT', body: { runTimeLimitSeconds: 10 } })
    const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, started.body.data.id))
    expect(row).toMatchObject({ timeLimitSeconds: 45, stepLimit: 9 })
  })
})

describe('plan limits', () => {
  it('Free allows up to 100 actions per automation; Pro lifts it; a Free member cannot run a bigger one kept from Pro', async () => {
    const member = await t.signUp()
    const many = Array.from({ length: 101 }, (_, i) => ({ type: 'wait', ms: i }))
    const refused = await call(member, '/api/automations', { body: { name: 'Long', steps: many } })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'PLAN_LIMIT' })
    expect(refused.body.message).toBe(
      'The Free plan allows up to 100 actions per automation; this one has 101. Upgrade for unlimited actions.',
    )
    expect((await call(member, '/api/automations', { body: { name: 'Hundred', steps: many.slice(0, 100) } })).status).toBe(201)

    await setPlan(member, 'pro')
    const big = await createAutomation(member, { name: 'Long', steps: many })
    await setPlan(member, 'free')
    const run = await startRun(member, big.id)
    expect(run.status).toBe(409)
    expect(run.body.code).toBe('PLAN_LIMIT')
  })

  it('Free allows 5 runs a month, whoever executes them; Pro has no cap', async () => {
    const member = await t.signUp()
    await setCredits(member, 100)
    const { id } = await createAutomation(member)
    for (let n = 0; n < 3; n++) expect((await startRun(member, id, 'client')).status).toBe(201)
    for (let n = 0; n < 2; n++) expect((await startRun(member, id, 'cloud')).status).toBe(201)
    const sixth = await startRun(member, id, 'client')
    expect(sixth.status).toBe(409)
    expect(sixth.body).toMatchObject({
      code: 'PLAN_LIMIT',
      message: "The Free plan includes 5 automation runs per month, and this month's are used. Upgrade for unlimited automations.",
    })
    await setPlan(member, 'pro')
    for (let n = 0; n < 3; n++) expect((await startRun(member, id, 'client')).status).toBe(201)
  })

  it('an automation without steps cannot run', async () => {
    const member = await t.signUp()
    const { id } = await createAutomation(member, { steps: [] })
    const run = await startRun(member, id)
    expect(run.status).toBe(400)
    expect(run.body.message).toBe('This automation has no steps yet: add at least one before running it.')
  })
})

describe('credits', () => {
  it('a cloud run costs 1 credit with a usage row; a client run costs nothing', async () => {
    const member = await t.signUp()
    const before = await balance(member.id)
    const { id } = await createAutomation(member)
    const cloud = await startRun(member, id, 'cloud')
    expect(cloud.body.data).toMatchObject({ status: 'queued', runner: 'cloud', creditsCharged: 1, trigger: 'manual' })
    expect(await balance(member.id)).toBe((before ?? 0) - 1)
    const [usage] = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.workspaceId, member.id), eq(creditLedger.reason, 'usage')))
    expect(usage).toMatchObject({ delta: -1, reference: `run ${cloud.body.data.id}` })

    const client = await startRun(member, id, 'client')
    expect(client.body.data).toMatchObject({ status: 'running', runner: 'client', creditsCharged: 0, trigger: 'extension' })
    expect(await balance(member.id)).toBe((before ?? 0) - 1)
  })

  it('a cloud run that cannot be paid for is refused before it exists', async () => {
    const member = await t.signUp()
    await setCredits(member, 0)
    const { id } = await createAutomation(member)
    const refused = await startRun(member, id, 'cloud')
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS' })
    expect(refused.body.message).toMatch(/^Running in the cloud costs 1 credit, and your balance is 0\./)
    expect(await t.db.select().from(automationRuns).where(eq(automationRuns.userId, member.id))).toHaveLength(0)
    // Running on the member's own machine needs no credits.
    expect((await startRun(member, id, 'client')).status).toBe(201)
  })

  it('two starts at once with one credit: exactly one is charged and runs', async () => {
    const member = await t.signUp()
    await setCredits(member, 1)
    const { id } = await createAutomation(member)
    const results = await Promise.all([startRun(member, id), startRun(member, id), startRun(member, id)])
    expect(results.map((result) => result.status).sort()).toEqual([201, 409, 409])
    expect(await balance(member.id)).toBe(0)
  })
})

describe('the cloud queue, failures and refunds', () => {
  // The queue is shared by every member: each test starts with it empty.
  beforeEach(async () => {
    await t.db.update(automationRuns).set({ status: 'cancelled' }).where(eq(automationRuns.status, 'queued'))
  })

  it('a failure on our side refunds the credit and does not count against the month; a failing automation is not refunded', async () => {
    const member = await t.signUp()
    // Pro runs two cloud runs of a workspace at once (docs/decisions/029): both are claimed.
    await setPlan(member, 'pro')
    await setCredits(member, 2)
    const { id } = await createAutomation(member)
    const first = (await startRun(member, id)).body.data.id
    const second = (await startRun(member, id)).body.data.id
    expect(await balance(member.id)).toBe(0)

    const claimedFirst = await t.services.runQueue.claim('worker-a')
    expect(claimedFirst?.id).toBe(first)
    const claimedSecond = await t.services.runQueue.claim('worker-b')
    expect(claimedSecond?.id).toBe(second)
    expect(await t.services.runQueue.claim('worker-c')).toBeNull()

    await t.services.runQueue.finish(first, 'worker-a', { status: 'failed', error: 'Chromium did not start', ourFault: true })
    await t.services.runQueue.finish(second, 'worker-b', {
      status: 'failed',
      error: 'Step 2 (click): no element matches #missing',
      ourFault: false,
    })
    expect(await balance(member.id)).toBe(1)
    const refunds = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.workspaceId, member.id), eq(creditLedger.reason, 'refund')))
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ delta: 1 })
    expect(refunds[0]?.reference).toMatch(new RegExp(`^run ${first}`))
    expect((await call(member, `/api/runs/${first}`)).body.data).toMatchObject({ status: 'failed', refunded: true })
    expect((await call(member, `/api/runs/${second}`)).body.data).toMatchObject({ status: 'failed', refunded: false })
    expect(await t.services.runs.runsThisMonth(member.id)).toBe(1)
  })

  it('only the worker holding a run may report on it, and a finished run is final', async () => {
    const member = await t.signUp()
    const { id } = await createAutomation(member)
    const runId = (await startRun(member, id)).body.data.id
    await t.services.runQueue.claim('worker-a')
    expect(await t.services.runQueue.progress(runId, 'worker-b', { actionsPerformed: 2 })).toBe(false)
    expect(await t.services.runQueue.progress(runId, 'worker-a', { actionsPerformed: 2, extracted: [{ result: 'ok' }] })).toBe(true)
    expect(await t.services.runQueue.finish(runId, 'worker-a', { status: 'succeeded' })).not.toBeNull()
    expect(await t.services.runQueue.finish(runId, 'worker-a', { status: 'failed', error: 'late', ourFault: true })).toBeNull()
    expect((await call(member, `/api/runs/${runId}`)).body.data).toMatchObject({
      status: 'succeeded',
      actionsPerformed: 2,
      refunded: false,
    })
  })

  it('a run whose worker stopped is queued again once, then failed and refunded', async () => {
    const member = await t.signUp()
    const before = await balance(member.id)
    const { id } = await createAutomation(member)
    const runId = (await startRun(member, id)).body.data.id
    const expire = () =>
      t.db
        .update(automationRuns)
        .set({ leaseUntil: new Date(Date.now() - 1000) })
        .where(eq(automationRuns.id, runId))

    await t.services.runQueue.claim('worker-a')
    await expire()
    expect(await t.services.runQueue.recoverExpired()).toBe(1)
    expect((await call(member, `/api/runs/${runId}`)).body.data.status).toBe('queued')

    expect((await t.services.runQueue.claim('worker-b'))?.id).toBe(runId)
    await expire()
    await t.services.runQueue.recoverExpired()
    const run = (await call(member, `/api/runs/${runId}`)).body.data
    expect(run).toMatchObject({ status: 'failed', refunded: true, error: 'The cloud worker stopped while running this automation.' })
    expect(await balance(member.id)).toBe(before)
    // The stopped worker can no longer write to it.
    expect(await t.services.runQueue.progress(runId, 'worker-b', { actionsPerformed: 1 })).toBe(false)
  })

  it('cancelling a queued run refunds it; a started one keeps its charge', async () => {
    const member = await t.signUp()
    const before = await balance(member.id)
    const { id } = await createAutomation(member)
    const queued = (await startRun(member, id)).body.data.id
    const cancelled = await call(member, `/api/runs/${queued}/cancel`, { method: 'POST' })
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', refunded: true })
    expect(await balance(member.id)).toBe(before)
    expect((await call(member, `/api/runs/${queued}/cancel`, { method: 'POST' })).status).toBe(400)

    const started = (await startRun(member, id)).body.data.id
    await t.services.runQueue.claim('worker-a')
    expect((await call(member, `/api/runs/${started}/cancel`, { method: 'POST' })).body.data).toMatchObject({
      status: 'cancelled',
      refunded: false,
    })
    expect(await balance(member.id)).toBe((before ?? 0) - 1)
    // The worker notices at its next step.
    expect(await t.services.runQueue.progress(started, 'worker-a', { actionsPerformed: 1 })).toBe(false)
  })
})

describe('runs reported by the extension or desktop app', () => {
  it('progress, then the finish; the data downloads as CSV and JSON; the run is final', async () => {
    const member = await t.signUp()
    const { id } = await createAutomation(member)
    const runId = (await call(member, `/api/automations/${id}/runs`, { body: { where: 'client', trigger: 'desktop' } })).body.data.id
    const progress = await call(member, `/api/runs/${runId}/progress`, {
      body: { actionsPerformed: 2, log: [{ message: 'Opened the form' }], extracted: [{ result: 'Thanks, Ada' }] },
    })
    expect(progress.body.data).toMatchObject({ status: 'running', actionsPerformed: 2, trigger: 'desktop' })
    const finished = await call(member, `/api/runs/${runId}/finish`, {
      body: { status: 'succeeded', actionsPerformed: 4, extracted: [{ result: 'Second, "quoted"' }] },
    })
    expect(finished.body.data).toMatchObject({ status: 'succeeded', actionsPerformed: 4 })
    expect((await call(member, `/api/runs/${runId}/finish`, { body: { status: 'failed' } })).status).toBe(400)

    const csv = await t.request(`/api/runs/${runId}/extracted.csv`, { token: member.token })
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="run-${runId}.csv"`)
    expect(await csv.text()).toBe('result\r\n"Thanks, Ada"\r\n"Second, ""quoted"""\r\n')
    const json = await t.request(`/api/runs/${runId}/extracted.json`, { token: member.token })
    expect(await json.json()).toEqual([{ result: 'Thanks, Ada' }, { result: 'Second, "quoted"' }])
  })

  it("a client cannot report on a cloud run, nor anyone on another member's run", async () => {
    const member = await t.signUp()
    const stranger = await t.signUp()
    const { id } = await createAutomation(member)
    const cloud = (await startRun(member, id, 'cloud')).body.data.id
    expect((await call(member, `/api/runs/${cloud}/progress`, { body: { actionsPerformed: 1 } })).status).toBe(400)
    const client = (await startRun(member, id, 'client')).body.data.id
    expect((await call(stranger, `/api/runs/${client}`)).status).toBe(404)
    expect((await call(stranger, `/api/runs/${client}/finish`, { body: { status: 'succeeded' } })).status).toBe(404)
    expect((await call(stranger, `/api/runs/${client}/cancel`, { method: 'POST' })).status).toBe(404)
    expect((await t.request(`/api/runs/${client}/extracted.csv`, { token: stranger.token })).status).toBe(404)
  })

  it("lists the caller's runs newest first with filters; scope=all is for admins", async () => {
    const member = await t.signUp()
    await setPlan(member, 'pro')
    const a = await createAutomation(member, { name: 'A' })
    const b = await createAutomation(member, { name: 'B' })
    const first = (await startRun(member, a.id, 'client')).body.data.id
    const second = (await startRun(member, b.id, 'client')).body.data.id
    await call(member, `/api/runs/${first}/finish`, { body: { status: 'failed', error: 'Site down' } })

    const all = (await call(member, '/api/runs')).body as unknown as { data: { id: string }[]; total: number }
    expect(all.data.map((run) => run.id)).toEqual([second, first])
    const failed = (await call(member, '/api/runs?status=failed')).body as unknown as { data: { id: string }[] }
    expect(failed.data.map((run) => run.id)).toEqual([first])
    const ofB = (await call(member, `/api/runs?automationId=${b.id}`)).body as unknown as { data: { id: string }[] }
    expect(ofB.data.map((run) => run.id)).toEqual([second])

    expect((await call(member, '/api/runs?scope=all')).status).toBe(403)
    const everyone = (await call(admin, `/api/runs?scope=all&userId=${member.id}`)).body as unknown as { total: number }
    expect(everyone.total).toBe(2)
  })
})

describe('saving over a newer version', () => {
  it('is refused when the editor started from an older version (a fix or suggestion was applied meanwhile)', async () => {
    const member = await t.signUp()
    const automation = await createAutomation(member)
    const caller = personalCaller(member)
    const changed = await t.services.automations.update(automation.id, caller, { description: 'Changed elsewhere' })
    expect(changed.version).toBe(2)
    await expect(
      t.services.automations.update(automation.id, caller, { description: 'From the stale editor' }, { expectedVersion: 1 }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'The automation was changed meanwhile; look at it again.',
    })
    const saved = await t.services.automations.update(
      automation.id,
      caller,
      { description: 'From the fresh editor' },
      { expectedVersion: 2 },
    )
    expect(saved).toMatchObject({ version: 3, description: 'From the fresh editor' })
  })
})
