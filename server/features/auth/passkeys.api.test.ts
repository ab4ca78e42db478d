import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passkeys } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { createSoftwareAuthenticator } from '#server/testing/software-authenticator.ts'
import { enableTwoFactor } from '#server/testing/totp.ts'

// Passkeys over the own API (docs/decisions/023), with a software authenticator playing the
// browser's part: adding one (password first), signing in with it (both factors: no second step
// even with two-factor on), deleting it, and what is refused.

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Options = Record<string, unknown>

let t: TestApp
const CHALLENGE_COOKIE = 'better-auth.passkey_challenge'

/** The challenge cookie a ceremony's first call set, as the browser sends it back. */
function challengeCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith(`${CHALLENGE_COOKIE}=`))
  if (!cookie) throw new Error('no challenge cookie was set')
  return cookie.split(';')[0] ?? ''
}

async function data<T>(response: Response, status: number): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: T }).data
}

async function addPasskey(member: Member, authenticator: ReturnType<typeof createSoftwareAuthenticator>, name = 'My laptop') {
  const started = await t.request('/api/auth/passkeys/options', { token: member.token, body: { name, password: member.password } })
  const options = await data<Options>(started, 200)
  const response = authenticator.create(options)
  return t.request('/api/auth/passkeys', { token: member.token, cookie: challengeCookie(started), body: { name, response } })
}

async function signInWithPasskey(authenticator: ReturnType<typeof createSoftwareAuthenticator>, how: { userVerified?: boolean } = {}) {
  const ip = t.freshIp()
  const started = await t.request('/api/auth/login/passkey/options', { method: 'POST', ip })
  const options = await data<Options>(started, 200)
  const response = authenticator.get(options, how)
  return t.request('/api/auth/login/passkey', { cookie: challengeCookie(started), body: { response }, ip })
}

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('adding a passkey', () => {
  it('needs the password; the passkey is then listed with its name, and its public key only is stored', async () => {
    const member = await t.signUp()
    const authenticator = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
    const refused = await t.request('/api/auth/passkeys/options', { token: member.token, body: { name: 'Laptop', password: 'wrong-one' } })
    expect(refused.status).toBe(400)

    const added = await data<{ id: string; name: string }>(await addPasskey(member, authenticator, 'Work laptop'), 201)
    expect(added.name).toBe('Work laptop')
    const listed = await data<{ id: string; name: string; deviceType: string }[]>(
      await t.request('/api/auth/passkeys', { token: member.token }),
      200,
    )
    expect(listed).toEqual([expect.objectContaining({ id: added.id, name: 'Work laptop' })])
    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.id, added.id))
    expect(row?.userId).toBe(member.id)
    expect(row?.publicKey).toBeTruthy()
  })

  it('refuses an answer without the challenge cookie, and one that did not verify its user', async () => {
    const member = await t.signUp()
    const authenticator = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
    const started = await t.request('/api/auth/passkeys/options', { token: member.token, body: { name: 'Key', password: member.password } })
    const options = await data<Options>(started, 200)
    const noCookie = await t.request('/api/auth/passkeys', {
      token: member.token,
      body: { name: 'Key', response: authenticator.create(options) },
    })
    expect(noCookie.status).toBe(401)

    const again = await t.request('/api/auth/passkeys/options', { token: member.token, body: { name: 'Key', password: member.password } })
    const unverified = authenticator.create(await data<Options>(again, 200), { userVerified: false })
    const refused = await t.request('/api/auth/passkeys', {
      token: member.token,
      cookie: challengeCookie(again),
      body: { name: 'Key', response: unverified },
    })
    expect(refused.status).toBe(401)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toEqual([])
  })

  it('is refused to API keys and visitors', async () => {
    const member = await t.signUp()
    const key = await data<{ key: string }>(await t.request('/api/keys', { token: member.token, body: { name: 'Script' } }), 201)
    expect((await t.request('/api/auth/passkeys', { token: key.key })).status).toBe(403)
    expect((await t.request('/api/auth/passkeys')).status).toBe(401)
  })
})

describe('signing in with a passkey', () => {
  let member: Member
  const authenticator = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })

  beforeAll(async () => {
    member = await t.signUp()
    await enableTwoFactor(t, member)
    await data(await addPasskey(member, authenticator), 201)
  })

  it('signs in at once, even with two-factor on: a bearer token and the session cookie', async () => {
    const response = await signInWithPasskey(authenticator)
    const signedIn = await data<{ token: string; user: { email: string } }>(response, 200)
    expect(signedIn.user.email).toBe(member.email)
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('auth_session=') && !cookie.includes('Max-Age=0'))).toBe(true)
    expect((await t.request('/api/auth/me', { token: signedIn.token })).status).toBe(200)
  })

  it('refuses an assertion that did not verify the user (no PIN or biometrics)', async () => {
    const response = await signInWithPasskey(authenticator, { userVerified: false })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { message: string }).message).toMatch(/did not verify you/)
  })

  it('a challenge works once', async () => {
    const ip = t.freshIp()
    const started = await t.request('/api/auth/login/passkey/options', { method: 'POST', ip })
    const options = await data<Options>(started, 200)
    const cookie = challengeCookie(started)
    expect((await t.request('/api/auth/login/passkey', { cookie, body: { response: authenticator.get(options) }, ip })).status).toBe(200)
    expect((await t.request('/api/auth/login/passkey', { cookie, body: { response: authenticator.get(options) }, ip })).status).toBe(401)
  })

  it('a deleted passkey no longer signs in; another member cannot delete it', async () => {
    const other = await t.signUp()
    const [mine] = await data<{ id: string }[]>(await t.request('/api/auth/passkeys', { token: member.token }), 200)
    expect((await t.request(`/api/auth/passkeys/${mine?.id}`, { token: other.token, method: 'DELETE' })).status).toBe(404)
    await data(await t.request(`/api/auth/passkeys/${mine?.id}`, { token: member.token, method: 'DELETE' }), 200)
    const response = await signInWithPasskey(authenticator)
    expect(response.status).toBe(401)
  })

  it("an admin's reset removes the member's passkeys", async () => {
    const admin = await t.signUp({ role: 'admin' })
    const owner = await t.signUp()
    const device = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
    await data(await addPasskey(owner, device), 201)
    const reset = await data<{ passkeys: number }>(
      await t.request(`/api/users/${owner.id}/reset-two-factor`, { token: admin.token, body: {} }),
      200,
    )
    expect(reset.passkeys).toBe(0)
    expect((await signInWithPasskey(device)).status).toBe(401)
  })
})
