import { and, eq, sql } from 'drizzle-orm'
import { createMiddleware } from 'hono/factory'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY_SESSION_ONLY_MESSAGE } from '#common/api-keys.ts'
import { readOnlyViewMessage } from '#common/view-as.ts'
import { auditLog, profiles, sessions, users } from '#server/db/schema/index.ts'
import type { AppEnv } from '#server/http/app-env.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

// Viewing the app as a member (docs/decisions/064): an admin, with a reason, gets a read-only,
// 30-minute session of the member while their own session waits in a cookie; every change is
// refused; ending it (on demand, or found over after 30 minutes) gives the admin's session back;
// both ends are in the audit log and the member's timeline, and the view is not a sign-in of theirs.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type AuditEntry = {
  actor: { email: string }
  action: string
  targetId: string | null
  summary: string
  after: Record<string, unknown> | null
}
type Page = { user: string | null; viewedBy: { adminId: string; until: string } | null; viewAsEnded: unknown }

const REASON = 'Ticket 4411: the billing page shows the wrong plan'
const MINUTE = 60_000

let t: TestApp
let admin: Account

/** Pages stand in as the caller, as the request reached them. */
const pages = createMiddleware<AppEnv>((c) => {
  const user = c.get('user')
  return Promise.resolve(c.json({ user: user?.email ?? null, viewedBy: user?.viewedBy ?? null, viewAsEnded: c.get('viewAsEnded') ?? null }))
})

async function json<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

/** A browser's request: its cookies, and the site's Origin on a change (as a browser sends it). */
const browser = (path: string, cookie: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  t.request(path, { ...init, cookie, headers: { origin: TEST_PUBLIC_URL, ...init.headers } })

/** The Cookie header a browser sends after these Set-Cookie headers, over the cookies it had. */
function cookiesAfter(response: Response, before = ''): string {
  const jar = new Map(before ? before.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const) : [])
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0] ?? ''
    const name = pair.slice(0, pair.indexOf('='))
    if (/Max-Age=0/i.test(header)) jar.delete(name)
    else jar.set(name, pair)
  }
  return [...jar.values()].join('; ')
}

const setCookieOf = (response: Response, name: string) => response.headers.getSetCookie().find((value) => value.startsWith(`${name}=`))

async function viewAs(member: Account, as: Account = admin) {
  const response = await browser(`/api/users/${member.id}/view-as`, as.cookie, { body: { reason: REASON } })
  const answer = await json<{ until: string }>(response.clone())
  expect(answer.status, answer.message).toBe(200)
  return { response, until: answer.data.until, cookie: cookiesAfter(response, as.cookie) }
}

async function auditFor(id: string): Promise<AuditEntry[]> {
  const answer = await json<AuditEntry[]>(await t.request('/api/audit?targetType=user&limit=100', { token: admin.token }))
  return answer.data.filter((entry) => entry.targetId === id)
}

const viewSessionOf = async (memberId: string) =>
  (await t.db.select().from(sessions).where(eq(sessions.userId, memberId))).filter((row) => row.impersonatedBy !== null)

beforeAll(async () => {
  t = await createTestApp({ pages })
  admin = await t.signUp({ email: 'support-desk@example.com', role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

describe('viewing as a member', () => {
  it('starts with a reason: the member’s app, the banner’s data, an audit entry, and no sign-in of theirs', async () => {
    const member = await t.signUp({ fullName: 'Viewed Person' })
    const before = Date.now()
    const { response, until, cookie } = await viewAs(member)
    expect(new Date(until).getTime() - before).toBeGreaterThanOrEqual(30 * MINUTE - 1000)
    expect(new Date(until).getTime() - before).toBeLessThanOrEqual(30 * MINUTE + 5000)
    expect(setCookieOf(response, 'auth_session')).toMatch(/; Max-Age=1800; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(setCookieOf(response, 'aether_view_as')).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/)

    const me = await json<{ email: string }>(await browser('/api/auth/me', cookie))
    expect(me).toMatchObject({ status: 200, data: { email: member.email } })
    const page = (await (await browser('/dashboard', cookie)).json()) as Page
    expect(page).toMatchObject({ user: member.email, viewedBy: { adminId: admin.id, until } })
    // The admin's own session was kept: their bearer token still works.
    expect(await json<{ email: string }>(await t.request('/api/auth/me', { token: admin.token }))).toMatchObject({
      data: { email: admin.email },
    })

    const [entry] = (await auditFor(member.id)).filter((row) => row.action === 'user.view-as')
    expect(entry).toMatchObject({
      actor: { email: admin.email },
      summary: `Viewed Aether as ${member.email} until ${until.slice(11, 16)} UTC: ${REASON}`,
      after: { reason: REASON, until, memberEmail: member.email },
    })
    const timeline = await json<{ kind: string; summary: string }[]>(
      await t.request(`/api/users/${member.id}/timeline`, { token: admin.token }),
    )
    expect(timeline.data.filter((row) => row.kind === 'sign-in')).toHaveLength(1)
    expect(timeline.data.find((row) => row.kind === 'admin')?.summary).toBe(entry?.summary)
  })

  it('refuses every change with 403, on the API and in page actions, but ending the view and switching workspace', async () => {
    const member = await t.signUp({ fullName: 'Unchanged Name' })
    const { cookie } = await viewAs(member)
    const refused = { status: 403, code: 'READ_ONLY_VIEW', message: readOnlyViewMessage(member.email) }
    expect(await json(await browser('/api/auth/profile', cookie, { method: 'PUT', body: { fullName: 'Changed' } }))).toMatchObject(refused)
    expect(await json(await browser('/api/automations', cookie, { body: { name: 'New', steps: [] } }))).toMatchObject(refused)
    expect(await json(await browser('/api/keys', cookie, { body: { name: 'Key' } }))).toMatchObject(refused)
    expect(await json(await browser(`/api/users/${member.id}/view-as`, cookie, { body: { reason: 'Again' } }))).toMatchObject(refused)
    // A page action: React Router's data request gets the JSON, a form posted without JavaScript a page.
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    expect(await json(await browser('/settings.data', cookie, { body: 'fullName=Changed', headers: form }))).toMatchObject(refused)
    const document = await browser('/settings', cookie, { body: 'fullName=Changed', headers: form })
    expect(document.status).toBe(403)
    expect(await document.text()).toContain('Read-only: you are viewing as')
    // Reads work; the admin area answers as to the member they are now; a workspace switch stores nothing.
    expect((await browser('/api/automations', cookie)).status).toBe(200)
    expect((await browser('/api/users', cookie)).status).toBe(403)
    expect((await browser('/workspace/switch', cookie, { body: `workspaceId=${member.id}`, headers: form })).status).toBe(200)
    const [profile] = await t.db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, member.id))
    expect(profile?.fullName).toBe('Unchanged Name')
  })

  it('ends on demand: the admin’s own session comes back, and the end is audited', async () => {
    const member = await t.signUp()
    const { cookie } = await viewAs(member)
    const ended = await browser('/api/auth/view-as/end', cookie, { method: 'POST' })
    expect(await json(ended.clone())).toMatchObject({ status: 200, data: { restored: true } })
    const after = cookiesAfter(ended, cookie)
    expect(after).toBe(admin.cookie)
    expect(await viewSessionOf(member.id)).toEqual([])
    expect(await json<{ email: string }>(await browser('/api/auth/me', after))).toMatchObject({ data: { email: admin.email } })
    // Once over, the view cannot be ended again, nor its old cookie used.
    expect(await json(await browser('/api/auth/view-as/end', after, { method: 'POST' }))).toMatchObject({
      status: 409,
      message: 'You are not viewing Aether as anyone.',
    })
    expect((await browser('/api/auth/me', cookie.replace(/aether_view_as=[^;]*(; )?/, ''))).status).toBe(401)
    const [entry] = (await auditFor(member.id)).filter((row) => row.action === 'user.view-as-ended')
    expect(entry).toMatchObject({
      actor: { email: admin.email },
      summary: `Stopped viewing Aether as ${member.email}: ended by the admin`,
      after: { how: 'ended' },
    })
  })

  it('ends after 30 minutes, never extended: the next page finds it over, gives the admin back and says so', async () => {
    const member = await t.signUp()
    const { cookie } = await viewAs(member)
    const [view] = await viewSessionOf(member.id)
    // Nothing extends it, Better Auth's refresh included.
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 7 * 24 * 60 * MINUTE) })
      .where(eq(sessions.id, view!.id))
    expect((await viewSessionOf(member.id))[0]?.expiresAt).toEqual(view?.expiresAt)
    // 30 minutes later: the session's expiry and the one its audit entry names have passed.
    const past = new Date(Date.now() - MINUTE)
    await t.db.update(sessions).set({ expiresAt: past }).where(eq(sessions.id, view!.id))
    await t.db
      .update(auditLog)
      .set({ after: sql`jsonb_set(${auditLog.after}, '{until}', to_jsonb(${past.toISOString()}::text))` })
      .where(and(eq(auditLog.action, 'user.view-as'), eq(auditLog.targetId, member.id)))

    // The API does not restore (a page does); React Router's data requests and form posts become a page load.
    expect((await browser('/api/auth/me', cookie)).status).toBe(401)
    const data = await browser('/billing.data?_routes=root%2Croutes%2Fbilling', cookie)
    expect(data.status).toBe(204)
    expect(data.headers.get('x-remix-redirect')).toBe('/billing')
    expect(data.headers.get('x-remix-reload-document')).toBe('true')
    const posted = await browser('/settings', cookie, {
      body: 'fullName=Late',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(posted.status).toBe(303)
    expect(posted.headers.get('location')).toBe('/settings')

    const page = await browser('/billing', cookie)
    expect((await page.clone().json()) as Page).toMatchObject({
      user: admin.email,
      viewedBy: null,
      viewAsEnded: { email: member.email, expired: true },
    })
    expect(cookiesAfter(page, cookie)).toBe(admin.cookie)
    // Asked again with the old cookies (another tab): no second entry.
    expect(((await (await browser('/billing', cookie)).json()) as Page).user).toBe(admin.email)
    const ends = (await auditFor(member.id)).filter((row) => row.action === 'user.view-as-ended')
    expect(ends).toHaveLength(1)
    expect(ends[0]).toMatchObject({
      summary: `Stopped viewing Aether as ${member.email}: the 30 minutes were up`,
      after: { how: 'expired' },
    })
  })

  it('signing out while viewing ends the view and the admin’s own session', async () => {
    const other = await t.signUp({ role: 'admin' })
    const member = await t.signUp()
    const { cookie } = await viewAs(member, other)
    const out = await browser('/api/auth/logout', cookie, { method: 'POST' })
    expect(out.status).toBe(200)
    expect(cookiesAfter(out, cookie)).toBe('')
    expect(await viewSessionOf(member.id)).toEqual([])
    expect((await t.request('/api/auth/me', { token: other.token })).status).toBe(401)
    const [entry] = (await auditFor(member.id)).filter((row) => row.action === 'user.view-as-ended')
    expect(entry).toMatchObject({
      actor: { email: other.email },
      summary: `Stopped viewing Aether as ${member.email}: the admin signed out`,
    })
  })

  it('ends when the admin loses the admin role or is signed out everywhere by another admin', async () => {
    for (const how of ['demoted', 'signed out'] as const) {
      const other = await t.signUp({ role: 'admin' })
      const member = await t.signUp()
      const { cookie } = await viewAs(member, other)
      const done =
        how === 'demoted'
          ? await t.request(`/api/users/${other.id}`, { token: admin.token, method: 'PUT', body: { role: 'user' } })
          : await t.request(`/api/users/${other.id}/sign-out`, { token: admin.token, method: 'POST' })
      expect(done.status, how).toBe(200)
      expect(await viewSessionOf(member.id), how).toEqual([])
      expect((await browser('/api/auth/me', cookie)).status, how).toBe(401)
      const page = (await (await browser('/billing', cookie)).json()) as Page
      expect(page, how).toMatchObject({ user: how === 'demoted' ? other.email : null, viewedBy: null })
      const [entry] = (await auditFor(member.id)).filter((row) => row.action === 'user.view-as-ended')
      expect(entry?.after, how).toMatchObject({ how: 'gone' })
    }
  })

  it('is refused on oneself, an admin, a suspended member, without a reason, and to members and API keys', async () => {
    const member = await t.signUp()
    const otherAdmin = await t.signUp({ role: 'admin' })
    const suspended = await t.signUp()
    await t.services.userSuspensions.suspend({ id: admin.id, email: admin.email }, suspended.id, 'Card testing')
    // Their deletion waits (docs/decisions/065): nothing of theirs signs in, a view as them neither.
    const leaving = await t.signUp()
    await t.db
      .update(users)
      .set({ deletionRequestedAt: new Date(), eraseAfter: new Date(Date.now() + 14 * 24 * 60 * MINUTE) })
      .where(eq(users.id, leaving.id))
    const start = async (id: string, init: { reason?: string; token?: string } = {}) =>
      json(
        init.token
          ? await t.request(`/api/users/${id}/view-as`, { token: init.token, body: { reason: init.reason ?? REASON } })
          : await browser(`/api/users/${id}/view-as`, admin.cookie, { body: { reason: init.reason ?? REASON } }),
      )
    expect(await start(admin.id)).toMatchObject({ status: 409, message: 'You cannot view Aether as yourself.' })
    expect(await start(otherAdmin.id)).toMatchObject({
      status: 409,
      message: `${otherAdmin.email} is an admin: you can view Aether only as a member.`,
    })
    expect(await start(suspended.id)).toMatchObject({
      status: 409,
      message: `${suspended.email} is suspended: unsuspend them to view Aether as them.`,
    })
    expect(await start(leaving.id)).toMatchObject({
      status: 409,
      message: `${leaving.email} asked to delete their account: it cannot be viewed while the deletion waits.`,
    })
    expect(await start(member.id, { reason: '   ' })).toMatchObject({ status: 400, message: 'reason: Please give a reason.' })
    expect(await start(member.id, { reason: 'x'.repeat(501) })).toMatchObject({ status: 400 })
    expect((await start('no-such-user')).status).toBe(404)
    expect((await start(otherAdmin.id, { token: member.token })).status).toBe(403)
    const key = await json<{ key: string }>(
      await t.request('/api/keys', {
        token: admin.token,
        body: { name: 'Support key', scopes: ['automations', 'admin:read', 'admin:content'] },
      }),
    )
    expect(await start(member.id, { token: key.data.key })).toMatchObject({ status: 403, message: API_KEY_SESSION_ONLY_MESSAGE })
    // Nothing was started.
    expect(await viewSessionOf(member.id)).toEqual([])
    expect((await auditFor(member.id)).filter((row) => row.action === 'user.view-as')).toEqual([])
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, suspended.id))).toEqual([])
    expect(await viewSessionOf(leaving.id)).toEqual([])
  })

  it('switches the browser to the member even when the admin’s own session is due for Better Auth’s refresh', async () => {
    const other = await t.signUp({ role: 'admin' })
    const member = await t.signUp()
    // Past the refresh age: this request's resolution refreshes the admin's session and answers with its cookie.
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 5 * 24 * 60 * MINUTE) })
      .where(eq(sessions.token, other.token))
    const { cookie } = await viewAs(member, other)
    expect(((await (await browser('/dashboard', cookie)).json()) as Page).user).toBe(member.email)
    const ended = await browser('/api/auth/view-as/end', cookie, { method: 'POST' })
    expect(((await (await browser('/dashboard', cookiesAfter(ended, cookie))).json()) as Page).user).toBe(other.email)
  })

  it('works from a bearer session too: the admin comes back as a cookie session', async () => {
    const member = await t.signUp()
    const response = await t.request(`/api/users/${member.id}/view-as`, { token: admin.token, body: { reason: REASON } })
    expect(response.status).toBe(200)
    const cookie = cookiesAfter(response)
    expect(((await (await browser('/dashboard', cookie)).json()) as Page).user).toBe(member.email)
    const ended = await browser('/api/auth/view-as/end', cookie, { method: 'POST' })
    expect(await json<{ email: string }>(await browser('/api/auth/me', cookiesAfter(ended, cookie)))).toMatchObject({
      data: { email: admin.email },
    })
  })
})
