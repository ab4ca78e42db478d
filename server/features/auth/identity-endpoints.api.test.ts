import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Better Auth's handler is mounted under /api/identity for Google sign-in and its callback only.
// Its e-mail sign-in, sign-up, session and password endpoints must not be a way around the
// validation and the stricter limits of /api/auth.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ googleEnabled: true })
})
afterAll(async () => {
  await t.close()
})

function expectNoSession(response: Response) {
  expect(response.status, `status ${response.status}`).toBeGreaterThanOrEqual(400)
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('auth_session=') && !/max-age=0/i.test(value))
  expect(cookie).toBeUndefined()
}

describe('Better Auth endpoints under /api/identity', () => {
  it('e-mail sign-in is not reachable: a locked account gets no session there', async () => {
    const user = await t.signUp({ password: 'locked-password' })
    for (let i = 0; i < 10; i++)
      await t.request('/api/auth/login', { body: { email: user.email, password: 'wrong-password' }, ip: t.freshIp() })
    expect((await t.request('/api/auth/login', { body: { email: user.email, password: 'locked-password' }, ip: t.freshIp() })).status).toBe(
      429,
    )

    const bypass = await t.request('/api/identity/sign-in/email', {
      body: { email: user.email, password: 'locked-password' },
      ip: t.freshIp(),
    })
    expect(bypass.status).toBe(404)
    expectNoSession(bypass)
  })

  it('e-mail sign-up is not reachable: no account is created there', async () => {
    const bypass = await t.request('/api/identity/sign-up/email', {
      body: { email: 'bypass@example.com', password: 'long-enough-pw', name: 'Bypass' },
    })
    expect(bypass.status).toBe(404)
    const [created] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'bypass@example.com'))
    expect(created).toBeUndefined()
  })

  it('password change, profile update and session endpoints are not reachable', async () => {
    const user = await t.signUp({ password: 'first-password' })
    const change = await t.request('/api/identity/change-password', {
      token: user.token,
      body: { currentPassword: 'first-password', newPassword: 'second-password' },
    })
    expect(change.status).toBe(404)
    expect((await t.request('/api/identity/update-user', { token: user.token, body: { name: 'x' } })).status).toBe(404)
    expect((await t.request('/api/identity/get-session', { token: user.token })).status).toBe(404)
    const login = await t.request('/api/auth/login', { body: { email: user.email, password: 'first-password' }, ip: t.freshIp() })
    expect(login.status).toBe(200)
  })

  it('Google sign-in is reachable and answers with the provider address to go to', async () => {
    const response = await t.request('/api/identity/sign-in/social', {
      body: { provider: 'google', callbackURL: '/dashboard' },
      headers: { origin: 'http://localhost:3000' },
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { url: string }
    expect(new URL(body.url).hostname).toBe('accounts.google.com')
  })
})
