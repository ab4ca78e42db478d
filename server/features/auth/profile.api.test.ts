import { hash } from '@node-rs/argon2'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, profiles, users, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

type Profile = {
  role: string
  credits: number
  subscriptionPlan: string
  subscription_plan: string
  fullName: string | null
  full_name: string | null
  avatarUrl: string | null
  avatar_url: string | null
  timeZone: string | null
}
type UserBody = { data: { id: string; email: string; profile: Profile } }

async function me(token: string): Promise<UserBody['data']> {
  const response = await t.request('/api/auth/me', { token })
  expect(response.status).toBe(200)
  return ((await response.json()) as UserBody).data
}

describe('PUT /api/auth/profile', () => {
  it('updates the name and avatar, and /me shows them', async () => {
    const user = await t.signUp({ fullName: 'First Name' })
    const response = await t.request('/api/auth/profile', {
      method: 'PUT',
      token: user.token,
      body: { fullName: '  Grace Hopper  ', avatarUrl: 'https://example.com/grace.png' },
    })
    expect(response.status).toBe(200)
    const updated = ((await response.json()) as UserBody).data
    expect(updated.id).toBe(user.id)
    expect(updated.profile).toMatchObject({
      fullName: 'Grace Hopper',
      full_name: 'Grace Hopper',
      avatarUrl: 'https://example.com/grace.png',
      avatar_url: 'https://example.com/grace.png',
    })
    expect((await me(user.token)).profile).toMatchObject({ fullName: 'Grace Hopper', avatarUrl: 'https://example.com/grace.png' })
    // The account's display name follows the profile.
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, user.id))
    expect(row?.name).toBe('Grace Hopper')
  })

  it('updates one field without touching the other, and null removes the avatar', async () => {
    const user = await t.signUp({ fullName: 'Keep Me' })
    await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { avatarUrl: 'http://example.com/a.png' } })
    expect((await me(user.token)).profile).toMatchObject({ fullName: 'Keep Me', avatarUrl: 'http://example.com/a.png' })
    await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { fullName: 'New Name' } })
    expect((await me(user.token)).profile).toMatchObject({ fullName: 'New Name', avatarUrl: 'http://example.com/a.png' })
    const cleared = await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { avatarUrl: null } })
    expect(cleared.status).toBe(200)
    expect((await me(user.token)).profile).toMatchObject({ fullName: 'New Name', avatarUrl: null })
  })

  it('keeps the time zone schedules start in (docs/decisions/036): an IANA name, null for the browser’s', async () => {
    const user = await t.signUp()
    expect((await me(user.token)).profile.timeZone).toBeNull()
    const put = (timeZone: unknown) => t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { timeZone } })
    expect((await put('europe/berlin')).status).toBe(200)
    expect((await me(user.token)).profile.timeZone).toBe('Europe/Berlin')
    for (const timeZone of ['Mars/Olympus', '+02:00', '']) {
      const refused = await put(timeZone)
      expect(refused.status, timeZone).toBe(400)
      expect(((await refused.json()) as { message: string }).message).toMatch(/^timeZone: Time zone must be an IANA time zone name/)
    }
    expect((await put(null)).status).toBe(200)
    expect((await me(user.token)).profile.timeZone).toBeNull()
  })

  it('works with the session cookie as well', async () => {
    const user = await t.signUp()
    const response = await t.request('/api/auth/profile', { method: 'PUT', cookie: user.cookie, body: { fullName: 'Cookie User' } })
    expect(response.status).toBe(200)
    expect((await me(user.token)).profile.fullName).toBe('Cookie User')
  })

  it('refuses avatar URLs that are not http(s)', async () => {
    const user = await t.signUp()
    for (const avatarUrl of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/a.png',
      'file:///etc/passwd',
      '/relative.png',
    ]) {
      const response = await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { avatarUrl } })
      expect(response.status, avatarUrl).toBe(400)
      expect(((await response.json()) as { message: string }).message).toMatch(/^avatarUrl: /)
    }
    expect((await me(user.token)).profile.avatarUrl).toBeNull()
  })

  it("refuses a name under 2 characters with the spec's message", async () => {
    const user = await t.signUp({ fullName: 'Unchanged' })
    for (const fullName of ['A', ' B ', '']) {
      const response = await t.request('/api/auth/profile', { method: 'PUT', token: user.token, body: { fullName } })
      expect(response.status).toBe(400)
      const body = (await response.json()) as { message: string }
      expect(body.message).toContain('Name must be at least 2 characters.')
      expect(body.message).toMatch(/^fullName: /)
    }
    expect((await me(user.token)).profile.fullName).toBe('Unchanged')
  })

  it('requires a session (401 JSON)', async () => {
    const response = await t.request('/api/auth/profile', { method: 'PUT', body: { fullName: 'Nobody Here' } })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: expect.any(String) })
    const garbage = await t.request('/api/auth/profile', { method: 'PUT', body: { fullName: 'Nobody Here' }, token: 'garbage' })
    expect(garbage.status).toBe(401)
  })

  it('cannot change role, credits or plan', async () => {
    const user = await t.signUp()
    const response = await t.request('/api/auth/profile', {
      method: 'PUT',
      token: user.token,
      body: { fullName: 'Sneaky User', role: 'admin', credits: 1_000_000, subscriptionPlan: 'business' },
    })
    expect(response.status).toBe(200)
    expect((await me(user.token)).profile).toMatchObject({ fullName: 'Sneaky User', role: 'user', credits: 5, subscriptionPlan: 'free' })
  })
})

describe('new accounts', () => {
  it('get credits = app_settings.defaultCredits and the free plan', async () => {
    const settings = await t.services.settings.get()
    expect(settings.defaultCredits).toBe(5)
    const first = await t.signUp()
    expect((await me(first.token)).profile).toMatchObject({ credits: 5, subscriptionPlan: 'free', subscription_plan: 'free', role: 'user' })

    await t.services.settings.update({ ...settings, defaultCredits: 42 })
    try {
      const registered = await t.request('/api/auth/register', {
        body: { email: 'credits42@example.com', password: 'long-enough-pw', fullName: 'Forty Two' },
        ip: t.freshIp(),
      })
      expect(registered.status).toBe(201)
      const created = (await registered.json()) as { data: { user: { id: string; profile: Profile } } }
      expect(created.data.user.profile).toMatchObject({ credits: 42, subscriptionPlan: 'free', role: 'user', fullName: 'Forty Two' })
      const [row] = await t.db
        .select(profileColumns)
        .from(profiles)
        .innerJoin(workspaces, eq(workspaces.id, profiles.id))
        .where(eq(profiles.id, created.data.user.id))
      expect(row).toMatchObject({ credits: 42, subscriptionPlan: 'free', role: 'user', fullName: 'Forty Two' })
      // Users created before the change keep their credits.
      expect((await me(first.token)).profile.credits).toBe(5)

      await t.services.settings.update({ ...settings, defaultCredits: 0 })
      const zero = await t.signUp()
      expect((await me(zero.token)).profile.credits).toBe(0)
    } finally {
      await t.services.settings.update(settings)
    }
  })

  it('store the password as argon2id with m=7168, t=5, p=1', async () => {
    const user = await t.signUp({ password: 'hash-me-please' })
    const [account] = await t.db.select().from(accounts).where(eq(accounts.userId, user.id))
    expect(account?.providerId).toBe('credential')
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/)
    expect(account?.password).not.toContain('hash-me-please')
    // A fresh salt per hash: the same password hashes differently for another account.
    const other = await t.signUp({ password: 'hash-me-please' })
    const [otherAccount] = await t.db.select().from(accounts).where(eq(accounts.userId, other.id))
    expect(otherAccount?.password).not.toBe(account?.password)
  })

  it('keep argon2id after a password change', async () => {
    const user = await t.signUp({ password: 'before-change-1' })
    const changed = await t.request('/api/auth/change-password', {
      method: 'PUT',
      token: user.token,
      body: { currentPassword: 'before-change-1', newPassword: 'after-change-2' },
    })
    expect(changed.status).toBe(200)
    const [account] = await t.db.select().from(accounts).where(eq(accounts.userId, user.id))
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/)
  })

  it('sign in with a password stored under the earlier parameters (m=19456, t=2)', async () => {
    const user = await t.signUp({ password: 'stored-before-054' })
    const earlier = await hash('stored-before-054', { memoryCost: 19_456, timeCost: 2, parallelism: 1 })
    await t.db.update(accounts).set({ password: earlier }).where(eq(accounts.userId, user.id))
    const signIn = (password: string) => t.request('/api/auth/login', { body: { email: user.email, password }, ip: t.freshIp() })
    expect((await signIn('stored-before-054')).status).toBe(200)
    expect((await signIn('stored-before-055')).status).toBe(401)
  })

  it('lower-case and trim the e-mail, and log in with any casing', async () => {
    const registered = await t.request('/api/auth/register', {
      body: { email: '  Mixed.Case@Example.COM ', password: 'long-enough-pw' },
      ip: t.freshIp(),
    })
    expect(registered.status).toBe(201)
    const login = await t.request('/api/auth/login', {
      body: { email: 'MIXED.case@example.com', password: 'long-enough-pw' },
      ip: t.freshIp(),
    })
    expect(login.status).toBe(200)
    const body = (await login.json()) as { data: { user: { email: string } } }
    expect(body.data.user.email).toBe('mixed.case@example.com')
    const again = await t.request('/api/auth/register', {
      body: { email: 'mixed.case@EXAMPLE.com', password: 'long-enough-pw' },
      ip: t.freshIp(),
    })
    expect(again.status).toBe(409)
  })

  it('login answers { data: { token, user } } with the profile', async () => {
    const user = await t.signUp({ fullName: 'Shape Check' })
    const login = await t.request('/api/auth/login', { body: { email: user.email, password: user.password }, ip: t.freshIp() })
    const body = (await login.json()) as { data: { token: string; user: { id: string; email: string; profile: Profile } } }
    expect(body.data.token).toEqual(expect.any(String))
    expect(body.data.user).toMatchObject({ id: user.id, email: user.email, profile: { fullName: 'Shape Check', role: 'user', credits: 5 } })
    // No password material in the answer.
    expect(JSON.stringify(body)).not.toMatch(/argon2|password/i)
  })
})
