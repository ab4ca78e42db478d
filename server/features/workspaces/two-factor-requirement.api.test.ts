import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { enableTwoFactor } from '#server/testing/totp.ts'

// A team that requires two-factor sign-in (docs/decisions/023): only an owner who has it may turn
// the rule on; members without it are refused in that workspace (403, TWO_FACTOR_REQUIRED) by
// every route that works in a workspace, API keys included; their personal workspace is unaffected.

type Member = Awaited<ReturnType<TestApp['signUp']>>

let t: TestApp
let owner: Member
let admin: Member
let member: Member
let teamId: string
let memberKey: string

const inTeam = (who: { token: string }, init: Parameters<TestApp['request']>[1] = {}) => ({
  ...init,
  token: who.token,
  headers: { ...init.headers, 'x-workspace-id': teamId },
})
const requireTwoFactor = (who: { token: string }, on: boolean) =>
  t.request('/api/workspaces/current', inTeam(who, { method: 'PATCH', body: { requireTwoFactor: on } }))

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp({ email: 'olga@example.com' })
  admin = await t.signUp({ email: 'adam@example.com' })
  member = await t.signUp({ email: 'mia@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const created = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Secure team' } })
  teamId = ((await created.json()) as { data: { id: string } }).data.id
  await t.db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: admin.id, role: 'admin' },
    { workspaceId: teamId, userId: member.id, role: 'member' },
  ])
  const key = await t.request('/api/keys', inTeam(member, { body: { name: 'Team script' } }))
  memberKey = ((await key.json()) as { data: { key: string } }).data.key
})
afterAll(async () => {
  await t.close()
})

describe('turning the requirement on', () => {
  it('is refused to an owner who does not have two-factor sign-in on', async () => {
    const response = await requireTwoFactor(owner, true)
    expect(response.status).toBe(409)
    expect(((await response.json()) as { message: string }).message).toMatch(/Turn on two-factor sign-in for your own account/)
  })

  it('is refused to a workspace admin (owners decide), even with two-factor on', async () => {
    await enableTwoFactor(t, admin)
    const response = await requireTwoFactor(admin, true)
    expect(response.status).toBe(403)
  })

  it('is refused in a personal workspace', async () => {
    await enableTwoFactor(t, owner)
    const response = await t.request('/api/workspaces/current', { token: owner.token, method: 'PATCH', body: { requireTwoFactor: true } })
    expect(response.status).toBe(409)
  })

  it('works for an owner with two-factor on', async () => {
    const response = await requireTwoFactor(owner, true)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { data: { requireTwoFactor: boolean } }).data.requireTwoFactor).toBe(true)
  })
})

describe('a member without two-factor sign-in', () => {
  it('is refused (403, TWO_FACTOR_REQUIRED) by the routes of that workspace, before validation', async () => {
    for (const [path, init] of [
      ['/api/automations', {}],
      ['/api/workspaces/current', {}],
      ['/api/automations', { body: { name: '' } }],
      ['/api/workspaces/current/activity', {}],
    ] as const) {
      const response = await t.request(path, inTeam(member, init))
      expect(response.status, path).toBe(403)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('TWO_FACTOR_REQUIRED')
      expect(body.message).toBe('This workspace requires two-factor sign-in. Set it up in Settings (Two-factor sign-in), then try again.')
    }
  })

  it('is refused with their API key for that workspace too', async () => {
    const response = await t.request('/api/automations', { token: memberKey })
    expect(response.status).toBe(403)
    expect(((await response.json()) as { code: string }).code).toBe('TWO_FACTOR_REQUIRED')
  })

  it('still works in their personal workspace, and can set two-factor up', async () => {
    expect((await t.request('/api/automations', { token: member.token })).status).toBe(200)
    expect((await t.request('/api/workspaces', { token: member.token })).status).toBe(200)
    await enableTwoFactor(t, member)
    expect((await t.request('/api/automations', inTeam(member))).status).toBe(200)
    expect((await t.request('/api/automations', { token: memberKey })).status).toBe(200)
  })

  it('is refused again once their two-factor is reset, until they set it up anew', async () => {
    const siteAdmin = await t.signUp({ role: 'admin' })
    expect((await t.request(`/api/users/${member.id}/reset-two-factor`, { token: siteAdmin.token, body: {} })).status).toBe(200)
    expect((await t.request('/api/automations', inTeam(member))).status).toBe(403)
  })

  it('nobody is refused once the owner turns the requirement off', async () => {
    expect((await requireTwoFactor(owner, false)).status).toBe(200)
    expect((await t.request('/api/automations', inTeam(member))).status).toBe(200)
  })
})
