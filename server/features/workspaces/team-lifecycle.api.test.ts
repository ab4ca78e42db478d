/**
 * A team workspace over its life (docs/decisions/021): a customer of its own (its subscription,
 * credits and plan caps), renamed by its admins, its ownership transferred, an invitation that
 * expired, the last owner who cannot step down, and deleting it.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automations, workspaceInvitations, workspaces } from '#server/db/schema/index.ts'
import { checkoutUserToken } from '#server/features/billing/checkout-token.ts'
import { signPaddleBody } from '#server/features/billing/paddle-signature.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '#server/testing/create-test-app.ts'

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Workspace = { id: string; name: string; kind: string; role: string; plan: string; credits: number }

const SECRET = 'pdl_ntfset_01_team_lifecycle_secret'
let t: TestApp
let owner: Member
let colleague: Member
let team: Workspace
let seq = 0

const json = async <T>(response: Response, status: number): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: T }).data
}
const message = async (response: Response) => ((await response.json()) as { message: string }).message
const inTeam = (member: Member, init: Parameters<TestApp['request']>[1] = {}) => ({
  ...init,
  token: member.token,
  headers: { ...init.headers, 'x-workspace-id': team.id },
})

/** A correctly signed Paddle event for the team's checkout (custom data names the paying workspace). */
async function paddle(type: string, data: Record<string, unknown>, occurredAt = new Date()) {
  const raw = JSON.stringify({ event_id: `evt_team_${++seq}`, event_type: type, occurred_at: occurredAt.toISOString(), data })
  const response = await t.request('/api/webhooks/paddle', {
    method: 'POST',
    body: raw,
    headers: { 'Paddle-Signature': signPaddleBody(raw, SECRET) },
  })
  expect(response.status).toBe(200)
}
const customData = (workspaceId: string) => ({
  user_id: workspaceId,
  plan: 'pro',
  user_token: checkoutUserToken(TEST_AUTH_SECRET, workspaceId),
})

async function joinTeam(member: Member, role: 'admin' | 'member' | 'viewer') {
  await json(await t.request('/api/workspaces/current/invitations', inTeam(owner, { body: { email: member.email, role } })), 201)
  const [invitation] = await t.db.select().from(workspaceInvitations).where(eq(workspaceInvitations.email, member.email))
  expect(invitation).toBeDefined()
  // The token is mailed, and only its hash stored: read it from the outbox as the invitee would.
  const outbox = await json<{ to: string; text: string }[]>(await t.request('/api/mail/outbox?limit=50', { token: adminToken }), 200)
  const link = outbox.find((mail) => mail.to === member.email)?.text.match(/token=([^\s]+)/)?.[1]
  expect(link).toBeDefined()
  await json(
    await t.request('/api/workspaces/invitations/accept', { token: member.token, body: { token: decodeURIComponent(link!) } }),
    200,
  )
}

let adminToken: string

beforeAll(async () => {
  t = await createTestApp({ billing: { PADDLE_CLIENT_TOKEN: 'test_client_token', PADDLE_WEBHOOK_SECRET: SECRET } })
  owner = await t.signUp({ email: 'tina@example.com', fullName: 'Tina Teamowner' })
  colleague = await t.signUp({ email: 'carl@example.com', fullName: 'Carl Colleague' })
  adminToken = (await t.signUp({ role: 'admin' })).token
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  team = await json<Workspace>(await t.request('/api/workspaces', { token: owner.token, body: { name: 'Night shift' } }), 201)
})
afterAll(async () => {
  await t?.close()
})

describe('a team is a customer of its own', () => {
  it("caps apply by the team's plan, not its owner's; the team's subscription and credits are its own", async () => {
    const automation = await json<{ id: string }>(
      await t.request(
        '/api/automations',
        inTeam(owner, { body: { name: 'Count', steps: [{ type: 'navigate', url: 'https://example.com' }] } }),
      ),
      201,
    )
    // The team is on Free (5 runs a month) while its owner's personal workspace is on Business.
    for (let run = 0; run < 5; run++) {
      await json(await t.request(`/api/automations/${automation.id}/runs`, inTeam(owner, { body: { where: 'client' } })), 201)
    }
    const capped = await t.request(`/api/automations/${automation.id}/runs`, inTeam(owner, { body: { where: 'client' } }))
    expect(capped.status).toBe(409)
    expect(await message(capped)).toContain('The Free plan includes 5 automation runs per month')
    // The cloud needs credits, and a new team has none.
    const broke = await t.request(`/api/automations/${automation.id}/runs`, inTeam(owner, { body: { where: 'cloud' } }))
    expect(broke.status).toBe(409)

    const personalBefore = await json<Workspace>(await t.request('/api/workspaces/current', { token: owner.token }), 200)
    await paddle(
      'subscription.created',
      {
        id: 'sub_team_1',
        status: 'active',
        customer_id: 'ctm_team',
        custom_data: customData(team.id),
        items: [{ price: { id: 'pro-monthly-plan' }, quantity: 1 }],
        next_billed_at: '2026-12-25T10:00:00.000Z',
        scheduled_change: null,
      },
      new Date(Date.now() - 1000),
    )
    await paddle('transaction.completed', {
      id: 'txn_team_1',
      status: 'completed',
      customer_id: 'ctm_team',
      subscription_id: 'sub_team_1',
      origin: 'web',
      currency_code: 'USD',
      custom_data: customData(team.id),
      items: [{ price: { id: 'pro-monthly-plan' }, quantity: 1 }],
      details: { totals: { grand_total: '2900' } },
      payments: [{ method_details: { type: 'card', card: { type: 'visa', last4: '4242' } } }],
      billed_at: new Date().toISOString(),
      created_at: new Date().toISOString(),
    })
    const paid = await json<Workspace>(await t.request('/api/workspaces/current', inTeam(owner)), 200)
    expect(paid).toMatchObject({ plan: 'pro', credits: 1000 })
    const personalAfter = await json<Workspace>(await t.request('/api/workspaces/current', { token: owner.token }), 200)
    expect(personalAfter).toMatchObject({ plan: 'business', credits: personalBefore.credits })
    // Pro has unlimited runs: the team runs again.
    await json(await t.request(`/api/automations/${automation.id}/runs`, inTeam(owner, { body: { where: 'client' } })), 201)
  })

  it('a team with a live subscription cannot be deleted', async () => {
    const refused = await t.request('/api/workspaces/current', inTeam(owner, { method: 'DELETE' }))
    expect(refused.status).toBe(409)
    expect(await message(refused)).toContain('cancel it on the Billing page')
  })
})

describe('people in a team', () => {
  it('admins rename the workspace; an expired invitation says so', async () => {
    await joinTeam(colleague, 'admin')
    const renamed = await json<Workspace>(
      await t.request('/api/workspaces/current', inTeam(colleague, { method: 'PATCH', body: { name: 'Day shift' } })),
      200,
    )
    expect(renamed.name).toBe('Day shift')

    const late = await t.signUp({ email: 'late@example.com' })
    await json(await t.request('/api/workspaces/current/invitations', inTeam(owner, { body: { email: late.email, role: 'member' } })), 201)
    await t.db
      .update(workspaceInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(workspaceInvitations.email, late.email))
    const outbox = await json<{ to: string; text: string }[]>(await t.request('/api/mail/outbox?limit=50', { token: adminToken }), 200)
    const token = decodeURIComponent(outbox.find((mail) => mail.to === late.email)?.text.match(/token=([^\s]+)/)?.[1] ?? '')
    const expired = await t.request('/api/workspaces/invitations/accept', { token: late.token, body: { token } })
    expect(expired.status).toBe(409)
    expect(await message(expired)).toBe('This invitation has expired: ask for a new one.')
  })

  it('the last owner cannot step down; ownership moves by transfer, and the old owner stays as an admin', async () => {
    const demote = await t.request(
      `/api/workspaces/current/members/${owner.id}`,
      inTeam(owner, { method: 'PATCH', body: { role: 'admin' } }),
    )
    expect(demote.status).toBe(409)
    expect(await message(demote)).toBe('A workspace needs an owner: transfer ownership to someone else first.')
    // An admin may not hand ownership around.
    expect((await t.request('/api/workspaces/current/transfer', inTeam(colleague, { body: { userId: colleague.id } }))).status).toBe(403)

    await json(await t.request('/api/workspaces/current/transfer', inTeam(owner, { body: { userId: colleague.id } })), 200)
    const members = await json<{ email: string; role: string }[]>(await t.request('/api/workspaces/current/members', inTeam(owner)), 200)
    expect(members.map((entry) => [entry.email, entry.role])).toEqual([
      [colleague.email, 'owner'],
      [owner.email, 'admin'],
    ])
    // Now the former owner may not delete it; the new owner may once the subscription has ended.
    expect((await t.request('/api/workspaces/current', inTeam(owner, { method: 'DELETE' }))).status).toBe(403)
    const activity = await json<{ action: string; summary: string }[]>(
      await t.request('/api/workspaces/current/activity', inTeam(colleague)),
      200,
    )
    expect(activity[0]).toMatchObject({ action: 'workspace.transfer', summary: 'Transferred ownership to Carl Colleague' })
  })

  it('deleting the team deletes its automations; its people keep their own workspaces', async () => {
    await paddle('subscription.canceled', {
      id: 'sub_team_1',
      status: 'canceled',
      customer_id: 'ctm_team',
      custom_data: customData(team.id),
      items: [{ price: { id: 'pro-monthly-plan' }, quantity: 1 }],
      next_billed_at: null,
      scheduled_change: null,
      canceled_at: new Date().toISOString(),
    })
    await json(await t.request('/api/workspaces/current', inTeam(colleague, { method: 'DELETE' })), 200)
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, team.id))).toEqual([])
    expect(await t.db.select().from(automations).where(eq(automations.workspaceId, team.id))).toEqual([])
    expect((await t.request('/api/workspaces/current', inTeam(owner))).status).toBe(403)
    const personal = await json<Workspace>(await t.request('/api/workspaces/current', { token: colleague.token }), 200)
    expect(personal).toMatchObject({ id: colleague.id, kind: 'personal' })
  })
})
