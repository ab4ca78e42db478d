import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditLog,
  automationRuns,
  blogPosts,
  creditLedger,
  profiles,
  sessions,
  subscriptions,
  users,
  workspaceMembers,
  workspaces,
} from '#server/db/schema/index.ts'
import { lastAppliedToSubscription, paddleSubscriptionOf } from '#server/testing/billing-fixtures.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }
type AdminUser = {
  id: string
  email: string
  profile: {
    role: string
    subscriptionPlan: string
    subscription_plan: string
    credits: number
    fullName: string | null
    full_name: string | null
  }
}
type AuditEntry = {
  actor: { id: string | null; email: string }
  action: string
  targetType: string
  targetId: string | null
  summary: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** What a service throws for a broken rule that the API answers with 409. */
const conflict = (message: string) => ({ status: 409, code: 'CONFLICT', message })

let t: TestApp
let admin: Account
let member: Account

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'chief@example.com', fullName: 'Chief Admin', role: 'admin' })
  member = await t.signUp({ email: 'member@example.com', fullName: 'Mia Member' })
})
afterAll(async () => {
  await t.close()
})

async function userData(response: Response, status = 200): Promise<AdminUser> {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: AdminUser }).data
}

async function errorOf(response: Response, status: number): Promise<ErrorBody> {
  expect(response.status).toBe(status)
  return (await response.json()) as ErrorBody
}

const put = (id: string, body: unknown, token = admin.token) => t.request(`/api/users/${id}`, { method: 'PUT', body, token })

/** The audit entries about one user, newest first. */
async function auditFor(targetId: string): Promise<AuditEntry[]> {
  const response = await t.request('/api/audit?targetType=user&limit=100', { token: admin.token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: AuditEntry[] }).data.filter((entry) => entry.targetId === targetId)
}

function login(email: string, password: string) {
  return t.request('/api/auth/login', { body: { email, password }, ip: t.freshIp() })
}

describe('POST /api/users', () => {
  it('creates a member who can sign in, and audits it', async () => {
    const response = await t.request('/api/users', {
      token: admin.token,
      body: { email: 'New.Person@Example.com', password: 'a-good-password', fullName: 'New Person' },
    })
    const created = await userData(response, 201)
    expect(created.email).toBe('new.person@example.com')
    expect(created.profile).toMatchObject({ role: 'user', subscriptionPlan: 'free', fullName: 'New Person' })

    expect((await login('new.person@example.com', 'a-good-password')).status).toBe(200)
    const [entry] = await auditFor(created.id)
    expect(entry).toMatchObject({
      action: 'user.create',
      actor: { id: admin.id, email: admin.email },
      after: { email: 'new.person@example.com', role: 'user', fullName: 'New Person' },
    })
  })

  it('creates an admin when role is admin; the new admin can use the admin API', async () => {
    const created = await userData(
      await t.request('/api/users', {
        token: admin.token,
        body: { email: 'second-admin@example.com', password: 'a-good-password', role: 'admin' },
      }),
      201,
    )
    expect(created.profile.role).toBe('admin')
    const signedIn = await login('second-admin@example.com', 'a-good-password')
    const { data } = (await signedIn.json()) as { data: { token: string } }
    expect((await t.request('/api/users', { token: data.token })).status).toBe(200)
    // Back to one admin, so the other tests know who the admins are.
    expect((await t.request(`/api/users/${created.id}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
  })

  it('answers 409 for an e-mail already in use (whatever its case) and creates nothing', async () => {
    const body = await errorOf(
      await t.request('/api/users', { token: admin.token, body: { email: 'MEMBER@example.com', password: 'a-good-password' } }),
      409,
    )
    expect(body.message).toBe('An account with this email already exists.')
    expect(await t.db.select().from(users).where(eq(users.email, 'member@example.com'))).toHaveLength(1)
  })

  it('answers 400 naming the field for a short password or a bad role', async () => {
    const short = await errorOf(
      await t.request('/api/users', { token: admin.token, body: { email: 'x@example.com', password: 'short' } }),
      400,
    )
    expect(short.message).toBe('password: Password must be at least 8 characters.')
    const role = await errorOf(
      await t.request('/api/users', { token: admin.token, body: { email: 'x@example.com', password: 'a-good-password', role: 'owner' } }),
      400,
    )
    expect(role.message).toBe('role: Role must be user or admin.')
    expect(await t.db.select().from(users).where(eq(users.email, 'x@example.com'))).toHaveLength(0)
  })

  it('is refused to members (403) and visitors (401)', async () => {
    const body = { email: 'sneaky@example.com', password: 'a-good-password', role: 'admin' }
    expect((await t.request('/api/users', { token: member.token, body })).status).toBe(403)
    expect((await t.request('/api/users', { body })).status).toBe(401)
    expect(await t.db.select().from(users).where(eq(users.email, 'sneaky@example.com'))).toHaveLength(0)
  })
})

describe('PUT /api/users/:id', () => {
  it('changes the name, spelled fullName or full_name, and audits before and after', async () => {
    const user = await t.signUp({ fullName: 'Old Name' })
    expect((await userData(await put(user.id, { fullName: '  Ada Lovelace ' }))).profile.fullName).toBe('Ada Lovelace')
    const renamed = await userData(await put(user.id, { full_name: 'Grace Hopper' }))
    expect(renamed.profile).toMatchObject({ fullName: 'Grace Hopper', full_name: 'Grace Hopper' })
    const [account] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, user.id))
    expect(account?.name).toBe('Grace Hopper')

    const entries = await auditFor(user.id)
    expect(entries[0]).toMatchObject({
      action: 'user.update',
      actor: { id: admin.id, email: admin.email },
      before: { fullName: 'Ada Lovelace' },
      after: { fullName: 'Grace Hopper' },
    })
    expect(entries[1]).toMatchObject({ before: { fullName: 'Old Name' }, after: { fullName: 'Ada Lovelace' } })
  })

  it('changes the plan, spelled plan, subscription_plan or subscriptionPlan', async () => {
    const user = await t.signUp()
    expect((await userData(await put(user.id, { plan: 'pro' }))).profile.subscriptionPlan).toBe('pro')
    expect((await userData(await put(user.id, { subscription_plan: 'business' }))).profile.subscription_plan).toBe('business')
    expect((await userData(await put(user.id, { subscriptionPlan: 'Free' }))).profile.subscriptionPlan).toBe('free')
    const [entry] = await auditFor(user.id)
    expect(entry).toMatchObject({ before: { plan: 'business' }, after: { plan: 'free' } })
  })

  it('sets credits through the ledger (reason admin_edit, the admin as actor) and audits the change', async () => {
    const user = await t.signUp()
    const start = (await userData(await t.request(`/api/users/${user.id}`, { token: admin.token }))).profile.credits
    expect((await userData(await put(user.id, { credits: 250 }))).profile.credits).toBe(250)
    expect((await userData(await put(user.id, { credits: 40 }))).profile.credits).toBe(40)

    const ledger = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.workspaceId, user.id), eq(creditLedger.reason, 'admin_edit')))
      .orderBy(creditLedger.createdAt)
    expect(ledger).toMatchObject([
      { delta: 250 - start, balanceAfter: 250, actorId: admin.id },
      { delta: -210, balanceAfter: 40, actorId: admin.id },
    ])
    // The balance is the member's personal workspace's (docs/decisions/021).
    const [workspace] = await t.db.select().from(workspaces).where(eq(workspaces.id, user.id))
    expect(workspace?.credits).toBe(40)
    const [entry] = await auditFor(user.id)
    expect(entry).toMatchObject({ action: 'user.update', before: { credits: 250 }, after: { credits: 40 } })
  })

  it('changes the role: a member made admin can use the admin API, and loses it when demoted', async () => {
    const user = await t.signUp()
    expect((await userData(await put(user.id, { role: 'admin' }))).profile.role).toBe('admin')
    expect((await t.request('/api/users', { token: user.token })).status).toBe(200)
    expect((await userData(await put(user.id, { role: 'user' }))).profile.role).toBe('user')
    expect((await t.request('/api/users', { token: user.token })).status).toBe(403)
    const [entry] = await auditFor(user.id)
    expect(entry).toMatchObject({ before: { role: 'admin' }, after: { role: 'user' } })
  })

  it('writes no ledger or audit row when nothing changes', async () => {
    const user = await t.signUp({ fullName: 'Same Name' })
    const credits = (await userData(await t.request(`/api/users/${user.id}`, { token: admin.token }))).profile.credits
    await userData(await put(user.id, { fullName: 'Same Name', credits, plan: 'free', role: 'user' }))
    expect(await auditFor(user.id)).toEqual([])
    expect(
      await t.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.workspaceId, user.id), eq(creditLedger.reason, 'admin_edit'))),
    ).toEqual([])
  })

  it('answers 400 naming plan for an unknown plan, and changes nothing else of that edit', async () => {
    const user = await t.signUp()
    const before = (await userData(await t.request(`/api/users/${user.id}`, { token: admin.token }))).profile
    const body = await errorOf(await put(user.id, { credits: 999, plan: 'platinum' }), 400)
    expect(body.message).toBe('plan: There is no plan called platinum.')
    expect(body.issues).toEqual([{ path: 'plan', message: 'There is no plan called platinum.' }])
    const after = (await userData(await t.request(`/api/users/${user.id}`, { token: admin.token }))).profile
    expect(after).toMatchObject({ credits: before.credits, subscriptionPlan: 'free' })
  })

  it('answers 400 for negative or fractional credits, a bad role and an empty body', async () => {
    const negative = await errorOf(await put(member.id, { credits: -1 }), 400)
    expect(negative.message).toBe('credits: Credits cannot be negative.')
    const fractional = await errorOf(await put(member.id, { credits: 2.5 }), 400)
    expect(fractional.message).toBe('credits: Credits must be a whole number.')
    const role = await errorOf(await put(member.id, { role: 'owner' }), 400)
    expect(role.message).toBe('role: Role must be user or admin.')
    const empty = await errorOf(await put(member.id, {}), 400)
    expect(empty.message).toBe('Nothing to update: send fullName, role, plan, credits or phone.')
  })

  it('answers 404 for an unknown user, 403 to members and 401 to visitors', async () => {
    expect((await errorOf(await put('no-such-user', { plan: 'pro' }), 404)).message).toBe('User not found')
    expect((await put(member.id, { role: 'admin' }, member.token)).status).toBe(403)
    expect((await t.request(`/api/users/${member.id}`, { method: 'PUT', body: { role: 'admin' } })).status).toBe(401)
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, member.id))
    expect(profile?.role).toBe('user')
  })
})

describe('the last admin and the admin themselves', () => {
  it('an admin cannot demote or delete themselves (409)', async () => {
    const demote = await errorOf(await put(admin.id, { role: 'user' }), 409)
    expect(demote.message).toBe('You cannot remove your own admin role.')
    const remove = await errorOf(await t.request(`/api/users/${admin.id}`, { method: 'DELETE', token: admin.token }), 409)
    expect(remove.message).toBe('You cannot delete your own account.')
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, admin.id))
    expect(profile?.role).toBe('admin')
    // A change of another field of their own account is fine.
    expect((await userData(await put(admin.id, { fullName: 'Chief Admin Too' }))).profile.fullName).toBe('Chief Admin Too')
  })

  it('with two admins, one can demote the other; the last admin cannot be demoted or deleted', async () => {
    const other = await t.signUp({ role: 'admin' })
    expect((await userData(await put(other.id, { role: 'user' }))).profile.role).toBe('user')

    // The demoted admin's request was already past the role check when the other one won the race.
    const stale = { id: other.id, email: other.email }
    await expect(t.services.userAdmin.update(stale, admin.id, { role: 'user' })).rejects.toMatchObject(
      conflict('This is the last admin: make someone else an admin first.'),
    )
    await expect(t.services.userAdmin.remove(stale, admin.id)).rejects.toMatchObject(
      conflict('This is the last admin and cannot be deleted.'),
    )
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, admin.id))
    expect(profile?.role).toBe('admin')
  })

  it('two admins demoting each other at the same time leave exactly one admin', async () => {
    const race = await createTestApp()
    try {
      const first = await race.signUp({ role: 'admin' })
      const second = await race.signUp({ role: 'admin' })
      const [a, b] = await Promise.all([
        race.request(`/api/users/${second.id}`, { method: 'PUT', body: { role: 'user' }, token: first.token }),
        race.request(`/api/users/${first.id}`, { method: 'PUT', body: { role: 'user' }, token: second.token }),
      ])
      const statuses = [a.status, b.status].sort()
      expect(statuses[0]).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const admins = await race.db.select().from(profiles).where(eq(profiles.role, 'admin'))
      expect(admins).toHaveLength(1)
    } finally {
      await race.close()
    }
  })
})

describe('DELETE /api/users/:id', () => {
  it('deletes the user and their sessions: their token gets 401, and the deletion is audited', async () => {
    const user = await t.signUp({ email: 'leaving@example.com' })
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    const response = await t.request(`/api/users/${user.id}`, { method: 'DELETE', token: admin.token })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { success: true } })

    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await t.request(`/api/users/${user.id}`, { token: admin.token })).status).toBe(404)
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
    expect(await t.db.select().from(profiles).where(eq(profiles.id, user.id))).toEqual([])
    expect((await login('leaving@example.com', user.password)).status).toBe(401)

    const [entry] = await auditFor(user.id)
    expect(entry).toMatchObject({
      action: 'user.delete',
      actor: { id: admin.id },
      before: { email: 'leaving@example.com', role: 'user', plan: 'free' },
      after: null,
    })
  })

  it('deletes another admin who wrote posts and edited credits: their posts and audit entries stay', async () => {
    const other = await t.signUp({ role: 'admin' })
    const post = await t.request('/api/blog', { token: other.token, body: { title: 'Written by a leaver' } })
    expect(post.status).toBe(201)
    const { data } = (await post.json()) as { data: { id: string } }
    expect((await put(member.id, { credits: 77 }, other.token)).status).toBe(200)

    expect((await t.request(`/api/users/${other.id}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    const [kept] = await t.db.select().from(blogPosts).where(eq(blogPosts.id, data.id))
    expect(kept?.authorId).toBeNull()
    const [edit] = await auditFor(member.id)
    expect(edit).toMatchObject({ actor: { id: null, email: other.email }, after: { credits: 77 } })
  })

  it('deletes a member with runs and audit entries, and the team only they are in; refused while a team others use depends on them, or a subscription cannot be cancelled', async () => {
    const leaver = await t.signUp({ email: 'team-leaver@example.com' })
    const colleague = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, leaver.id))
    const caller = personalCaller(leaver)
    const automation = await t.services.automations.create(caller, {
      name: 'Nightly check',
      description: '',
      steps: [{ type: 'navigate', url: 'https://example.com' }],
      schedule: null,
      enabled: true,
    })
    await t.services.runs.start(automation.id, caller, { runner: 'client', trigger: 'manual' })
    const solo = await t.services.workspaces.createTeam({ id: leaver.id, email: leaver.email }, 'Side project')
    const shared = await t.services.workspaces.createTeam({ id: leaver.id, email: leaver.email }, 'Shared team')
    await t.db.insert(workspaceMembers).values({ workspaceId: shared.id, userId: colleague.id, role: 'member' })

    const teamRefused = await errorOf(await t.request(`/api/users/${leaver.id}`, { method: 'DELETE', token: admin.token }), 409)
    expect(teamRefused.message).toBe(
      'team-leaver@example.com is the only owner of the team workspace Shared team, where others still work: make one of them its owner first.',
    )
    await t.db
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(and(eq(workspaceMembers.workspaceId, shared.id), eq(workspaceMembers.userId, colleague.id)))

    const { subscription } = await paddleSubscriptionOf(t.db, solo.id)
    // With no payment provider to cancel it at, the account stays.
    const paidRefused = await errorOf(await t.request(`/api/users/${leaver.id}`, { method: 'DELETE', token: admin.token }), 503)
    expect(paidRefused.message).toBe('Its subscriptions cannot be cancelled right now: the payment provider is not configured.')
    expect(await t.db.select({ id: users.id }).from(users).where(eq(users.id, leaver.id))).toEqual([{ id: leaver.id }])
    await t.db.update(subscriptions).set({ status: 'canceled' }).where(eq(subscriptions.providerSubscriptionId, subscription))

    expect((await t.request(`/api/users/${leaver.id}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    expect(await t.db.select().from(users).where(eq(users.id, leaver.id))).toEqual([])
    expect(
      await t.db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(inArray(workspaces.id, [leaver.id, solo.id])),
    ).toEqual([])
    expect(await t.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, shared.id))).toEqual([{ id: shared.id }])
    expect(await t.db.select().from(automationRuns).where(eq(automationRuns.workspaceId, leaver.id))).toEqual([])
    // Their entries stay, unlinked from the account and its workspaces, still naming who did it.
    const kept = await t.db
      .select({ actorId: auditLog.actorId, workspaceId: auditLog.workspaceId })
      .from(auditLog)
      .where(and(eq(auditLog.actorEmail, leaver.email), eq(auditLog.action, 'automation.create')))
    expect(kept).toEqual([{ actorId: null, workspaceId: null }])
    const [entry] = await auditFor(leaver.id)
    expect(entry).toMatchObject({ action: 'user.delete', before: { email: leaver.email, teamWorkspacesDeleted: 1 } })
  })

  it('answers 404 for an unknown id, 403 to members and 401 to visitors', async () => {
    expect((await errorOf(await t.request('/api/users/no-such-user', { method: 'DELETE', token: admin.token }), 404)).message).toBe(
      'User not found',
    )
    const target = await t.signUp()
    expect((await t.request(`/api/users/${target.id}`, { method: 'DELETE', token: member.token })).status).toBe(403)
    expect((await t.request(`/api/users/${target.id}`, { method: 'DELETE' })).status).toBe(401)
    expect((await t.request('/api/auth/me', { token: target.token })).status).toBe(200)
  })
})

describe('DELETE /api/users/:id with a payment provider (the local sandbox)', () => {
  let sandbox: TestApp
  beforeAll(async () => {
    sandbox = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it("cancels the member's subscription at the provider first, then deletes the account", async () => {
    const chief = await sandbox.signUp({ role: 'admin' })
    const subscriber = await sandbox.signUp()
    await sandbox.services.billing.sandboxPurchase({ id: subscriber.id, email: subscriber.email, emailVerified: true }, 'pro', 'success')
    const [subscription] = await sandbox.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, subscriber.id))
    expect(subscription?.status).toBe('trialing')

    expect((await sandbox.request(`/api/users/${subscriber.id}`, { method: 'DELETE', token: chief.token })).status).toBe(200)
    // The provider's subscription.canceled reached our webhook endpoint before the account went.
    expect(await lastAppliedToSubscription(sandbox.db, subscription?.providerSubscriptionId ?? '')).toMatchObject({ status: 'canceled' })
    expect(await sandbox.db.select().from(users).where(eq(users.id, subscriber.id))).toEqual([])
  })
})

describe('POST /api/users/:id/reset-password', () => {
  it('sets a new password: the old one stops working, the new one signs in, and old sessions end', async () => {
    const user = await t.signUp({ password: 'the-old-password' })
    const response = await t.request(`/api/users/${user.id}/reset-password`, {
      token: admin.token,
      body: { newPassword: 'the-new-password' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { success: true } })

    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await login(user.email, 'the-old-password')).status).toBe(401)
    const fresh = await login(user.email, 'the-new-password')
    expect(fresh.status).toBe(200)
    const { data } = (await fresh.json()) as { data: { token: string } }
    expect((await t.request('/api/auth/me', { token: data.token })).status).toBe(200)

    const [entry] = await auditFor(user.id)
    expect(entry).toMatchObject({ action: 'user.password', actor: { id: admin.id } })
    expect(JSON.stringify(entry)).not.toContain('the-new-password')
  })

  it('answers 400 for a short password, 404 for an unknown user, 403 to members and 401 to visitors', async () => {
    const short = await errorOf(
      await t.request(`/api/users/${member.id}/reset-password`, { token: admin.token, body: { newPassword: 'short' } }),
      400,
    )
    expect(short.message).toBe('newPassword: Password must be at least 8 characters.')
    const body = { newPassword: 'another-password' }
    expect((await t.request('/api/users/no-such-user/reset-password', { token: admin.token, body })).status).toBe(404)
    expect((await t.request(`/api/users/${member.id}/reset-password`, { token: member.token, body })).status).toBe(403)
    expect((await t.request(`/api/users/${member.id}/reset-password`, { body })).status).toBe(401)
    expect((await login(member.email, member.password)).status).toBe(200)
  })
})

describe('support tools', () => {
  const verifyMails = async (to: string) => {
    const response = await t.request('/api/mail/outbox?limit=100', { token: admin.token })
    expect(response.status).toBe(200)
    const outbox = ((await response.json()) as { data: { to: string; subject: string }[] }).data
    return outbox.filter((mail) => mail.to === to && mail.subject === 'Verify your e-mail address for Aether').length
  }

  it('signs a member out everywhere at once: their sessions end, their API key still works, and the audit log says so', async () => {
    const person = await t.signUp({ email: 'signed-in-twice@example.com', password: 'a-good-password' })
    const second = ((await (await login(person.email, 'a-good-password')).json()) as { data: { token: string } }).data.token
    const key = await t.request('/api/keys', { body: { name: 'Kept key' }, token: person.token })
    const apiKey = ((await key.json()) as { data: { key: string } }).data.key
    expect((await t.request('/api/auth/me', { token: second })).status).toBe(200)

    const response = await t.request(`/api/users/${person.id}/sign-out`, { method: 'POST', token: admin.token })
    expect(response.status, await response.clone().text()).toBe(200)
    expect(((await response.json()) as { data: { sessionsEnded: number } }).data.sessionsEnded).toBe(2)
    expect((await t.request('/api/auth/me', { token: person.token })).status).toBe(401)
    expect((await t.request('/api/auth/me', { token: second })).status).toBe(401)
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([])
    expect((await t.request('/api/automations', { token: apiKey })).status).toBe(200)
    const [entry] = (await auditFor(person.id)).filter((row) => row.action === 'user.sign-out')
    expect(entry).toMatchObject({
      actor: { email: 'chief@example.com' },
      summary: 'Signed signed-in-twice@example.com out everywhere (2 sessions)',
    })

    const stranger = await t.request(`/api/users/00000000-0000-4000-8000-000000000000/sign-out`, { method: 'POST', token: admin.token })
    expect(stranger.status).toBe(404)
  })

  it('sends an unverified member the verification link again, audited; a verified one is refused', async () => {
    const unverified = await t.signUp({ email: 'lost-the-mail@example.com', verified: false })
    const before = await verifyMails(unverified.email)
    const response = await t.request(`/api/users/${unverified.id}/verification-email`, { method: 'POST', token: admin.token })
    expect(response.status, await response.clone().text()).toBe(200)
    expect(await verifyMails(unverified.email)).toBe(before + 1)
    const [entry] = (await auditFor(unverified.id)).filter((row) => row.action === 'user.verification-resent')
    expect(entry?.summary).toBe('Sent lost-the-mail@example.com the e-mail verification link again')

    const refused = await t.request(`/api/users/${member.id}/verification-email`, { method: 'POST', token: admin.token })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as ErrorBody).message).toBe('member@example.com is already verified.')
  })
})
