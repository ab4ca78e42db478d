import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { auditLog, twoFactors, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { enableTwoFactor as enableWith, totpCode, wrongTotpCode } from '#server/testing/totp.ts'

// Two-factor sign-in over the own API (docs/decisions/023): set-up, the second step of
// POST /auth/login for bearer clients, recovery codes, turning it off, limits, an admin's reset.

type Member = Awaited<ReturnType<TestApp['signUp']>>
type SecondFactorDue = { message: string; code: string; data: { ticket: string; methods: string[]; expiresIn: number; token?: string } }

let t: TestApp

const json = async <T>(response: Response, status: number): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status)
  return (await response.json()) as T
}

const enableTwoFactor = (member: Member) => enableWith(t, member)

async function passwordStep(member: Member, ip = t.freshIp()) {
  const response = await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip })
  const body = await json<SecondFactorDue>(response, 401)
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('auth_session=') && !cookie.includes('Max-Age=0'))).toBe(false)
  return body
}

const secondStep = (body: Record<string, string>, ip = t.freshIp()) => t.request('/api/auth/login/second-factor', { body, ip })

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('setting up two-factor sign-in', () => {
  it('needs the password, then a first code; only then is it on, and the recovery codes are answered once', async () => {
    const member = await t.signUp()
    const wrongPassword = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: 'not-my-password' } })
    expect(wrongPassword.status).toBe(400)
    expect(((await wrongPassword.json()) as { message: string }).message).toBe('password: Password is incorrect.')

    const setup = await json<{ data: { totpUri: string; secret: string } }>(
      await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } }),
      200,
    )
    expect(setup.data.totpUri).toMatch(/^otpauth:\/\/totp\/Aether:/)
    expect(setup.data.totpUri).toContain(`secret=${setup.data.secret}`)
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32,}$/)
    const pending = await json<{ data: { enabled: boolean; pending: boolean } }>(
      await t.request('/api/auth/two-factor', { token: member.token }),
      200,
    )
    expect(pending.data).toMatchObject({ enabled: false, pending: true })
    // Not in force yet: the password alone still signs in.
    expect((await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })).status).toBe(
      200,
    )

    const wrongCode = await t.request('/api/auth/two-factor/confirm', {
      token: member.token,
      body: { code: wrongTotpCode(setup.data.secret) },
    })
    expect(wrongCode.status).toBe(400)
    const oldToken = member.token
    const confirmed = await json<{ data: { recoveryCodes: string[]; token: string } }>(
      await t.request('/api/auth/two-factor/confirm', { token: member.token, body: { code: totpCode(setup.data.secret) } }),
      200,
    )
    expect(confirmed.data.recoveryCodes).toHaveLength(10)
    // Better Auth replaced the session: the old token is over, the returned one works.
    expect((await t.request('/api/auth/me', { token: oldToken })).status).toBe(401)
    expect((await t.request('/api/auth/me', { token: confirmed.data.token })).status).toBe(200)
    const status = await json<{ data: { enabled: boolean; recoveryCodesLeft: number } }>(
      await t.request('/api/auth/two-factor', { token: confirmed.data.token }),
      200,
    )
    expect(status.data).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 })

    // At rest: the secret and the codes are encrypted, never stored as given.
    const [row] = await t.db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))
    expect(row?.secret).toBeTruthy()
    expect(row?.secret).not.toContain(setup.data.secret)
    for (const code of confirmed.data.recoveryCodes) expect(row?.backupCodes).not.toContain(code)
    // And never answered again: a second set-up is refused while it is on.
    expect(
      (await t.request('/api/auth/two-factor/setup', { token: confirmed.data.token, body: { password: member.password } })).status,
    ).toBe(409)
  })

  it('is refused to API keys: changing how an account signs in needs a session', async () => {
    const member = await t.signUp()
    const key = await json<{ data: { key: string } }>(await t.request('/api/keys', { token: member.token, body: { name: 'Script' } }), 201)
    const response = await t.request('/api/auth/two-factor/setup', { token: key.data.key, body: { password: member.password } })
    expect(response.status).toBe(403)
  })
})

describe('signing in with a second factor (bearer clients)', () => {
  let member: Member
  let secret: string
  let recoveryCodes: string[]
  /** A code works once: the app's code of the next 30-second step, the clock moved on to it. */
  const nextCode = () => {
    vi.setSystemTime(Date.now() + 30_000)
    return totpCode(secret)
  }

  beforeAll(async () => {
    // The clock stands still (in the middle of a step) unless a test moves it.
    vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / 30_000) * 30_000 + 15_000 })
    member = await t.signUp()
    ;({ secret, recoveryCodes } = await enableTwoFactor(member))
  })
  afterAll(() => {
    vi.useRealTimers()
  })

  it('the password answers "second factor required" with a ticket and no token; the code then signs in', async () => {
    const due = await passwordStep(member)
    expect(due).toMatchObject({ message: 'Two-factor code required', code: 'SECOND_FACTOR_REQUIRED' })
    expect(due.data.methods).toEqual(['totp', 'recovery-code'])
    expect(due.data.expiresIn).toBe(300)
    expect(due.data.token).toBeUndefined()

    const wrong = await secondStep({ ticket: due.data.ticket, code: wrongTotpCode(secret) })
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as { message: string }).message).toMatch(/Invalid two-factor code/)

    const signedIn = await json<{ data: { token: string; user: { email: string } } }>(
      await secondStep({ ticket: due.data.ticket, code: totpCode(secret) }),
      200,
    )
    expect(signedIn.data.user.email).toBe(member.email)
    const me = await json<{ data: { email: string } }>(await t.request('/api/auth/me', { token: signedIn.data.token }), 200)
    expect(me.data.email).toBe(member.email)

    // The ticket worked once.
    const again = await secondStep({ ticket: due.data.ticket, code: totpCode(secret) })
    expect(again.status).toBe(401)
    expect(((await again.json()) as { code: string }).code).toBe('SECOND_FACTOR_EXPIRED')
  })

  it('a wrong password still answers the plain 401, with no ticket', async () => {
    const response = await t.request('/api/auth/login', { body: { email: member.email, password: 'wrong-password' }, ip: t.freshIp() })
    const body = await json<{ code: string; data?: unknown }>(response, 401)
    expect(body.code).toBe('UNAUTHORIZED')
    expect(body.data).toBeUndefined()
  })

  it('a ticket allows five tries: after five wrong codes even the right one is refused', async () => {
    const due = await passwordStep(member)
    for (let i = 0; i < 5; i++) expect((await secondStep({ ticket: due.data.ticket, code: wrongTotpCode(secret) })).status).toBe(401)
    const spent = await secondStep({ ticket: due.data.ticket, code: nextCode() })
    expect(spent.status).toBe(401)
    expect(((await spent.json()) as { code: string }).code).toBe('SECOND_FACTOR_EXPIRED')
    // Those failures count toward the account's lock; a success clears the count.
    const fresh = await passwordStep(member)
    expect((await secondStep({ ticket: fresh.data.ticket, code: nextCode() })).status).toBe(200)
  })

  it('a forged or made-up ticket signs nobody in', async () => {
    const due = await passwordStep(member)
    const forged = `${due.data.ticket.split('.')[0]}.AAAA`
    expect((await secondStep({ ticket: forged, code: totpCode(secret) })).status).toBe(401)
    expect((await secondStep({ ticket: '2fa-made-up', code: totpCode(secret) })).status).toBe(401)
  })

  it('a recovery code signs in once; the same code never again', async () => {
    const code = recoveryCodes[0] ?? ''
    const first = await passwordStep(member)
    const signedIn = await json<{ data: { token: string } }>(await secondStep({ ticket: first.data.ticket, recoveryCode: code }), 200)
    const status = await json<{ data: { recoveryCodesLeft: number } }>(
      await t.request('/api/auth/two-factor', { token: signedIn.data.token }),
      200,
    )
    expect(status.data.recoveryCodesLeft).toBe(9)

    const second = await passwordStep(member)
    const reused = await secondStep({ ticket: second.data.ticket, recoveryCode: code })
    expect(reused.status).toBe(401)
    expect(((await reused.json()) as { message: string }).message).toMatch(/Invalid recovery code/)
  })

  it('new recovery codes replace the old ones (password first)', async () => {
    const wrong = await t.request('/api/auth/two-factor/recovery-codes', { token: member.token, body: { password: 'nope-nope' } })
    expect(wrong.status).toBe(400)
    const fresh = await json<{ data: { recoveryCodes: string[] } }>(
      await t.request('/api/auth/two-factor/recovery-codes', { token: member.token, body: { password: member.password } }),
      200,
    )
    expect(fresh.data.recoveryCodes).toHaveLength(10)
    const old = await passwordStep(member)
    expect((await secondStep({ ticket: old.data.ticket, recoveryCode: recoveryCodes[1] ?? '' })).status).toBe(401)
    const renewed = await passwordStep(member)
    expect((await secondStep({ ticket: renewed.data.ticket, recoveryCode: fresh.data.recoveryCodes[0] ?? '' })).status).toBe(200)
  })

  it('sends either a code or a recovery code, never both', async () => {
    const response = await secondStep({ ticket: 'x', code: '123456', recoveryCode: 'abcde-12345' })
    expect(response.status).toBe(400)
  })

  it('limits second-step attempts per client address (the rate-limit service): the 31st in 10 minutes is 429', async () => {
    const ip = t.freshIp()
    for (let i = 0; i < 30; i++) expect((await secondStep({ ticket: `2fa-nothing-${i}`, code: '123456' }, ip)).status).toBe(401)
    const limited = await secondStep({ ticket: '2fa-nothing', code: '123456' }, ip)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
  })
})

describe('turning two-factor sign-in off', () => {
  it('with the password, or with a current code; then the password alone signs in again', async () => {
    for (const by of ['password', 'code'] as const) {
      const member = await t.signUp()
      const { secret } = await enableTwoFactor(member)
      const wrong = by === 'password' ? { password: 'wrong-password' } : { code: wrongTotpCode(secret) }
      expect((await t.request('/api/auth/two-factor/disable', { token: member.token, body: wrong })).status).toBe(400)
      const right = by === 'password' ? { password: member.password } : { code: totpCode(secret) }
      const off = await json<{ data: { enabled: boolean } }>(
        await t.request('/api/auth/two-factor/disable', { token: member.token, body: right }),
        200,
      )
      expect(off.data.enabled).toBe(false)
      expect(await t.db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([])
      expect(
        (await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })).status,
      ).toBe(200)
    }
  })
})

describe("an admin's reset (a lost phone)", () => {
  it('turns two-factor off with an audit entry naming the admin; members cannot', async () => {
    const admin = await t.signUp({ role: 'admin' })
    const member = await t.signUp()
    await enableTwoFactor(member)
    expect((await t.request(`/api/users/${member.id}/reset-two-factor`, { token: member.token, body: {} })).status).toBe(403)

    const reset = await json<{ data: { twoFactorEnabled: boolean; passkeys: number } }>(
      await t.request(`/api/users/${member.id}/reset-two-factor`, { token: admin.token, body: {} }),
      200,
    )
    expect(reset.data).toMatchObject({ twoFactorEnabled: false, passkeys: 0 })
    const [user] = await t.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, member.id))
    expect(user?.on).toBe(false)
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.two-factor-reset'), eq(auditLog.targetId, member.id)))
    expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email, targetType: 'user' })
    expect(entry?.summary).toBe(`Reset two-factor sign-in of ${member.email}: turned off two-factor sign-in`)
    expect((await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })).status).toBe(
      200,
    )
    expect((await t.request('/api/users/not-a-user/reset-two-factor', { token: admin.token, body: {} })).status).toBe(404)
  })
})
