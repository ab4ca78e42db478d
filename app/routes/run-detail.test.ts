import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queueNotice } from '#app/features/automations/run-view.server.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { loader } from './run-detail.tsx'

// The run page's line about a queued cloud run's wait (docs/decisions/029, 038), with the real services.

type Account = Awaited<ReturnType<TestApp['signUp']>>

const TURNS = 'Workspaces take turns in the cloud queue, so the place can change when other workspaces queue runs.'

let t: TestApp
let admin: Account
beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

const contextOf = (account: Account) => t.pageContext(account)

async function pageOf(account: Account, runId: string) {
  const args = {
    request: new Request(`http://localhost:3000/dashboard/runs/${runId}`),
    params: { id: runId },
    context: await contextOf(account),
  }
  return (await loader(args as unknown as Parameters<typeof loader>[0])).run
}

async function cloudRuns(account: Account, count: number): Promise<string[]> {
  await t.db.update(workspaces).set({ credits: 50 }).where(eq(workspaces.id, account.id))
  const caller = personalCaller(account)
  const automation = await t.services.automations.create(caller, {
    name: 'Queue',
    description: '',
    steps: [{ type: 'navigate', url: 'https://example.com/' }],
    schedule: null,
    enabled: true,
  })
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })).id)
  return ids
}

describe('the run page of a queued cloud run', () => {
  it('says its place in line and, at the plan’s limit, that it waits for the running one', async () => {
    const ada = await t.signUp()
    const bob = await t.signUp()
    const [running = '', waiting = ''] = await cloudRuns(ada, 2)
    const [bobs = ''] = await cloudRuns(bob, 1)

    // Ada's second run waits for her workspace's next turn: Bob's comes before it.
    expect((await pageOf(bob, bobs)).queue).toEqual({
      position: 2,
      place: 'Queued — about 2nd in line: 1 run ahead of this one now.',
      limit: null,
      turns: TURNS,
    })
    expect((await pageOf(ada, waiting)).queue?.position).toBe(3)
    expect((await t.services.runQueue.claim('worker-a'))?.id).toBe(running)

    expect((await pageOf(ada, running)).queue).toBeNull()
    expect((await pageOf(ada, waiting)).queue).toEqual({
      position: 2,
      place: 'Queued — about 2nd in line: 1 run ahead of this one now.',
      limit: 'Your plan runs 1 cloud run at a time and one is running: this one starts when it finishes.',
      turns: TURNS,
    })
    // An admin looking at it reads whose plan it is.
    expect((await pageOf(admin, waiting)).queue?.limit).toBe(
      "This workspace's plan runs 1 cloud run at a time and one is running: this one starts when it finishes.",
    )
    expect((await pageOf(bob, bobs)).queue).toEqual({
      position: 1,
      place: 'Queued — next in line for a cloud browser.',
      limit: null,
      turns: TURNS,
    })
  })

  it('counts in ordinals and says how many must finish when more run than the plan now allows', () => {
    expect(queueNotice({ position: 22, running: 1, cloudConcurrency: 2 }, true)).toEqual({
      position: 22,
      place: 'Queued — about 22nd in line: 21 runs ahead of this one now.',
      limit: null,
      turns: TURNS,
    })
    expect(queueNotice({ position: 11, running: 2, cloudConcurrency: 2 }, true).limit).toBe(
      'Your plan runs 2 cloud runs at a time and 2 are running: this one starts when one of them finishes.',
    )
    expect(queueNotice({ position: 1, running: 3, cloudConcurrency: 1 }, true)).toMatchObject({
      place: 'Queued — next in line for a cloud browser.',
      limit: 'Your plan runs 1 cloud run at a time and 3 are running: this one starts when 3 of them have finished.',
    })
    expect(queueNotice({ position: 13, running: 0, cloudConcurrency: 1 }, true).place).toBe(
      'Queued — about 13th in line: 12 runs ahead of this one now.',
    )
  })
})
