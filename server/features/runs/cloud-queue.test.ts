import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// A queued cloud run's place in line in the API (docs/decisions/029, 038): 1 + the queued cloud runs
// of every workspace ahead of it, in the order the workers would claim them (the workspaces taking
// turns); null once it is not queued.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type RunBody = { id: string; status: string; queuePosition: number | null }

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})
// The queue is shared by every workspace: each test starts with it empty.
beforeEach(async () => {
  await t.db
    .update(automationRuns)
    .set({ status: 'cancelled', workerId: null, leaseUntil: null })
    .where(sql`${automationRuns.status} in ('queued', 'running')`)
})

async function call(account: Account, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await t.request(path, { ...init, token: account.token })
  return { status: response.status, body: (await response.json()) as { data: RunBody } }
}

/** A member on Free with credits and an automation; `start` queues a cloud run of it through the API. */
async function member() {
  const account = await t.signUp()
  await t.db.update(workspaces).set({ credits: 50 }).where(eq(workspaces.id, account.id))
  const created = await call(account, '/api/automations', {
    body: { name: 'Queue', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  })
  const start = async (where: 'cloud' | 'client' = 'cloud') => {
    const started = await call(account, `/api/automations/${created.body.data.id}/runs`, { body: { where } })
    expect(started.status).toBe(201)
    return started.body.data
  }
  return { account, start }
}

describe('queue position', () => {
  it('counts the runs ahead in the order the workspaces take turns, and moves as runs start or are cancelled', async () => {
    const ada = await member()
    const bob = await member()
    const first = await ada.start()
    const second = await ada.start()
    const third = await bob.start()
    // The start answers with the place the run took: Bob's run goes before Ada's second, whose
    // workspace's turn comes after her first (docs/decisions/038).
    expect([first.queuePosition, second.queuePosition, third.queuePosition]).toEqual([1, 2, 2])
    const position = async (who: Account, id: string) => (await call(who, `/api/runs/${id}`)).body.data.queuePosition
    expect(await position(ada.account, second.id)).toBe(3)
    expect(await position(bob.account, third.id)).toBe(2)

    expect((await t.services.runQueue.claim('worker-a'))?.id).toBe(first.id)
    expect(await position(ada.account, first.id)).toBeNull()
    expect(await position(bob.account, third.id)).toBe(1)
    expect(await position(ada.account, second.id)).toBe(2)

    // The claims take the runs in the order the positions said.
    expect((await t.services.runQueue.claim('worker-b'))?.id).toBe(third.id)
    expect(await position(bob.account, third.id)).toBeNull()
    expect(await position(ada.account, second.id)).toBe(1)

    const cancelled = await call(ada.account, `/api/runs/${second.id}/cancel`, { method: 'POST' })
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', queuePosition: null })
  })

  it('is in the list of runs, and null for runs on the member’s device', async () => {
    const ada = await member()
    const bob = await member()
    await bob.start()
    const cloud = await ada.start()
    const device = await ada.start('client')
    expect(device.queuePosition).toBeNull()
    const listed = (await t.request('/api/runs', { token: ada.account.token }).then((response) => response.json())) as { data: RunBody[] }
    expect(listed.data.map((run) => [run.id, run.queuePosition])).toEqual([
      [device.id, null],
      [cloud.id, 2],
    ])
  })
})
