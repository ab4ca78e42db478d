import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRIGGER_RATE_LIMIT } from '#common/triggers.ts'
import { automationRuns, automationTriggers, workspaces } from '#server/db/schema/index.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import { loggedPath } from '#server/http/request-logger.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Trigger URLs and run inputs (docs/decisions/027): made, rotated and revoked by members of the
// workspace on a plan that includes them; fired by anyone holding the secret, with inputs that
// reach the steps; refused with 401 for any other secret before the body is read.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type Issued = { secret: string; url: string; hint: string; createdAt: string; lastUsedAt: string | null }
type Run = {
  id: string
  status: string
  trigger: string
  inputs: Record<string, string>
  steps: { type: string; url?: string; text?: string }[]
}

let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let business: Account
let free: Account
let automationId: string

async function call<T>(account: Account | null, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const response = await t.request(path, { ...init, token: account?.token })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const fire = (secret: string, body?: unknown) => call<Run>(null, `/api/triggers/${secret}`, { method: 'POST', body })

async function createAutomation(account: Account): Promise<string> {
  const steps = [
    { type: 'navigate', url: `${site.url}/form` },
    { type: 'type', target: [{ by: 'css', selector: '#name' }], text: '{{input.name}}' },
    { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
    { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
  ]
  const created = await call<{ id: string }>(account, '/api/automations', { body: { name: 'Greet', steps } })
  expect(created.status, created.message).toBe(201)
  return created.data.id
}

beforeAll(async () => {
  t = await createTestApp({ privateTargets: 'loopback' })
  site = await startTestSite()
  business = await t.signUp()
  free = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 200 }).where(eq(workspaces.id, business.id))
  automationId = await createAutomation(business)
})
afterAll(async () => {
  await site?.close()
  await t?.close()
})

describe('managing a trigger URL', () => {
  it('is refused on a plan without trigger URLs, naming the plan that has them', async () => {
    const own = await createAutomation(free)
    const refused = await call(free, `/api/automations/${own}/trigger`, { method: 'POST' })
    expect(refused).toMatchObject({ status: 409, code: 'PLAN_LIMIT' })
    expect(refused.message).toBe('Trigger URLs is part of the Business plan; you are on the Free plan. Upgrade to use it.')
  })

  it('shows the secret once, keeps only its hash, and answers 404 for another workspace’s automation', async () => {
    const issued = await call<Issued>(business, `/api/automations/${automationId}/trigger`, { method: 'POST' })
    expect(issued.status).toBe(201)
    expect(issued.data.secret).toMatch(/^trg_[A-Za-z0-9_-]{32}$/)
    expect(issued.data.url).toBe(`${new URL(issued.data.url).origin}/api/triggers/${issued.data.secret}`)
    expect(issued.data.hint).toBe(issued.data.secret.slice(-4))

    const shown = await call<Issued | null>(business, `/api/automations/${automationId}/trigger`)
    expect(shown).toMatchObject({ status: 200, data: { hint: issued.data.hint, lastUsedAt: null } })
    expect(JSON.stringify(shown)).not.toContain(issued.data.secret)
    const [row] = await t.db.select().from(automationTriggers).where(eq(automationTriggers.automationId, automationId))
    expect(JSON.stringify(row)).not.toContain(issued.data.secret)

    expect((await call(free, `/api/automations/${automationId}/trigger`)).status).toBe(404)
    expect((await call(free, `/api/automations/${automationId}/trigger`, { method: 'POST' })).status).toBe(404)
    expect((await call(free, `/api/automations/${automationId}/trigger`, { method: 'DELETE' })).status).toBe(404)
  })
})

describe('firing a trigger URL', () => {
  let secret: string
  beforeAll(async () => {
    secret = (await call<Issued>(business, `/api/automations/${automationId}/trigger`, { method: 'POST' })).data.secret
  })

  it('starts a cloud run with the inputs, which reach the steps', async () => {
    const started = await fire(secret, { inputs: { name: 'Ada' } })
    expect(started.status, started.message).toBe(202)
    expect(started.data).toMatchObject({ status: 'queued', trigger: 'url', inputs: { name: 'Ada' } })
    const stored = await call<Run>(business, `/api/runs/${started.data.id}`)
    expect(stored.data.steps[1]).toMatchObject({ type: 'type', text: 'Ada' })
    const automation = await call<{ steps: { text?: string }[] }>(business, `/api/automations/${automationId}`)
    expect(automation.data.steps[1]?.text).toBe('{{input.name}}')

    const worker = createCloudWorker({
      runQueue: t.services.runQueue,
      runFiles: t.services.runFiles,
      events: t.services.events,
      logger: pino({ level: 'silent' }),
      config: {
        concurrency: 1,
        chromiumPath: '/usr/bin/chromium',
        stepTimeoutMs: 10_000,
        timeLimitMs: 60_000,
        maxActions: 100,
        privateTargets: 'loopback',
        heartbeatMs: 200,
        pollMs: 100,
      },
    })
    worker.start()
    try {
      const deadline = Date.now() + 60_000
      let run = (await t.db.select().from(automationRuns).where(eq(automationRuns.id, started.data.id)))[0]
      while (run && !['succeeded', 'failed'].includes(run.status) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        run = (await t.db.select().from(automationRuns).where(eq(automationRuns.id, started.data.id)))[0]
      }
      expect(run?.error ?? null).toBeNull()
      expect(run?.status).toBe('succeeded')
      expect(run?.extracted).toEqual([{ result: 'Thanks, Ada (free)' }])
    } finally {
      await worker.stop(5_000)
    }
    const shown = await call<Issued>(business, `/api/automations/${automationId}/trigger`)
    expect(shown.data.lastUsedAt).not.toBeNull()
    const activity = await call<{ summary: string }[]>(business, '/api/workspaces/current/activity')
    expect(activity.data.map((entry) => entry.summary)).toContain('Ran Greet in the cloud from its trigger URL')
  })

  it('answers 401 to any other secret, whatever the body holds', async () => {
    for (const wrong of ['trg_' + 'x'.repeat(32), secret.slice(0, -1), 'nothing', secret.toUpperCase()]) {
      for (const body of [undefined, { inputs: { name: 'Ada' } }, '{', { inputs: 'x' }]) {
        const refused = await fire(wrong, body)
        expect(refused.status, `${wrong} ${JSON.stringify(body)}`).toBe(401)
        expect(refused.message).toBe('This trigger URL is not valid: it was revoked, rotated or never existed.')
      }
    }
  })

  it('refuses missing, unknown and over-long inputs with a clear message, starting nothing', async () => {
    const before = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(await fire(secret)).toMatchObject({ status: 400, message: 'Missing input: name.' })
    expect(await fire(secret, { inputs: { name: 'Ada', colour: 'red' } })).toMatchObject({
      status: 400,
      message: "Unknown input: colour. This automation's inputs: name.",
    })
    // A value that reads like a placeholder is data (docs/decisions/039): inputs-as-data.test.ts runs one.
    expect(await fire(secret, '{')).toMatchObject({ status: 400, message: 'The body must be JSON: {"inputs": {"name": "value"}}.' })
    expect((await fire(secret, { inputs: { name: 'x'.repeat(2001) } })).status).toBe(400)
    const after = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(after).toHaveLength(before.length)
  })

  it('is rate limited per URL', async () => {
    const other = await createAutomation(business)
    const own = (await call<Issued>(business, `/api/automations/${other}/trigger`, { method: 'POST' })).data.secret
    // Calls without their input are refused after the limit is counted: cheap, and they start nothing.
    for (let i = 0; i < TRIGGER_RATE_LIMIT.limit; i++) expect((await fire(own)).status).toBe(400)
    expect(await fire(own, { inputs: { name: 'Ada' } })).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
  })

  it('stops working when rotated or revoked', async () => {
    const rotated = (await call<Issued>(business, `/api/automations/${automationId}/trigger`, { method: 'POST' })).data.secret
    expect((await fire(secret, { inputs: { name: 'Old' } })).status).toBe(401)
    expect((await fire(rotated, { inputs: { name: 'New' } })).status).toBe(202)
    expect((await call(business, `/api/automations/${automationId}/trigger`, { method: 'DELETE' })).status).toBe(200)
    expect((await fire(rotated, { inputs: { name: 'New' } })).status).toBe(401)
    expect((await call(business, `/api/automations/${automationId}/trigger`)).data).toBeNull()
    expect((await call(business, `/api/automations/${automationId}/trigger`, { method: 'DELETE' })).status).toBe(404)
  })

  it('stops starting runs when the workspace’s plan no longer includes trigger URLs', async () => {
    const other = await createAutomation(business)
    const own = (await call<Issued>(business, `/api/automations/${other}/trigger`, { method: 'POST' })).data.secret
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, business.id))
    try {
      expect(await fire(own, { inputs: { name: 'Ada' } })).toMatchObject({ status: 409, code: 'PLAN_LIMIT' })
    } finally {
      await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, business.id))
    }
  })
})

describe('inputs through the API', () => {
  it('a run started with an API key takes inputs and records the trigger api', async () => {
    const key = await call<{ key: string }>(business, '/api/keys', { body: { name: 'Script' } })
    expect(key.status).toBe(201)
    const response = await t.request(`/api/automations/${automationId}/runs`, {
      body: { where: 'cloud', inputs: { name: 'Grace' } },
      headers: { authorization: `Bearer ${key.data.key}` },
    })
    const started = (await response.json()) as { data: Run }
    expect(response.status).toBe(201)
    expect(started.data).toMatchObject({ trigger: 'api', inputs: { name: 'Grace' } })
    expect(started.data.steps[1]?.text).toBe('Grace')
    const bySession = await call<Run>(business, `/api/automations/${automationId}/runs`, { body: { where: 'cloud' } })
    expect(bySession).toMatchObject({ status: 400, message: 'Missing input: name.' })
  })
})

describe('logs', () => {
  it('keep only the last four characters of a trigger URL’s secret', () => {
    expect(loggedPath('/api/triggers/trg_abcdefghijklmnopqrstuvwxyz123456')).toBe('/api/triggers/…3456')
    expect(loggedPath('/api/automations/abc/trigger')).toBe('/api/automations/abc/trigger')
  })
})
