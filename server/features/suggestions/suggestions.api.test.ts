import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, type RunRepair } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Suggestion = { id: string; kind: string; step: number | null; title: string; change: { steps?: AutomationStep[] } }
type Body = { data?: unknown; message?: string; code?: string }

let t: TestApp
let admin: Account
beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

const SIGN_IN = [
  { by: 'role', role: 'button', name: 'Sign in' },
  { by: 'css', selector: '#login' },
]
const STEPS = [
  { type: 'navigate', url: 'https://example.com/login' },
  { type: 'wait', ms: 3000 },
  { type: 'click', target: SIGN_IN },
]

async function call(account: Account | null, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await t.request(path, { ...init, token: account?.token })
  return { status: response.status, body: (await response.json()) as Body }
}

async function setPlan(account: Account, plan: string) {
  expect((await call(admin, `/api/users/${account.id}`, { method: 'PUT', body: { plan } })).status).toBe(200)
}

async function createAutomation(account: Account): Promise<{ id: string; name: string; steps: AutomationStep[]; version: number }> {
  const { status, body } = await call(account, '/api/automations', { body: { name: 'Sign in', steps: STEPS } })
  expect(status, JSON.stringify(body)).toBe(201)
  return body.data as { id: string; name: string; steps: AutomationStep[]; version: number }
}

/** Past runs as the worker leaves them: each found step 3's button by its CSS instead. */
async function repairedRuns(account: Account, automation: { id: string; name: string; steps: AutomationStep[] }, count: number) {
  const repair: RunRepair = {
    step: 3,
    failed: { by: 'role', role: 'button', name: 'Sign in' },
    used: { by: 'css', selector: '#login' },
    how: 'alternative',
    at: new Date().toISOString(),
  }
  await t.db.insert(automationRuns).values(
    Array.from({ length: count }, () => ({
      automationId: automation.id,
      automationName: automation.name,
      workspaceId: account.id,
      userId: account.id,
      status: 'succeeded' as const,
      trigger: 'manual' as const,
      runner: 'cloud' as const,
      steps: automation.steps,
      repairs: [repair],
    })),
  )
}

const suggestionsOf = async (account: Account, automationId: string) => {
  const { status, body } = await call(account, `/api/automations/${automationId}/suggestions`)
  expect(status, JSON.stringify(body)).toBe(200)
  return body.data as Suggestion[]
}

describe('optimisation suggestions', () => {
  it('are refused on the Free plan, naming the plan that includes them', async () => {
    const member = await t.signUp()
    const automation = await createAutomation(member)
    const listed = await call(member, `/api/automations/${automation.id}/suggestions`)
    expect(listed.status).toBe(409)
    expect(listed.body.code).toBe('PLAN_LIMIT')
    expect(listed.body.message).toContain('Pro')
    const applied = await call(member, `/api/automations/${automation.id}/suggestions/0123456789abcdef/apply`, { method: 'POST' })
    expect(applied.status).toBe(409)
    expect(applied.body.code).toBe('PLAN_LIMIT')
  })

  it('are listed for a Pro member from the steps and the run history, and applied once', async () => {
    const member = await t.signUp()
    await setPlan(member, 'pro')
    const automation = await createAutomation(member)
    await repairedRuns(member, automation, 2)

    const suggestions = await suggestionsOf(member, automation.id)
    expect(suggestions.map((suggestion) => `${suggestion.kind} ${suggestion.step}`)).toEqual(['often-repaired 3', 'fixed-wait 2'])
    const fixedWait = suggestions.find((suggestion) => suggestion.kind === 'fixed-wait')
    expect(fixedWait).toMatchObject({ title: 'Wait for “Sign in” instead of 3 s' })
    if (!fixedWait) throw new Error('no fixed-wait suggestion')

    const applied = await call(member, `/api/automations/${automation.id}/suggestions/${fixedWait.id}/apply`, { method: 'POST' })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.data).toEqual({ automationId: automation.id, version: automation.version + 1 })

    const { body } = await call(member, `/api/automations/${automation.id}`)
    const after = body.data as { steps: AutomationStep[]; version: number }
    expect(after.version).toBe(automation.version + 1)
    expect(after.steps).toEqual([STEPS[0], { type: 'wait', target: SIGN_IN }, STEPS[2]])

    // Made for the version before: it (and any other suggestion of that version) no longer applies.
    const again = await call(member, `/api/automations/${automation.id}/suggestions/${fixedWait.id}/apply`, { method: 'POST' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('no longer applies') })
    const often = suggestions.find((suggestion) => suggestion.kind === 'often-repaired')
    const stale = await call(member, `/api/automations/${automation.id}/suggestions/${often?.id}/apply`, { method: 'POST' })
    expect(stale.status).toBe(409)

    // The new version has its own: the repeated repairs are still there for the unchanged step 3.
    const fresh = await suggestionsOf(member, automation.id)
    expect(fresh.map((suggestion) => `${suggestion.kind} ${suggestion.step}`)).toEqual(['often-repaired 3'])
    expect(fresh[0]?.id).not.toBe(often?.id)
  })

  it('turn self-repair on through the same change as an edit', async () => {
    const member = await t.signUp()
    await setPlan(member, 'business')
    const automation = await createAutomation(member)
    expect((await call(member, `/api/automations/${automation.id}`, { method: 'PUT', body: { selfRepair: false } })).status).toBe(200)
    await t.db.insert(automationRuns).values(
      [1, 2].map(() => ({
        automationId: automation.id,
        automationName: automation.name,
        workspaceId: member.id,
        userId: member.id,
        status: 'failed' as const,
        trigger: 'schedule' as const,
        runner: 'cloud' as const,
        steps: automation.steps,
        selfRepair: false,
        error: 'Step 3 (click): no element matches Button named “Sign in” within 15 s',
      })),
    )
    const [cluster] = await suggestionsOf(member, automation.id)
    expect(cluster).toMatchObject({ kind: 'failure-cluster', step: 3, change: { selfRepair: true } })
    const applied = await call(member, `/api/automations/${automation.id}/suggestions/${cluster?.id}/apply`, { method: 'POST' })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const { body } = await call(member, `/api/automations/${automation.id}`)
    expect(body.data).toMatchObject({ selfRepair: true, steps: STEPS, version: automation.version + 2 })
  })

  it("are the owner's only: another member and an admin get 404, a visitor 401", async () => {
    const member = await t.signUp()
    await setPlan(member, 'pro')
    const automation = await createAutomation(member)
    const [suggestion] = await suggestionsOf(member, automation.id)
    const other = await t.signUp()
    await setPlan(other, 'pro')
    const free = await t.signUp()
    const list = `/api/automations/${automation.id}/suggestions`
    const apply = `${list}/${suggestion?.id}/apply`

    for (const caller of [other, free, admin]) {
      expect((await call(caller, list)).status).toBe(404)
      expect((await call(caller, apply, { method: 'POST' })).status).toBe(404)
    }
    expect((await call(null, list)).status).toBe(401)
    expect((await call(null, apply, { method: 'POST' })).status).toBe(401)
    // A missing automation, or an id that is none, as unknown as another member's.
    expect((await call(member, '/api/automations/00000000-0000-4000-8000-000000000000/suggestions')).status).toBe(404)
    expect((await call(member, '/api/automations/not-an-id/suggestions')).status).toBe(404)

    const { body } = await call(member, `/api/automations/${automation.id}`)
    expect(body.data).toMatchObject({ version: automation.version, steps: STEPS })
  })

  it('refuse a suggestion id longer than 64 characters', async () => {
    const member = await t.signUp()
    await setPlan(member, 'pro')
    const automation = await createAutomation(member)
    const { status, body } = await call(member, `/api/automations/${automation.id}/suggestions/${'a'.repeat(65)}/apply`, {
      method: 'POST',
    })
    expect(status).toBe(400)
    expect(body.message).toContain('suggestionId')
  })
})
