import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RateLimited } from '#common/errors.ts'
import { creditLedger, rateLimits, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { MODEL_CALLS_PER_MINUTE } from './model-calls.ts'

// Model calls (docs/decisions/020): paid by the workspace (credits, the plan's monthly
// allowance), rate limited per member.

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
