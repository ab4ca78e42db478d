import { and, count, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LimitReached, RateLimited } from '#common/errors.ts'
import { creditLedger, rateLimits, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { MODEL_CALLS_PER_MINUTE, type ModelCallPayer } from './model-calls.ts'

// Model calls (docs/decisions/020): paid by the workspace (credits, the plan's monthly
// allowance), rate limited per member, refused with a message that names the plan that allows more.

type Account = Awaited<ReturnType<TestApp['signUp']>>
let t: TestApp
let owner: Account
let teammate: Account

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  teammate = await t.signUp()
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.db.delete(rateLimits)
  await t.db.delete(creditLedger).where(eq(creditLedger.reason, 'model_call'))
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 10_000 }).where(eq(workspaces.id, owner.id))
})

const callsOf = async (workspaceId: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(creditLedger)
      .where(and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.reason, 'model_call')))
  )[0]?.n

/** This month's calls of a workspace, as the ledger counts them (no credits taken). */
const used = (workspaceId: string, n: number) =>
  t.db.execute(
    sql`insert into credit_ledger (workspace_id, delta, balance_after, reason, reference) select ${workspaceId}, 0, 0, 'model_call', 'earlier' from generate_series(1, ${n})`,
  )

const refusalOf = async (payer: ModelCallPayer, purpose: 'planning' | 'repair') => {
  const error = await t.services.modelCalls.charge(payer, purpose, 'test').then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(LimitReached)
  return (error as LimitReached).message
}

describe('the per-minute limit', () => {
  it('counts per member: one member at the limit does not stop a teammate in the same workspace', async () => {
    const workspaceId = owner.id
    const byOwner = { workspaceId, memberId: owner.id }
    for (let i = 0; i < MODEL_CALLS_PER_MINUTE; i++) await t.services.modelCalls.charge(byOwner, 'planning', `call ${i}`)
    const refused = await t.services.modelCalls.charge(byOwner, 'planning', 'one too many').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RateLimited)
    expect((refused as RateLimited).message).toBe('At most 30 AI model calls a minute per member; try again in a moment.')

    // The teammate's calls, paid by the same workspace, are their own to count.
    await t.services.modelCalls.charge({ workspaceId, memberId: teammate.id }, 'repair', 'run of the teammate')
    // The member's limit holds in every workspace they work in.
    await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, teammate.id))
    const elsewhere = await t.services.modelCalls
      .charge({ workspaceId: teammate.id, memberId: owner.id }, 'planning', 'in another workspace')
      .catch((error: unknown) => error)
    expect(elsewhere).toBeInstanceOf(RateLimited)

    // Refused calls cost nothing; every call made was paid by the workspace it was for.
    expect(await callsOf(workspaceId)).toBe(MODEL_CALLS_PER_MINUTE + 1)
    expect(await callsOf(teammate.id)).toBe(0)
  })

  it('counts a run nobody is known to have started against its workspace', async () => {
    const orphan = { workspaceId: owner.id, memberId: null }
    for (let i = 0; i < MODEL_CALLS_PER_MINUTE; i++) await t.services.modelCalls.charge(orphan, 'repair', `run ${i}`)
    await expect(t.services.modelCalls.charge(orphan, 'repair', 'one too many')).rejects.toBeInstanceOf(RateLimited)
    // The members of that workspace still have their own.
    await t.services.modelCalls.charge({ workspaceId: owner.id, memberId: owner.id }, 'planning', 'the owner plans')
  })
})

describe('the monthly allowance', () => {
  it('names the cheapest plan with more calls, for what the calls are for', async () => {
    // A plan with the features but no calls, and a cheaper-than-Pro plan with calls for planning only.
    await t.db.insert(subscriptionPlans).values([
      { name: 'Starter', slug: 'starter', price: 5, aiPlanning: true, modelRepair: true, monthlyModelCalls: 0, sortOrder: 10 },
      { name: 'Planner', slug: 'planner', price: 9, aiPlanning: true, modelRepair: false, monthlyModelCalls: 50, sortOrder: 11 },
    ])
    await t.db.update(workspaces).set({ planSlug: 'starter' }).where(eq(workspaces.id, owner.id))
    const payer = { workspaceId: owner.id, memberId: owner.id }
    expect(await refusalOf(payer, 'planning')).toBe(
      'The Starter plan includes no AI model calls; the Planner plan includes 50 a month. Upgrade to use the AI model.',
    )
    // Planner cannot repair with the model: Pro is the cheapest plan whose calls repair.
    expect(await refusalOf(payer, 'repair')).toBe(
      'The Starter plan includes no AI model calls; the Pro plan includes 300 a month. Upgrade to use the AI model.',
    )
    expect(await callsOf(owner.id)).toBe(0)
    await t.db.delete(subscriptionPlans).where(eq(subscriptionPlans.slug, 'planner'))
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    await t.db.delete(subscriptionPlans).where(eq(subscriptionPlans.slug, 'starter'))
  })

  it('when this month’s are used, names the plan with more, or says when more arrive', async () => {
    const payer = { workspaceId: owner.id, memberId: owner.id }
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, owner.id))
    await used(owner.id, 300)
    expect(await refusalOf(payer, 'planning')).toBe(
      "The Pro plan includes 300 AI model calls per month, and this month's are used; the Business plan includes 2,000 a month. Upgrade to use more.",
    )

    // An admin lifts Business's monthly limit.
    await t.db.update(subscriptionPlans).set({ monthlyModelCalls: null }).where(eq(subscriptionPlans.slug, 'business'))
    try {
      expect(await refusalOf(payer, 'repair')).toBe(
        "The Pro plan includes 300 AI model calls per month, and this month's are used; the Business plan has AI model calls without a monthly limit. Upgrade to use more.",
      )
    } finally {
      await t.db.update(subscriptionPlans).set({ monthlyModelCalls: 2000 }).where(eq(subscriptionPlans.slug, 'business'))
    }

    // No plan has more than Business.
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    await used(owner.id, 1700)
    expect(await refusalOf(payer, 'planning')).toBe(
      "The Business plan includes 2,000 AI model calls per month, and this month's are used. More arrive on the first day of next month.",
    )
    expect(await callsOf(owner.id)).toBe(2000)
  })
})
