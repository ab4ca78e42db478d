import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { Forbidden } from '#common/errors.ts'
import { auditLog, automationRuns, automations, workspaceMembers, workspaces, type RunRepair } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// "Apply fix" in a team workspace (docs/decisions/019, 021): a run belongs to its workspace, so
// any member who may change automations there applies its repair, whoever started the run; a
// viewer only reads it; from another workspace the run is unknown.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Body = { data?: { automationId: string; version: number; step: number }; message?: string }

let t: TestApp
let owner: Account
let builder: Account
let viewer: Account
let outsider: Account
let teamId: string

const STEPS: AutomationStep[] = [
  { type: 'navigate', url: 'https://example.com/signin' },
  { type: 'click', target: [{ by: 'css', selector: '#go' }] },
]
const REPAIR: RunRepair = {
  step: 2,
  failed: { by: 'css', selector: '#go' },
  used: { by: 'role', role: 'button', name: 'Sign in' },
  how: 'similar',
  at: new Date().toISOString(),
}

async function call(account: Account, path: string, init: { body?: unknown; workspace?: string | null } = {}) {
  const workspace = init.workspace === undefined ? teamId : init.workspace
  const response = await t.request(path, {
    method: 'POST',
    body: init.body,
    token: account.token,
    headers: workspace ? { 'x-workspace-id': workspace } : {},
  })
  return { status: response.status, body: (await response.json()) as Body }
}

/** The owner's automation in the team and a run of it, started by the owner, that repaired step 2. */
async function repairedRun(): Promise<{ automationId: string; runId: string }> {
  const created = await t.request('/api/automations', {
    token: owner.token,
    headers: { 'x-workspace-id': teamId },
    body: { name: 'Team sign-in', steps: STEPS },
  })
  expect(created.status, await created.clone().text()).toBe(201)
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const started = await call(owner, `/api/automations/${automationId}/runs`, { body: { where: 'client' } })
  expect(started.status).toBe(201)
  const runId = (started.body.data as unknown as { id: string }).id
  await t.db
    .update(automationRuns)
    .set({ repairs: [REPAIR] })
    .where(eq(automationRuns.id, runId))
  return { automationId, runId }
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  builder = await t.signUp()
  viewer = await t.signUp()
  outsider = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Support team' } })
  expect(team.status).toBe(201)
  teamId = ((await team.json()) as { data: { id: string } }).data.id
  // Pro has no monthly run cap: the team starts as many runs as the tests need.
  await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, teamId))
  // Joined as an accepted invitation leaves them (invitations: workspaces.api.test.ts).
  await t.db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: builder.id, role: 'member' },
    { workspaceId: teamId, userId: viewer.id, role: 'viewer' },
  ])
})
afterAll(async () => {
  await t.close()
})

describe('Apply fix in a team workspace', () => {
  it('a member applies the fix of a run the owner started', async () => {
    const { automationId, runId } = await repairedRun()
    const applied = await call(builder, `/api/runs/${runId}/repairs/2/apply`)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.data).toEqual({ automationId, version: 2, step: 2 })

    const [automation] = await t.db.select().from(automations).where(eq(automations.id, automationId))
    expect(automation?.steps[1]).toEqual({ type: 'click', target: [REPAIR.used, REPAIR.failed] })
    const [run] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId))
    expect(run?.repairs).toEqual([{ ...REPAIR, appliedInVersion: 2 }])
    // The workspace's activity says who applied it.
    const activity = await t.db.select().from(auditLog).where(eq(auditLog.targetId, automationId))
    expect(activity.find((entry) => entry.action === 'automation.repair')).toMatchObject({
      actorId: builder.id,
      workspaceId: teamId,
      summary: 'Applied a fix to step 2 of Team sign-in',
    })
  })

  it('a viewer is refused (403) by the route and by the service the run page calls; the automation is unchanged', async () => {
    const { automationId, runId } = await repairedRun()
    const refused = await call(viewer, `/api/runs/${runId}/repairs/2/apply`)
    expect(refused.status).toBe(403)
    const caller = {
      id: viewer.id,
      email: viewer.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: teamId, role: 'viewer' as const },
    }
    const error = await t.services.repairs.applyRepair(runId, caller, 2).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Forbidden)
    expect((error as Forbidden).message).toBe('Applying a fix needs the Member role in this workspace; you are viewer.')
    const [automation] = await t.db.select().from(automations).where(eq(automations.id, automationId))
    expect(automation).toMatchObject({ version: 1, steps: STEPS })
  })

  it('from another workspace the run is unknown (404), also to a member of the team working elsewhere', async () => {
    const { runId } = await repairedRun()
    const outside = await call(outsider, `/api/runs/${runId}/repairs/2/apply`, { workspace: null })
    expect(outside.status).toBe(404)
    // The team's member, in their personal workspace.
    const elsewhere = await call(builder, `/api/runs/${runId}/repairs/2/apply`, { workspace: null })
    expect(elsewhere.status).toBe(404)
    // Naming a workspace one is not in is refused before anything is looked up.
    expect((await call(outsider, `/api/runs/${runId}/repairs/2/apply`)).status).toBe(403)
    // Still there to apply for the team.
    expect((await call(owner, `/api/runs/${runId}/repairs/2/apply`)).status).toBe(200)
  })
})
