import { createPaddleTestApp } from '#server/testing/paddle-test-app.ts'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { and, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accounts,
  auditLog,
  automationRuns,
  mailOutbox,
  subscriptions,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '#server/db/schema/index.ts'
import { lastAppliedToSubscription, paddleSubscriptionOf } from '#server/testing/billing-fixtures.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import type { FakePaddleApi } from '#server/testing/fake-paddle-api.ts'
import { enableTwoFactor, totpCode } from '#server/testing/totp.ts'

// A member deletes their own account (docs/decisions/065): confirmed by the password (or an
// authenticator code, or an e-mailed link without a password), refused while they alone own a team
// others work in; signed out everywhere at once, keys and devices refused; signing in within the
// 14 days cancels it; after them the account is erased, its Paddle subscription cancelled (Paddle's
// API stood in for on loopback), its run files removed and the audit log anonymised.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string; issues?: { path: string; message: string }[] }

const DAY = 24 * 60 * 60 * 1000
let t: TestApp
let paddle: FakePaddleApi

let close: () => Promise<void>
beforeAll(async () => {
  ;({ t, paddle, close } = await createPaddleTestApp())
})
afterAll(() => close())

async function call<T>(pathname: string, init: { token?: string; method?: string; body?: unknown; ip?: string } = {}): Promise<Answer<T>> {
  const response = await t.request(pathname, init)
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const deleteAccount = (account: Account, body: Record<string, string>, token = account.token) =>
  call<{ eraseAfter: string | null; confirmationSentTo?: string }>('/api/account/deletion', { token, body })
const signIn = (account: Account) =>
  call<{ token: string }>('/api/auth/login', { body: { email: account.email, password: account.password }, ip: t.freshIp() })
const markOf = async (id: string) =>
  (await t.db.select({ eraseAfter: users.eraseAfter, requestedAt: users.deletionRequestedAt }).from(users).where(eq(users.id, id)))[0]

async function subjectsTo(email: string): Promise<string[]> {
  const rows = await t.db
    .select({ subject: mailOutbox.subject })
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email))
    .orderBy(desc(mailOutbox.createdAt))
  return rows.map((row) => row.subject)
}

/** A finished run of the member's personal workspace with a screenshot on disk. */
async function runWithFiles(account: Account) {
  const caller = personalCaller(account)
  const automation = await t.services.automations.create(caller, {
    name: 'Nightly check',
    description: '',
    steps: [{ type: 'navigate', url: 'https://example.com' }],
    schedule: null,
    enabled: true,
  })
  const run = await t.services.runs.start(automation.id, caller, { runner: 'client', trigger: 'manual' })
  await t.services.runFiles.saveScreenshot(run.id, 'step-1-1.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  await t.db
    .update(automationRuns)
    .set({ status: 'succeeded', finishedAt: new Date(), storedBytes: 4, screenshots: [{ name: 'End', file: 'step-1-1.png', step: 1 }] })
    .where(eq(automationRuns.id, run.id))
  return { automationId: automation.id, runId: run.id, folder: path.join(t.dataDir, 'runs', run.id) }
}

/** A team workspace of the account's (made on Business), with these people in it as members. */
async function teamOf(account: Account, name: string, others: Account[] = []) {
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, account.id))
  const team = await t.services.workspaces.createTeam({ id: account.id, email: account.email }, name)
  for (const other of others) await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: other.id, role: 'member' })
  return team.id
}

describe('confirming a deletion', () => {
  it('needs the password: none or a wrong one is 400 with the field named, and nothing changes', async () => {
    const account = await t.signUp()
    const none = await deleteAccount(account, {})
    expect(none).toMatchObject({ status: 400, message: 'password: Enter your password to confirm.' })
    const wrong = await deleteAccount(account, { password: 'not-my-password' })
    expect(wrong).toMatchObject({
      status: 400,
      message: 'password: Password is incorrect.',
      issues: [{ path: 'password', message: 'Password is incorrect.' }],
    })
    expect(await markOf(account.id)).toEqual({ eraseAfter: null, requestedAt: null })
    expect((await call('/api/auth/me', { token: account.token })).status).toBe(200)
  })

  it('is refused with a session only: an API key cannot delete an account', async () => {
    const account = await t.signUp()
    const key = await call<{ key: string }>('/api/keys', { token: account.token, body: { name: 'Script' } })
    expect((await deleteAccount(account, { password: account.password }, key.data.key)).status).toBe(403)
  })

  it('is refused while the member alone owns a team others work in, naming it; once someone else owns it, it goes ahead', async () => {
    const account = await t.signUp()
    const colleague = await t.signUp()
    const teamId = await teamOf(account, 'Acme Research', [colleague])
    const refused = await deleteAccount(account, { password: account.password })
    expect(refused).toMatchObject({
      status: 409,
      message:
        'You are the only owner of the team workspace Acme Research, where others still work. Make another member its owner (Team, then Members) or remove them, then delete your account.',
    })
    expect((await markOf(account.id))?.eraseAfter).toBeNull()
    await t.db
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(and(eq(workspaceMembers.workspaceId, teamId), eq(workspaceMembers.userId, colleague.id)))
    expect((await deleteAccount(account, { password: account.password })).status).toBe(202)
  })

  it('with two-factor sign-in on, a code from the app confirms it too', async () => {
    const account = await t.signUp()
    const { secret } = await enableTwoFactor(t, account)
    const asked = await deleteAccount(account, { code: totpCode(secret) })
    expect(asked.status, asked.message).toBe(202)
  })

  it('an account without a password (Google only) confirms through an e-mailed link', async () => {
    const account = await t.signUp()
    await t.db.update(accounts).set({ password: null }).where(eq(accounts.userId, account.id))
    const asked = await deleteAccount(account, {})
    expect(asked).toMatchObject({ status: 202, data: { eraseAfter: null, confirmationSentTo: account.email } })
    const [mail] = await t.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, account.email), eq(mailOutbox.subject, 'Confirm the deletion of your Aether account')))
    const token = decodeURIComponent(mail?.text.match(/\/settings\?token=([^\s#]+)/)?.[1] ?? '')
    expect((await deleteAccount(account, { token: `${token}x` })).status).toBe(400)
    expect((await markOf(account.id))?.eraseAfter).toBeNull()
    const confirmed = await deleteAccount(account, { token })
    expect(confirmed.status, confirmed.message).toBe(202)
    expect(confirmed.data.eraseAfter).not.toBeNull()
  })
})

describe('the grace period', () => {
  it('signs the member out everywhere, refuses their keys, and says when by e-mail; signing in cancels it all', async () => {
    const account = await t.signUp()
    const second = await signIn(account)
    const key = await call<{ key: string }>('/api/keys', { token: account.token, body: { name: 'Script' } })
    expect((await call('/api/automations', { token: key.data.key })).status).toBe(200)

    const before = Date.now()
    const asked = await deleteAccount(account, { password: account.password })
    expect(asked.status, asked.message).toBe(202)
    const eraseAfter = new Date(asked.data.eraseAfter ?? 0).getTime()
    expect(eraseAfter - before).toBeGreaterThanOrEqual(14 * DAY - 1000)
    expect(eraseAfter - Date.now()).toBeLessThanOrEqual(14 * DAY)

    // Every session ended; the key is the member's still, refused with the reason.
    expect((await call('/api/auth/me', { token: account.token })).status).toBe(401)
    expect((await call('/api/auth/me', { token: second.data.token })).status).toBe(401)
    const refused = await call('/api/automations', { token: key.data.key })
    expect(refused).toMatchObject({ status: 403, code: 'ACCOUNT_DELETION_PENDING' })
    expect(refused.message).toMatch(/^This account is scheduled for deletion on \w+ \d+, \d{4}\. Sign in to cancel the deletion\.$/)
    expect((await subjectsTo(account.email))[0]).toMatch(/^Your Aether account will be deleted on /)

    // Signing in within the 14 days cancels it: the key works again, and an e-mail says so.
    const back = await signIn(account)
    expect(back.status, back.message).toBe(200)
    expect(await markOf(account.id)).toEqual({ eraseAfter: null, requestedAt: null })
    expect((await call('/api/automations', { token: key.data.key })).status).toBe(200)
    expect((await subjectsTo(account.email))[0]).toBe('Your Aether account will not be deleted')
    const [entry] = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, account.id), eq(auditLog.action, 'user.deletion-cancelled')))
    expect(entry).toBeDefined()
    // Nothing is erased later.
    expect(await t.services.accountDeletion.erase(account.id, new Date(Date.now() + 15 * DAY))).toBe('not-due')
    expect(await markOf(account.id)).toBeDefined()
  })
})

describe('erasure after the grace period', () => {
  it('cancels the Paddle subscription, deletes the account and what only it used, removes its run files and anonymises the audit log', async () => {
    const account = await t.signUp({ email: 'leaving-member@example.com' })
    const colleague = await t.signUp()
    const { folder, runId } = await runWithFiles(account)
    const { subscription } = await paddleSubscriptionOf(t.db, account.id)
    const soloTeam = await teamOf(account, 'Side project')
    const sharedTeam = await teamOf(account, 'Shared team', [colleague])
    await t.db
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(and(eq(workspaceMembers.workspaceId, sharedTeam), eq(workspaceMembers.userId, colleague.id)))
    expect(existsSync(folder)).toBe(true)
    // How they came into the shared team: the team's history keeps the invitation, not their address.
    await t.db.insert(workspaceInvitations).values({
      workspaceId: sharedTeam,
      email: account.email,
      role: 'member',
      tokenHash: `accepted-${account.id}`,
      invitedBy: colleague.id,
      expiresAt: new Date(),
      acceptedAt: new Date(),
    })

    const asked = await deleteAccount(account, { password: account.password })
    expect(asked.status, asked.message).toBe(202)
    const eraseAfter = new Date(asked.data.eraseAfter ?? 0)

    // Not before the day: nothing happens.
    expect(await t.services.accountDeletion.erase(account.id, new Date(eraseAfter.getTime() - 60_000))).toBe('not-due')
    expect(paddle.received.filter((request) => request.url.includes(subscription))).toEqual([])

    // Paddle refuses: the account waits for the next sweep, nothing deleted.
    paddle.answerWith(500, { error: { code: 'internal_error', detail: 'Try again' } })
    await expect(t.services.accountDeletion.erase(account.id, new Date(eraseAfter.getTime() + 60_000))).rejects.toMatchObject({
      status: 503,
    })
    expect(await markOf(account.id)).toBeDefined()
    expect(existsSync(folder)).toBe(true)
    paddle.answerLikePaddle()

    // The worker's sweep (with the other tests' accounts whose day has come too).
    expect(await t.services.accountDeletion.sweep(new Date(eraseAfter.getTime() + 60_000))).toBeGreaterThanOrEqual(1)
    expect(paddle.received.filter((request) => request.url.includes(subscription)).at(-1)).toEqual({
      method: 'POST',
      url: `/subscriptions/${subscription}/cancel`,
      auth: 'Bearer pdl_key',
      body: { effective_from: 'immediately' },
    })
    expect(await markOf(account.id)).toBeUndefined()
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, account.id))).toEqual([])
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, soloTeam))).toEqual([])
    expect(await t.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, sharedTeam))).toEqual([{ id: sharedTeam }])
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subscription))).toEqual([])
    expect(await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId))).toEqual([])
    expect(existsSync(folder)).toBe(false)
    expect(await subjectsTo(account.email)).toEqual([])
    expect(
      await t.db
        .select({ email: workspaceInvitations.email })
        .from(workspaceInvitations)
        .where(eq(workspaceInvitations.tokenHash, `accepted-${account.id}`)),
    ).toEqual([{ email: '[erased account]' }])

    // The audit log keeps what happened, not who: the address is nowhere, the erasure is recorded.
    const mentions = await t.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        sql`${auditLog.actorEmail} = ${account.email} or position(${account.email} in ${auditLog.summary} || coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, '')) > 0`,
      )
    expect(mentions).toEqual([])
    const [erased] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.erased'), eq(auditLog.targetId, account.id)))
    expect(erased).toMatchObject({
      actorEmail: 'Aether (account erasure)',
      after: { subscriptionsCancelled: 1, teamWorkspacesDeleted: 1, runsDeleted: 1 },
    })
    const [asked2] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.deletion-requested'), eq(auditLog.targetId, account.id)))
    expect(asked2?.actorEmail).toBe('[erased account]')

    // Signing in is no longer possible: the account is gone.
    expect((await signIn(account)).status).toBe(401)
  })
})

describe('erasure with the local payment sandbox', () => {
  let sandbox: TestApp
  beforeAll(async () => {
    sandbox = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it('cancels the sandbox subscription through its signed webhook, then erases the account', async () => {
    const account = await sandbox.signUp()
    await sandbox.services.billing.sandboxPurchase({ id: account.id, email: account.email, emailVerified: true }, 'pro', 'success')
    const [subscription] = await sandbox.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, account.id))
    expect(subscription?.status).toBe('trialing')
    const asked = await sandbox.request('/api/account/deletion', { token: account.token, body: { password: account.password } })
    expect(asked.status).toBe(202)
    const { data } = (await asked.json()) as { data: { eraseAfter: string } }
    expect(await sandbox.services.accountDeletion.erase(account.id, new Date(new Date(data.eraseAfter).getTime() + 1000))).toBe('erased')
    // The sandbox's subscription.canceled reached our webhook endpoint and was applied before the account went.
    expect(await lastAppliedToSubscription(sandbox.db, subscription?.providerSubscriptionId ?? '')).toMatchObject({ status: 'canceled' })
    expect(await sandbox.db.select().from(users).where(eq(users.id, account.id))).toEqual([])
  })
})
