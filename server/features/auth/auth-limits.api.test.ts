import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RateLimitRule } from '#server/features/rate-limit/rate-limit.service.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import {
  failedSignInDelayMs,
  FAILED_SIGN_IN_PER_ACCOUNT,
  FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT,
  PASSWORD_CHANGE_PER_USER,
  SIGN_IN_PER_IP,
  SIGN_UP_PER_IP,
} from './auth-limits.ts'
import { TRUSTED_DEVICE_COOKIE } from './trusted-devices.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

let ipSeq = 0
/** Addresses of our own (outside the harness's freshIp range), one per call. */
const uniqueIp = (): string => {
  ipSeq++
  return `100.64.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`
}

const login = (email: string, password: string, ip: string) => t.request('/api/auth/login', { body: { email, password }, ip })
const register = (email: string, ip: string, password = 'a-good-password') =>
  t.request('/api/auth/register', { body: { email, password }, ip })

async function expectRateLimited(response: Response, messagePattern: RegExp, rule: RateLimitRule) {
  expect(response.status).toBe(429)
  expect(response.headers.get('content-type')).toMatch(/application\/json/)
  const body = (await response.json()) as { message: string }
  expect(body.message).toMatch(messagePattern)
  const retryAfter = Number(response.headers.get('retry-after'))
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  // The RateLimit headers describe the rule that refused, not the general API limit.
  expect(response.headers.get('ratelimit-policy')).toBe(`${rule.limit};w=${rule.windowSeconds}`)
  expect(response.headers.get('ratelimit-remaining')).toBe('0')
  expect(response.headers.get('ratelimit-reset')).toBe(String(retryAfter))
  return { body, retryAfter }
}

describe('the rules', () => {
  it('are the documented numbers', () => {
    expect(SIGN_IN_PER_IP).toMatchObject({ limit: 30, windowSeconds: 600 })
    expect(FAILED_SIGN_IN_PER_ACCOUNT).toMatchObject({ limit: 10, windowSeconds: 900 })
    expect(FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT).toMatchObject({ limit: 5, windowSeconds: 900 })
    expect(SIGN_UP_PER_IP).toMatchObject({ limit: 10, windowSeconds: 3600 })
    expect(PASSWORD_CHANGE_PER_USER).toMatchObject({ limit: 10, windowSeconds: 900 })
  })
})

describe('sign-in per address: 30 per 10 minutes', () => {
  it('answers the 31st attempt from one address with 429, JSON {message} and Retry-After', async () => {
    const user = await t.signUp({ password: 'per-ip-password' })
    const ip = '203.0.113.31'
    // 29 failures spread over different (unknown) accounts, so no per-account lock interferes, plus one success.
    for (let i = 0; i < 29; i++) {
      const response = await login(`nobody-${i}@example.com`, 'wrong-password', ip)
      expect(response.status, `attempt ${i + 1}`).toBe(401)
    }
    expect((await login(user.email, 'per-ip-password', ip)).status).toBe(200)

    // The 31st is refused even with the right password.
    const refused = await login(user.email, 'per-ip-password', ip)
    const { body, retryAfter } = await expectRateLimited(refused, /sign-in attempts from your network/i, SIGN_IN_PER_IP)
    expect(body.message).toBe(SIGN_IN_PER_IP.message)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(retryAfter).toBeGreaterThan(500)

    // Another address is unaffected.
    expect((await login(user.email, 'per-ip-password', '203.0.113.32')).status).toBe(200)
  })
})

describe('failed sign-ins: throttled per client, and per account for unknown devices only (ADR 016)', () => {
  /** The trusted-device cookie a successful sign-in sets. */
  const deviceCookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${TRUSTED_DEVICE_COOKIE}=`))
      ?.split(';')[0] ?? ''

  it("after 10 failures from anywhere, unknown devices are refused (429) but the owner's device still signs in", async () => {
    const victim = await t.signUp({ password: 'victim-password' })
    const bystander = await t.signUp({ password: 'bystander-password' })
    const owned = await login(victim.email, 'victim-password', uniqueIp())
    expect(owned.status).toBe(200)
    const device = deviceCookieOf(owned)
    expect(device).toMatch(new RegExp(`^${TRUSTED_DEVICE_COOKIE}=`))

    for (let i = 0; i < 10; i++) {
      expect((await login(victim.email, 'wrong-password', uniqueIp())).status, `failure ${i + 1}`).toBe(401)
    }
    // The right password from a brand-new device is refused: the attacker cannot tell it from theirs.
    const refused = await login(victim.email, 'victim-password', uniqueIp())
    const { body, retryAfter } = await expectRateLimited(refused, /failed sign-in attempts for this account/i, FAILED_SIGN_IN_PER_ACCOUNT)
    expect(body.message).toBe(FAILED_SIGN_IN_PER_ACCOUNT.message)
    expect(retryAfter).toBeLessThanOrEqual(900)
    expect(retryAfter).toBeGreaterThan(800)
    // The count follows the normalised e-mail.
    expect((await login(victim.email.toUpperCase(), 'victim-password', uniqueIp())).status).toBe(429)

    // The owner, on a device that signed in before, is not locked out...
    const owner = await t.request('/api/auth/login', {
      body: { email: victim.email, password: 'victim-password' },
      ip: uniqueIp(),
      cookie: device,
    })
    expect(owner.status).toBe(200)
    // ...but that device gets no more guesses than any other: a wrong password is still a failure.
    expect(
      (await t.request('/api/auth/login', { body: { email: victim.email, password: 'nope' }, ip: uniqueIp(), cookie: device })).status,
    ).toBe(401)
    // A forged or another account's device cookie does not help.
    const forged = `${TRUSTED_DEVICE_COOKIE}=${victim.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`
    expect(
      (await t.request('/api/auth/login', { body: { email: victim.email, password: 'victim-password' }, ip: uniqueIp(), cookie: forged }))
        .status,
    ).toBe(429)
    const other = deviceCookieOf(await login(bystander.email, 'bystander-password', uniqueIp()))
    expect(
      (await t.request('/api/auth/login', { body: { email: victim.email, password: 'victim-password' }, ip: uniqueIp(), cookie: other }))
        .status,
    ).toBe(429)

    expect((await login(bystander.email, 'bystander-password', uniqueIp())).status).toBe(200)
  })

  it('5 failures for one account from one address refuse that address only, whatever the password', async () => {
    const user = await t.signUp({ password: 'client-password' })
    const attacker = uniqueIp()
    for (let i = 0; i < 5; i++) expect((await login(user.email, 'wrong-password', attacker)).status, `failure ${i + 1}`).toBe(401)
    const refused = await login(user.email, 'client-password', attacker)
    const { body } = await expectRateLimited(refused, /from your network/i, FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT)
    expect(body.message).toBe(FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT.message)
    // Everyone else, the owner included, signs in as usual.
    expect((await login(user.email, 'client-password', uniqueIp())).status).toBe(200)
  })

  it('slows failures before it refuses them: the first three answer at once, then 0.25 s, 0.5 s, 1 s, 2 s', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(failedSignInDelayMs)).toEqual([0, 0, 0, 250, 500, 1000, 2000, 2000])
    const user = await t.signUp({ password: 'slowed-password' })
    const durations: number[] = []
    for (let i = 0; i < 6; i++) {
      const started = performance.now()
      expect((await login(user.email, 'wrong-password', uniqueIp())).status).toBe(401)
      durations.push(performance.now() - started)
    }
    expect(durations[3]).toBeGreaterThanOrEqual(250)
    expect(durations[4]).toBeGreaterThanOrEqual(500)
    expect(durations[5]).toBeGreaterThanOrEqual(1000)
    // The right password is not slowed, and ends the series.
    const started = performance.now()
    expect((await login(user.email, 'slowed-password', uniqueIp())).status).toBe(200)
    expect(performance.now() - started).toBeLessThan(durations[5] ?? 0)
  })

  it("a successful sign-in resets its client's failure counter", async () => {
    const user = await t.signUp({ password: 'reset-password' })
    const ip = uniqueIp()
    for (let i = 0; i < 4; i++) expect((await login(user.email, 'wrong-password', ip)).status).toBe(401)
    expect((await login(user.email, 'reset-password', ip)).status).toBe(200)
    // Without the reset, the 5th failure here would refuse this address.
    for (let i = 0; i < 4; i++) expect((await login(user.email, 'wrong-password', ip)).status).toBe(401)
    expect((await login(user.email, 'reset-password', ip)).status).toBe(200)
  })

  it('counts failures for unknown e-mails too (no account enumeration through the lock)', async () => {
    for (let i = 0; i < 10; i++) expect((await login('ghost@example.com', 'wrong-password', uniqueIp())).status).toBe(401)
    await expectRateLimited(
      await login('ghost@example.com', 'wrong-password', uniqueIp()),
      /failed sign-in attempts/i,
      FAILED_SIGN_IN_PER_ACCOUNT,
    )
  })
})

describe('sign-up per address: 10 per hour', () => {
  it('answers the 11th registration from one address with 429 and Retry-After; other addresses still register', async () => {
    const ip = '203.0.113.77'
    for (let i = 0; i < 10; i++) {
      const response = await register(`signup-${i}@example.com`, ip)
      expect(response.status, `registration ${i + 1}`).toBe(201)
    }
    const refused = await register('signup-10@example.com', ip)
    const { body, retryAfter } = await expectRateLimited(refused, /accounts created from your network/i, SIGN_UP_PER_IP)
    expect(body.message).toBe(SIGN_UP_PER_IP.message)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect(retryAfter).toBeGreaterThan(3500)
    // The refused account was not created.
    expect((await register('signup-10@example.com', '203.0.113.78')).status).toBe(201)
  })

  it('counts refused registrations (duplicate e-mails) against the address too', async () => {
    const ip = '203.0.113.79'
    await t.signUp({ email: 'dup@example.com' })
    for (let i = 0; i < 10; i++) expect((await register('dup@example.com', ip)).status).toBe(409)
    expect((await register('fresh-after-dups@example.com', ip)).status).toBe(429)
  })
})

describe('IPv6 clients are counted per /64', () => {
  it('sign-up: addresses in one /64 share a budget; another /64 does not', async () => {
    for (let i = 0; i < 10; i++) {
      const ip = `2001:db8:aaaa:1::${(i + 1).toString(16)}`
      expect((await register(`v6-${i}@example.com`, ip)).status).toBe(201)
    }
    expect((await register('v6-refused@example.com', '2001:db8:aaaa:1:ffff:ffff:ffff:fffe')).status).toBe(429)
    expect((await register('v6-other-net@example.com', '2001:db8:aaaa:2::1')).status).toBe(201)
  })
})

describe('password change per user: 10 per 15 minutes', () => {
  it('refuses the 11th attempt with 429 even with the right current password; other users are unaffected', async () => {
    const user = await t.signUp({ password: 'current-password' })
    const change = (token: string, currentPassword: string) =>
      t.request('/api/auth/change-password', {
        method: 'PUT',
        token,
        body: { currentPassword, newPassword: 'next-password-1' },
        ip: uniqueIp(),
      })
    for (let i = 0; i < 10; i++) expect((await change(user.token, `wrong-current-${i}`)).status, `attempt ${i + 1}`).toBe(400)
    const { body } = await expectRateLimited(
      await change(user.token, 'current-password'),
      /password change attempts/i,
      PASSWORD_CHANGE_PER_USER,
    )
    expect(body.message).toBe(PASSWORD_CHANGE_PER_USER.message)
    // The password is unchanged.
    expect((await login(user.email, 'current-password', uniqueIp())).status).toBe(200)

    const other = await t.signUp({ password: 'other-current' })
    const response = await t.request('/api/auth/change-password', {
      method: 'PUT',
      token: other.token,
      body: { currentPassword: 'other-current', newPassword: 'other-next-1' },
      ip: uniqueIp(),
    })
    expect(response.status).toBe(200)
  })
})
