import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, sessionCookie, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('POST /api/auth/register and /api/auth/login', () => {
  it('registers, signs in with a token and a cookie, and reads /me', async () => {
    const registered = await t.request('/api/auth/register', {
      body: { email: 'Ada@Example.com', password: 'analytical-engine', fullName: 'Ada Lovelace' },
    })
    expect(registered.status).toBe(201)
    const created = (await registered.json()) as {
      data: { user: { email: string; profile: { credits: number; subscriptionPlan: string; role: string } } }
    }
    expect(created.data.user.email).toBe('ada@example.com')
    expect(created.data.user.profile).toMatchObject({ credits: 5, subscriptionPlan: 'free', role: 'user' })

    const login = await t.request('/api/auth/login', { body: { email: 'ada@example.com', password: 'analytical-engine' } })
    expect(login.status).toBe(200)
    const body = (await login.json()) as { data: { token: string } }
    expect(body.data.token).toEqual(expect.any(String))
    const setCookie = login.headers.getSetCookie().find((value) => value.startsWith('auth_session='))
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)

    const byToken = await t.request('/api/auth/me', { token: body.data.token })
    expect(byToken.status).toBe(200)
    expect(((await byToken.json()) as { data: { email: string } }).data.email).toBe('ada@example.com')

    const byCookie = await t.request('/api/auth/me', { cookie: sessionCookie(login) })
    expect(byCookie.status).toBe(200)
  })

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    await t.signUp({ email: 'known@example.com', password: 'right-password' })
    const wrong = await t.request('/api/auth/login', { body: { email: 'known@example.com', password: 'wrong-password' }, ip: t.freshIp() })
    const unknown = await t.request('/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'wrong-password' },
      ip: t.freshIp(),
    })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await wrong.json()).toEqual(await unknown.json())
  })

  it('refuses a bad body with 400 naming the field', async () => {
    const response = await t.request('/api/auth/register', { body: { email: 'not-an-email', password: 'long-enough-pw' } })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(/^email: /)
    const short = await t.request('/api/auth/register', { body: { email: 'short@example.com', password: 'short' } })
    expect(short.status).toBe(400)
    expect(((await short.json()) as { message: string }).message).toMatch(/password/)
  })

  it("answers a sign-in without an e-mail or a password with the spec's message (issue 27, item 14)", async () => {
    const bodies = [
      {},
      { email: '', password: '' },
      { email: 'known@example.com' },
      { email: '  ', password: 'a-password' },
      { password: 'x' },
    ]
    for (const body of bodies) {
      const response = await t.request('/api/auth/login', { body, ip: t.freshIp() })
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(await response.json()).toMatchObject({
        message: 'You must provide either an email or phone number and a password',
        code: 'VALIDATION_ERROR',
      })
    }
    // A malformed address still names its field.
    const malformed = await t.request('/api/auth/login', { body: { email: 'not-an-email', password: 'x' }, ip: t.freshIp() })
    expect(((await malformed.json()) as { message: string }).message).toBe('email: Please enter a valid email address.')
  })

  it('refuses a second account with the same e-mail with 409', async () => {
    await t.signUp({ email: 'twice@example.com' })
    const again = await t.request('/api/auth/register', {
      body: { email: 'twice@example.com', password: 'another-password' },
      ip: t.freshIp(),
    })
    expect(again.status).toBe(409)
  })

  it('lets an address register again when an interrupted sign-up left only its user row', async () => {
    await t.db.insert(users).values({ id: 'interrupted-sign-up', email: 'interrupted@example.com' })
    const again = await t.request('/api/auth/register', {
      body: { email: 'interrupted@example.com', password: 'a-good-password' },
      ip: t.freshIp(),
    })
    expect(again.status).toBe(201)
    const login = await t.request('/api/auth/login', {
      body: { email: 'interrupted@example.com', password: 'a-good-password' },
      ip: t.freshIp(),
    })
    expect(login.status).toBe(200)
  })

  it('requires a session for /me', async () => {
    const response = await t.request('/api/auth/me')
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: expect.any(String) })
  })
})

describe('sessions end on the server', () => {
  it('logout invalidates the token', async () => {
    const user = await t.signUp()
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    expect((await t.request('/api/auth/logout', { method: 'POST', token: user.token })).status).toBe(200)
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
  })

  it('a password change ends every other session and returns a working new token', async () => {
    const user = await t.signUp({ password: 'first-password-1' })
    const second = await t.request('/api/auth/login', { body: { email: user.email, password: 'first-password-1' }, ip: t.freshIp() })
    const secondToken = ((await second.json()) as { data: { token: string } }).data.token

    const changed = await t.request('/api/auth/change-password', {
      method: 'PUT',
      token: user.token,
      body: { currentPassword: 'first-password-1', newPassword: 'second-password-2' },
    })
    expect(changed.status).toBe(200)
    const newToken = ((await changed.json()) as { data: { token: string } }).data.token
    expect((await t.request('/api/auth/me', { token: secondToken })).status).toBe(401)
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await t.request('/api/auth/me', { token: newToken })).status).toBe(200)

    const oldLogin = await t.request('/api/auth/login', { body: { email: user.email, password: 'first-password-1' }, ip: t.freshIp() })
    expect(oldLogin.status).toBe(401)
  })
})
