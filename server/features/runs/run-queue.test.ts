import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { planCreateSchema, planUpdateSchema } from '#common/plans.ts'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import type { Actor } from '#server/features/audit/audit.service.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The claim under each plan's cloud concurrency (docs/decisions/029): a workspace runs at most as
// many cloud runs at once as its plan allows, the others' runs are not held up behind it, and
// claims racing from several workers (a PostgreSQL pool) never let one more through.

/** PGlite runs one transaction at a time; only a server interleaves claims. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL)

const STEPS: AutomationStep[] = [{ type: 'navigate', url: 'https://example.com/' }]

let t: TestApp
let actor: Actor
beforeAll(async () => {
  t = await createTestApp()
  const admin = await t.signUp({ role: 'admin' })
  actor = { id: admin.id, email: admin.email }
})
afterAll(async () => {
  await t.close()
})
/** The queue is shared by every workspace: each test starts with nothing queued or running. */
const emptyQueue = () =>
  t.db
    .update(automationRuns)
    .set({ status: 'cancelled', workerId: null, leaseUntil: null })
    .where(sql`${automationRuns.status} in ('queued', 'running')`)
beforeEach(emptyQueue)

/** A workspace on `plan` with an automation, and a way to queue cloud runs of it (in order). */
async function workspaceOn(plan: string) {
  const member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: plan, credits: 100 }).where(eq(workspaces.id, member.id))
  const caller = personalCaller(member)
  const automation = await t.services.automations.create(caller, {
    name: 'Queue',
    description: '',
    steps: STEPS,
    schedule: null,
    enabled: true,
  })
  return {
    id: member.id,
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

async function runningIn(workspaceId: string): Promise<number> {
  const rows = await t.db
    .select({ id: automationRuns.id })
    .from(automationRuns)
    .where(and(eq(automationRuns.workspaceId, workspaceId), eq(automationRuns.status, 'running'), eq(automationRuns.runner, 'cloud')))
  return rows.length
}

async function newPlan(name: string, cloudConcurrency: string) {
  return t.services.plans.create(actor, planCreateSchema.parse({ name, cloudConcurrency }))
}

describe("the claim under the plan's cloud concurrency", () => {
  it('passes over a workspace at its limit and claims a later run of another workspace', async () => {
    const busy = await workspaceOn('free')
    const other = await workspaceOn('free')
    const [first, second] = await busy.queue(2)
    const [theirs] = await other.queue(1)

    expect(await claim()).toBe(first)
    // Free runs one at a time: the busy workspace's second run waits, the other's does not.
    expect(await claim()).toBe(theirs)
    expect(await claim()).toBeNull()
    expect(await runningIn(busy.id)).toBe(1)

    await finish(first ?? '')
    expect(await claim()).toBe(second)
  })

  it("takes the limit from the workspace's plan, and a change to the plan applies to the next claim", async () => {
    const plan = await newPlan('Queue one at a time', '1')
    expect(plan.cloudConcurrency).toBe(1)
    const workspace = await workspaceOn(plan.slug)
    const [first, second, third, fourth] = await workspace.queue(4)

    expect(await claim()).toBe(first)
    expect(await claim()).toBeNull()

    await t.services.plans.update(actor, plan.id, planUpdateSchema.strict().parse({ cloudConcurrency: '3' }))
    expect(await claim()).toBe(second)
    expect(await claim()).toBe(third)
    expect(await claim()).toBeNull()
    expect(await runningIn(workspace.id)).toBe(3)

    // Lowered while three run: none starts until fewer than one run.
    await t.services.plans.update(actor, plan.id, planUpdateSchema.strict().parse({ cloudConcurrency: '1' }))
    await finish(first ?? '')
    await finish(second ?? '')
    expect(await claim()).toBeNull()
    await finish(third ?? '')
    expect(await claim()).toBe(fourth)
  })

  it('follows the workspace to another plan (Pro runs two at once)', async () => {
    const workspace = await workspaceOn('free')
    const [first, second] = await workspace.queue(3)
    expect(await claim()).toBe(first)
    expect(await claim()).toBeNull()
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, workspace.id))
    expect(await claim()).toBe(second)
    // The third waits: two run.
    expect(await claim()).toBeNull()
  })

  it('claims racing from many workers never run more than the plan allows', async () => {
    const plan = await newPlan('Queue two at a time', '2')
    for (let round = 0; round < 5; round++) {
      const limited = await workspaceOn(plan.slug)
      const free = await workspaceOn('free')
      await limited.queue(6)
      const [theirs] = await free.queue(1)
      const claimed = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(`worker-${i}`)))
      const ids = claimed.filter((id) => id !== null)
      // Two of the limited workspace's runs and the Free workspace's one; nothing else.
      expect(ids).toHaveLength(3)
      expect(new Set(ids).size).toBe(3)
      expect(ids).toContain(theirs)
      expect(await runningIn(limited.id)).toBe(2)
      expect(await runningIn(free.id)).toBe(1)
      await emptyQueue()
    }
  })

  it.skipIf(!onPostgres)('skips a queued run another transaction holds instead of waiting for it', async () => {
    const first = await workspaceOn('free')
    const second = await workspaceOn('free')
    const [held] = await first.queue(1)
    const [next] = await second.queue(1)
    await t.db.transaction(async (tx) => {
      // A cancel of the oldest run, say, holds its row.
      await tx
        .select()
        .from(automationRuns)
        .where(eq(automationRuns.id, held ?? ''))
        .for('update')
      expect(await claim()).toBe(next)
    })
    expect(await claim()).toBe(held)
  })
})
