import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automations, mailOutbox, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { eventReader } from '#server/testing/event-stream-reader.ts'

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Workspace = { id: string; name: string; kind: string; role: string; plan: string; credits: number }

let t: TestApp
let owner: Member
let invitee: Member
let outsider: Member
let team: Workspace

const json = async <T>(response: Response, status: number): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: T }).data
}
const inTeam = (member: Member, init: Parameters<TestApp['request']>[1] = {}) => ({
  ...init,
  token: member.token,
  headers: { ...init.headers, 'x-workspace-id': team.id },
})

/** The link of the newest invitation mailed to this address, as the invitee would click it. */
async function invitationToken(email: string): Promise<string> {
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1)
  const token = /\/invitations\/accept\?token=([^\s]+)/.exec(mail?.text ?? '')?.[1]
  if (!token) throw new Error(`no invitation mailed to ${email}`)
  return decodeURIComponent(token)
}

async function invite(email: string, role: string) {
  return t.request('/api/workspaces/current/invitations', inTeam(owner, { body: { email, role } }))
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp({ email: 'owner@example.com', fullName: 'Olga Owner' })
  invitee = await t.signUp({ email: 'ivan@example.com', fullName: 'Ivan Invitee' })
  outsider = await t.signUp({ email: 'otto@example.com', fullName: 'Otto Outsider' })
})
afterAll(async () => {
  await t.close()
})

describe('personal workspaces', () => {
  it('every new member has one, with their id, as its owner, holding their sign-up credits', async () => {
    const current = await json<Workspace>(await t.request('/api/workspaces/current', { token: owner.token }), 200)
    expect(current).toMatchObject({ id: owner.id, kind: 'personal', role: 'owner', plan: 'free' })
    const me = await json<{ profile: { credits: number } }>(await t.request('/api/auth/me', { token: owner.token }), 200)
    expect(current.credits).toBe(me.profile.credits)
  })

  it('a personal workspace takes no invitations', async () => {
    const response = await t.request('/api/workspaces/current/invitations', { token: owner.token, body: { email: 'x@example.com' } })
    expect(response.status).toBe(409)
  })
})

describe('team workspaces', () => {
  it('need a plan with team workspaces, and name the plan that has them', async () => {
    const refused = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Ops team' } })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { message: string }).message).toContain('Business')
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    team = await json<Workspace>(await t.request('/api/workspaces', { token: owner.token, body: { name: 'Ops team' } }), 201)
    expect(team).toMatchObject({ name: 'Ops team', kind: 'team', role: 'owner', plan: 'free', credits: 0 })
  })

  it('answers 403 before validation when the request names a workspace the caller is not in', async () => {
    const response = await t.request('/api/automations', inTeam(outsider, { body: { name: '' } }))
    expect(response.status).toBe(403)
  })

  it('invites by e-mail; the link works once, for the address it was sent to', async () => {
    await json(await invite(invitee.email, 'viewer'), 201)
    const token = await invitationToken(invitee.email)
    const wrongPerson = await t.request('/api/workspaces/invitations/accept', { token: outsider.token, body: { token } })
    expect(wrongPerson.status).toBe(403)
    const joined = await json<{ workspaceId: string }>(
      await t.request('/api/workspaces/invitations/accept', { token: invitee.token, body: { token } }),
      200,
    )
    expect(joined.workspaceId).toBe(team.id)
    const again = await t.request('/api/workspaces/invitations/accept', { token: invitee.token, body: { token } })
    expect(again.status).toBe(409)
    const members = await json<{ email: string; role: string }[]>(await t.request('/api/workspaces/current/members', inTeam(owner)), 200)
    expect(members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [invitee.email, 'viewer'],
    ])
  })

  it('a viewer reads but changes nothing; a member builds', async () => {
    const created = await json<{ id: string }>(
      await t.request(
        '/api/automations',
        inTeam(owner, { body: { name: 'Team check', steps: [{ type: 'navigate', url: 'https://example.com' }] } }),
      ),
      201,
    )
    const seen = await json<{ id: string }[]>(await t.request('/api/automations', inTeam(invitee)), 200)
    expect(seen.map((a) => a.id)).toEqual([created.id])
    // Refused before the (invalid) body is read.
    expect((await t.request('/api/automations', inTeam(invitee, { body: { name: '' } }))).status).toBe(403)
    expect((await t.request(`/api/automations/${created.id}`, inTeam(invitee, { method: 'DELETE' }))).status).toBe(403)
    // Not in the invitee's personal workspace, nor anyone else's.
    expect((await t.request(`/api/automations/${created.id}`, { token: invitee.token })).status).toBe(404)
    expect((await t.request(`/api/automations/${created.id}`, { token: outsider.token })).status).toBe(404)

    await json(
      await t.request(`/api/workspaces/current/members/${invitee.id}`, inTeam(owner, { method: 'PATCH', body: { role: 'member' } })),
      200,
    )
    const renamed = await json<{ name: string }>(
      await t.request(`/api/automations/${created.id}`, inTeam(invitee, { method: 'PUT', body: { name: 'Team check, renamed' } })),
      200,
    )
    expect(renamed.name).toBe('Team check, renamed')
    // A member cannot manage people.
    expect((await t.request('/api/workspaces/current/invitations', inTeam(invitee, { body: { email: 'y@example.com' } }))).status).toBe(403)
  })

  it('enforces the seats of the plan, counting pending invitations, with a clear message', async () => {
    // Free: 3 seats. Owner and invitee take two; one pending invitation takes the third.
    await json(await invite('third@example.com', 'member'), 201)
    const full = await invite('fourth@example.com', 'member')
    expect(full.status).toBe(409)
    expect(((await full.json()) as { message: string }).message).toMatch(/includes 3 seats per workspace, and all are taken/)
  })

  it('removing someone keeps what they built; the last owner cannot leave', async () => {
    const built = await json<{ id: string }>(
      await t.request('/api/automations', inTeam(invitee, { body: { name: 'Built by Ivan', steps: [] } })),
      201,
    )
    await json(await t.request(`/api/workspaces/current/members/${invitee.id}`, inTeam(owner, { method: 'DELETE' })), 200)
    const [kept] = await t.db.select().from(automations).where(eq(automations.id, built.id))
    expect(kept?.workspaceId).toBe(team.id)
    expect((await t.request('/api/automations', inTeam(invitee))).status).toBe(403)
    const leaving = await t.request('/api/workspaces/current/leave', inTeam(owner, { method: 'POST' }))
    expect(leaving.status).toBe(409)
  })

  it('shows who did what on the activity page, newest first', async () => {
    const page = (await (await t.request('/api/workspaces/current/activity', inTeam(owner))).json()) as {
      data: { action: string; actor: { email: string } }[]
    }
    const actions = page.data.map((entry) => entry.action)
    for (const action of [
      'workspace.create',
      'invitation.create',
      'invitation.accept',
      'member.role',
      'automation.create',
      'automation.update',
      'member.remove',
    ]) {
      expect(actions).toContain(action)
    }
    expect(page.data[0]?.action).toBe('member.remove')
    // Another workspace's activity is not there.
    expect((await t.request('/api/workspaces/current/activity', inTeam(outsider))).status).toBe(403)
  })
})

describe('what a review found (each refused)', () => {
  it('an admin cannot invite another admin; only an owner can', async () => {
    const admin = await t.signUp()
    await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: admin.id, role: 'admin' })
    const byAdmin = await t.request(
      '/api/workspaces/current/invitations',
      inTeam(admin, { body: { email: 'alt@example.com', role: 'admin' } }),
    )
    expect(byAdmin.status).toBe(403)
    expect(((await byAdmin.json()) as { message: string }).message).toBe('Only an owner can invite admins.')
    await t.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, admin.id))
  })

  it('a viewer can neither inspect pages nor plan with the workspace credits, whatever calls the service', async () => {
    const viewer = await t.signUp()
    const caller = {
      id: viewer.id,
      email: viewer.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: team.id, role: 'viewer' as const },
    }
    await expect(
      t.services.planning.plan(caller, { description: 'click Send', startUrl: 'https://example.com', planner: 'offline' }),
    ).rejects.toMatchObject({
      status: 403,
    })
    await expect(t.services.planning.inspect(caller, { url: 'https://example.com', steps: [] })).rejects.toMatchObject({ status: 403 })
  })

  it('a malformed invitation id is not found, not a server error', async () => {
    const actor = { id: owner.id, email: owner.email, workspace: (await t.services.workspaces.access(owner.id, team.id))! }
    await expect(t.services.invitations.revoke(actor, 'not-a-uuid')).rejects.toMatchObject({ status: 404 })
  })

  it('a member removed from the workspace stops receiving its live run events', async () => {
    const watcher = await t.signUp()
    await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: watcher.id, role: 'viewer' })
    const response = await t.request('/api/runs/events', inTeam(watcher))
    expect(response.status).toBe(200)
    const events = eventReader(response)
    try {
      expect((await events.next()).event).toBe('ready')
      t.services.events.publish('run', { id: crypto.randomUUID(), workspaceId: team.id, status: 'running', automationId: null })
      expect((await events.next()).event).toBe('run')
      await json(await t.request(`/api/workspaces/current/members/${watcher.id}`, inTeam(owner, { method: 'DELETE' })), 200)
      t.services.events.publish('run', { id: crypto.randomUUID(), workspaceId: team.id, status: 'running', automationId: null })
      await expect(events.next()).rejects.toThrow('the stream ended')
    } finally {
      await events.cancel().catch(() => {})
    }
  })
})
