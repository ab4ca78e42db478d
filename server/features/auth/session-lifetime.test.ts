import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS } from '#server/auth.ts'
import { sessions } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const DAY_MS = 24 * 60 * 60 * 1000

async function sessionsOf(userId: string) {
  return t.db.select().from(sessions).where(eq(sessions.userId, userId))
}

describe('session lifetime', () => {
  it('idle timeout is 7 days and the absolute lifetime 30 days', () => {
    expect(SESSION_IDLE_SECONDS).toBe(7 * 24 * 60 * 60)
    expect(SESSION_ABSOLUTE_SECONDS).toBe(30 * 24 * 60 * 60)
  })

  it('a new session expires after the idle timeout', async () => {
    const user = await t.signUp()
    const [session] = await sessionsOf(user.id)
    const lifetime = (session?.expiresAt.getTime() ?? 0) - Date.now()
    expect(lifetime).toBeGreaterThan(7 * DAY_MS - 60_000)
    expect(lifetime).toBeLessThanOrEqual(7 * DAY_MS + 1000)
  })

  it('refuses a session older than 30 days even when it was active recently, and deletes it', async () => {
    const user = await t.signUp()
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    const [session] = await sessionsOf(user.id)
    expect(session).toBeDefined()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * DAY_MS), expiresAt: new Date(Date.now() + 6 * DAY_MS) })
      .where(eq(sessions.id, session?.id ?? ''))

    const response = await t.request('/api/auth/me', { token: user.token })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: expect.any(String) })
    expect(await sessionsOf(user.id)).toHaveLength(0)
    // Gone for the cookie too.
    expect((await t.request('/api/auth/me', { cookie: user.cookie })).status).toBe(401)
  })

  it('tells the browser to drop the cookie of a session past its absolute lifetime', async () => {
    const user = await t.signUp()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.userId, user.id))
    const response = await t.request('/api/auth/me', { cookie: user.cookie })
    expect(response.status).toBe(401)
    const cleared = response.headers.getSetCookie().find((value) => value.startsWith('auth_session='))
    expect(cleared).toBeDefined()
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i)
  })

  it('keeps a session that is 29 days old and still active', async () => {
    const user = await t.signUp()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 29 * DAY_MS), expiresAt: new Date(Date.now() + 6 * DAY_MS) })
      .where(eq(sessions.userId, user.id))
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    expect(await sessionsOf(user.id)).toHaveLength(1)
  })

  it('refuses a session whose expiry (idle timeout) has passed', async () => {
    const user = await t.signUp()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 8 * DAY_MS), expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.userId, user.id))
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await t.request('/api/auth/me', { cookie: user.cookie })).status).toBe(401)
    // Other routes that need a session refuse it as well.
    const put = await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { fullName: 'Too Late' } })
    expect(put.status).toBe(401)
  })

  it('does not let the old session live on after the absolute lifetime through another request kind', async () => {
    const user = await t.signUp()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.userId, user.id))
    const put = await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { fullName: 'Too Old' } })
    expect(put.status).toBe(401)
    const change = await t.request('/api/auth/change-password', {
      method: 'PUT',
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'brand-new-password' },
    })
    expect(change.status).toBe(401)
    // The password was not changed.
    const login = await t.request('/api/auth/login', { body: { email: user.email, password: user.password }, ip: t.freshIp() })
    expect(login.status).toBe(200)
  })

  it('a fresh sign-in after expiry gives a working session again', async () => {
    const user = await t.signUp()
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.userId, user.id))
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    const login = await t.request('/api/auth/login', { body: { email: user.email, password: user.password }, ip: t.freshIp() })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    expect((await t.request('/api/auth/me', { token })).status).toBe(200)
  })
})
