import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// POST /api/runs/{id}/rerun (issue 32, item 5): a finished run's automation again, with the same
// inputs and rows, as a new run; the page's "Run again" calls the same service.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Run = {
  id: string
  status: string
  runner: string
  trigger: string
  automationId: string
  inputs: Record<string, string>
  dataRows: Record<string, string>[]
}
type Answer = { status: number; data: Run; message?: string; code?: string }

let t: TestApp
let member: Account

async function call(account: Account, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<Answer> {
  const response = await t.request(path, { ...init, token: init.token ?? account.token })
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) }
}

const STEPS = [
  { type: 'navigate', url: 'https://example.com/shop/{{input.shop}}' },
  { type: 'forEachRow' },
  { type: 'navigate', url: 'https://example.com/orders/{{row.order}}' },
  { type: 'end' },
]

/** A client run of a new automation with an input and two rows, finished as `status`. */
async function finishedRun(account: Account, status: 'succeeded' | 'failed' = 'failed'): Promise<Run> {
  const automation = await call(account, '/api/automations', { body: { name: 'Orders of a shop', steps: STEPS } })
  expect(automation.status, automation.message).toBe(201)
  const started = await call(account, `/api/automations/${automation.data.id}/runs`, {
    body: { where: 'client', inputs: { shop: 'north' }, rows: [{ order: '1001' }, { order: '1002' }] },
  })
  expect(started.status, started.message).toBe(201)
  const finished = await call(account, `/api/runs/${started.data.id}/finish`, { body: { status } })
  expect(finished.status, finished.message).toBe(200)
  return finished.data
}

const credits = async (account: Account) =>
  (await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, account.id)))[0]?.credits

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 50 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await t?.close()
})

describe('running a finished run again', () => {
  it('starts a new cloud run of the same automation with the same inputs and rows, paid as a cloud run', async () => {
    const earlier = await finishedRun(member)
    const before = await credits(member)
    const again = await call(member, `/api/runs/${earlier.id}/rerun`, { body: {} })
    expect(again.status, again.message).toBe(201)
    expect(again.data.id).not.toBe(earlier.id)
    expect(again.data).toMatchObject({
      automationId: earlier.automationId,
      runner: 'cloud',
      status: 'queued',
      trigger: 'manual',
      inputs: { shop: 'north' },
      dataRows: [{ order: '1001' }, { order: '1002' }],
    })
    // A credit a row, as any cloud run with rows.
    expect(await credits(member)).toBe((before ?? 0) - 2)
    expect((await call(member, `/api/runs/${again.data.id}`)).data.inputs).toEqual({ shop: 'north' })
  })

  it('records the trigger api when an API key asks', async () => {
    const earlier = await finishedRun(member, 'succeeded')
    const key = await t.request('/api/keys', { body: { name: 'Rerun' }, token: member.token })
    const { data } = (await key.json()) as { data: { key: string } }
    const again = await call(member, `/api/runs/${earlier.id}/rerun`, { body: { where: 'cloud' }, token: data.key })
    expect(again.status, again.message).toBe(201)
    expect(again.data.trigger).toBe('api')
  })

  it('refuses a run that has not finished, one that ran on no local runner, a run of a deleted automation, a bad where, and runs of other workspaces', async () => {
    const automation = await call(member, '/api/automations', { body: { name: 'Orders of a shop', steps: STEPS } })
    const running = await call(member, `/api/automations/${automation.data.id}/runs`, {
      body: { where: 'client', inputs: { shop: 'south' }, rows: [{ order: '1' }] },
    })
    expect(await call(member, `/api/runs/${running.data.id}/rerun`, { body: {} })).toMatchObject({
      status: 400,
      message: 'This run has not finished: wait for it or cancel it before running it again.',
    })
    expect(await call(member, `/api/runs/${running.data.id}/rerun`, { body: { where: 'moon' } })).toMatchObject({ status: 400 })
    // Reported by the member's own client, not by a local runner: nothing to run it on again.
    const fromClient = await finishedRun(member)
    expect(await call(member, `/api/runs/${fromClient.id}/rerun`, { body: { where: 'device' } })).toMatchObject({
      status: 400,
      message: 'This run did not run on a local runner: run it again in the cloud.',
    })

    const orphan = await finishedRun(member)
    expect((await call(member, `/api/automations/${orphan.automationId}`, { method: 'DELETE' })).status).toBe(200)
    expect(await call(member, `/api/runs/${orphan.id}/rerun`, { body: {} })).toMatchObject({
      status: 400,
      message: 'The automation of this run was deleted, so it cannot be run again.',
    })

    const stranger = await t.signUp()
    const earlier = await finishedRun(member)
    expect((await call(stranger, `/api/runs/${earlier.id}/rerun`, { body: {} })).status).toBe(404)
    expect((await call(stranger, `/api/runs/not-a-run/rerun`, { body: {} })).status).toBe(404)
  })
})
