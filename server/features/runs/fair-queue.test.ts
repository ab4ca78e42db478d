import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The cloud queue is fair between workspaces (docs/decisions/038): the claims let workspaces take
// turns, weighted by their plan's cloud concurrency, each workspace's runs in the order they were
// queued; a workspace that had nothing queued does not save turns up; and the queue positions
// members see are the order the claims take.

const STEPS: AutomationStep[] = [{ type: 'navigate', url: 'https://example.com/' }]

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})
/** The queue is shared by every workspace: each test starts with nothing queued or running. */
beforeEach(async () => {
  await t.db
    .update(automationRuns)
    .set({ status: 'cancelled', workerId: null, leaseUntil: null })
    .where(sql`${automationRuns.status} in ('queued', 'running')`)
})

/** A workspace on `plan` with an automation, and a way to queue cloud runs of it (in order). */
async function workspaceOn(plan: string, name: string) {
  const member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: plan, credits: 100 }).where(eq(workspaces.id, member.id))
  const caller = personalCaller(member)
  const automation = await t.services.automations.create(caller, { name, description: '', steps: STEPS, schedule: null, enabled: true })
  return {
    name,
    async queue(count: number): Promise<string[]> {
      const ids: string[] = []
      for (let i = 0; i < count; i++)
        ids.push((await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })).id)
      return ids
    },
  }
}

const claim = async (worker = 'worker-a') => (await t.services.runQueue.claim(worker))?.id ?? null
const finish = (id: string, worker = 'worker-a') => t.services.runQueue.finish(id, worker, { status: 'succeeded' })

/** Claims and finishes `count` runs one after another (one worker with one slot), in claim order. */
async function claimInTurn(count: number): Promise<string[]> {
  const order: string[] = []
  for (let i = 0; i < count; i++) {
    const id = await claim()
    if (!id) break
    order.push(id)
    await finish(id)
  }
  return order
}

describe('fair claims across workspaces', () => {
  it("claims another workspace's run next after the first run of a workspace that queued many", async () => {
    const hog = await workspaceOn('business', 'Long report')
    const other = await workspaceOn('free', 'One step')
    const [first, second, third] = await hog.queue(3)
    expect(await claim()).toBe(first)
    const [theirs] = await other.queue(1)
    // The hog's runs were queued first, and its plan lets it run five at once: still, the other
    // workspace's turn comes first.
    expect(await claim('worker-b')).toBe(theirs)
    expect(await claim('worker-c')).toBe(second)
    expect(await claim('worker-d')).toBe(third)
  })

  it('weights the turns by the plan: a Business workspace (weight 5) takes five for every two of a Pro one (weight 2)', async () => {
    const business = await workspaceOn('business', 'Business')
    const pro = await workspaceOn('pro', 'Pro')
    const businessRuns = await business.queue(10)
    const proRuns = await pro.queue(10)
    const order = await claimInTurn(14)
    const taken = (runs: string[]) => order.filter((id) => runs.includes(id))
    expect(taken(businessRuns)).toHaveLength(10)
    expect(taken(proRuns)).toHaveLength(4)
    // Within each workspace, in the order they were queued.
    expect(taken(businessRuns)).toEqual(businessRuns)
    expect(taken(proRuns)).toEqual(proRuns.slice(0, 4))
    // Where Pro took its turns: the 2nd and 5th claim of each seven.
    expect(proRuns.slice(0, 4).map((id) => order.indexOf(id))).toEqual([1, 4, 8, 11])
  })

  it('two workspaces of the same plan alternate, each in its own order', async () => {
    const ada = await workspaceOn('pro', 'Ada')
    const bob = await workspaceOn('pro', 'Bob')
    const adas = await ada.queue(3)
    const bobs = await bob.queue(3)
    expect(await claimInTurn(6)).toEqual([adas[0], bobs[0], adas[1], bobs[1], adas[2], bobs[2]])
  })

  it('gives a workspace that had nothing queued no turns saved up: it joins the rotation where it stands', async () => {
    const busy = await workspaceOn('pro', 'Busy')
    const busyRuns = await busy.queue(6)
    expect(await claimInTurn(4)).toEqual(busyRuns.slice(0, 4))
    const late = await workspaceOn('pro', 'Late')
    const lateRuns = await late.queue(2)
    // Not both of the late workspace's runs first: one turn each, the older run first on a tie.
    expect(await claimInTurn(4)).toEqual([lateRuns[0], busyRuns[4], lateRuns[1], busyRuns[5]])
  })

  it('shows each queued run the place the claims then take it at', async () => {
    const business = await workspaceOn('business', 'Business')
    const pro = await workspaceOn('pro', 'Pro')
    const free = await workspaceOn('free', 'Free')
    await business.queue(2)
    expect(await claimInTurn(1)).toHaveLength(1)
    await free.queue(3)
    await business.queue(4)
    await pro.queue(3)
    // Business's second run from before waits too.
    const rows = await t.db.select().from(automationRuns).where(eq(automationRuns.status, 'queued'))
    const positions = await t.services.runs.queuePositions(rows)
    expect(Object.keys(positions)).toHaveLength(11)
    const byPosition = Object.entries(positions)
      .sort(([, a], [, b]) => a - b)
      .map(([id]) => id)
    expect(Object.values(positions).sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1))
    expect(await claimInTurn(11)).toEqual(byPosition)
  })
})
