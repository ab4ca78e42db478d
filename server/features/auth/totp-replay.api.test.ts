import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { twoFactors } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { enableTwoFactor, totpCode, wrongTotpCode } from '#server/testing/totp.ts'

// A code from the authenticator app works once (RFC 6238, section 5.2; issue 27, item 7): the
// account remembers the last time step it accepted, and a code of that step or an earlier one is
// refused wherever a code is checked (the second step of a sign-in, turning two-factor on, turning
// it off), two requests with the same code at the same moment included.

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Answer = { message: string; code: string }

const USED = 'This code was already used. Wait for the next code in your authenticator app and enter that one.'
const STEP = 30_000

let t: TestApp

/** Moves the clock on by whole 30-second steps. */
const later = (steps = 1) => vi.setSystemTime(Date.now() + steps * STEP)

async function ticketOf(member: Member): Promise<string> {
  const response = await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })
  expect(response.status).toBe(401)
  return ((await response.json()) as { data: { ticket: string } }).data.ticket
}

const secondStep = (ticket: string, code: string) => t.request('/api/auth/login/second-factor', { body: { ticket, code }, ip: t.freshIp() })

async function twoFactorMember(): Promise<{ member: Member; secret: string }> {
  const member = await t.signUp()
  const { secret } = await enableTwoFactor(t, member)
  return { member, secret }
}

beforeAll(async () => {
  t = await createTestApp()
})
beforeEach(() => {
  // The clock stands still, in the middle of a step, unless a test moves it.
  vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / STEP) * STEP + STEP / 2 })
})
afterAll(async () => {
  vi.useRealTimers()
  await t.close()
})

describe('signing in', () => {
  it('refuses the same code twice, takes the next step’s, and then refuses the earlier step’s', async () => {
    const { member, secret } = await twoFactorMember()
    const code = totpCode(secret)
    expect((await secondStep(await ticketOf(member), code)).status).toBe(200)

    const replayed = await secondStep(await ticketOf(member), code)
    expect(replayed.status).toBe(401)
    expect((await replayed.json()) as Answer).toMatchObject({ message: USED, code: 'UNAUTHORIZED' })

    // Still refused in the next step, where it is the step before now (within Better Auth's window).
    later(0.6)
    expect(((await (await secondStep(await ticketOf(member), code)).json()) as Answer).message).toBe(USED)

    // The next step's code signs in; after it, the code of the step before it does not.
    const next = totpCode(secret)
    const earlier = totpCode(secret, Date.now() - STEP)
    const ahead = totpCode(secret, Date.now() + STEP)
    expect((await secondStep(await ticketOf(member), next)).status).toBe(200)
    expect(((await (await secondStep(await ticketOf(member), earlier)).json()) as Answer).message).toBe(USED)
    // A code of the step after now is accepted (one step either side), and then nothing up to it.
    expect((await secondStep(await ticketOf(member), ahead)).status).toBe(200)
    expect(((await (await secondStep(await ticketOf(member), next)).json()) as Answer).message).toBe(USED)
  })

  it('lets one of two requests with the same code through, at the same moment', async () => {
    const { member, secret } = await twoFactorMember()
    const [first, second] = [await ticketOf(member), await ticketOf(member)]
    const code = totpCode(secret)
    const answers = await Promise.all([secondStep(first, code), secondStep(second, code)])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
    const refused = answers.find((answer) => answer.status === 401)
    expect(((await refused?.json()) as Answer).message).toBe(USED)
  })

  it('a wrong code is still the wrong-code answer, and uses no step', async () => {
    const { member, secret } = await twoFactorMember()
    const code = totpCode(secret)
    const refused = await secondStep(await ticketOf(member), wrongTotpCode(secret))
    expect(((await refused.json()) as Answer).message).toMatch(/^Invalid two-factor code/)
    expect((await secondStep(await ticketOf(member), code)).status).toBe(200)
  })
})

describe('turning two-factor on', () => {
  it('confirms once with a code; the same code then signs nobody in, the next step’s does', async () => {
    const member = await t.signUp()
    const setup = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } })
    const { secret } = ((await setup.json()) as { data: { secret: string } }).data
    const code = totpCode(secret)
    const confirmed = await t.request('/api/auth/two-factor/confirm', { token: member.token, body: { code } })
    expect(confirmed.status).toBe(200)
    expect(((await (await secondStep(await ticketOf(member), code)).json()) as Answer).message).toBe(USED)
    later()
    expect((await secondStep(await ticketOf(member), totpCode(secret))).status).toBe(200)
  })

  it('two confirmations with the same code at the same moment: one turns it on, the other is refused', async () => {
    const member = await t.signUp()
    const setup = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } })
    const { secret } = ((await setup.json()) as { data: { secret: string } }).data
    const code = totpCode(secret)
    const answers = await Promise.all([0, 1].map(() => t.request('/api/auth/two-factor/confirm', { token: member.token, body: { code } })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400])
    const refused = answers.find((answer) => answer.status === 400)
    expect(((await refused?.json()) as Answer).message).toBe(`code: ${USED}`)
  })

  it('a set-up started again (a new secret) starts with no used step', async () => {
    const member = await t.signUp()
    const first = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } })
    const { secret } = ((await first.json()) as { data: { secret: string } }).data
    await t.db
      .update(twoFactors)
      .set({ lastTotpStep: Math.floor(Date.now() / STEP) + 1 })
      .where(eq(twoFactors.userId, member.id))
    const again = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } })
    const renewed = ((await again.json()) as { data: { secret: string } }).data.secret
    expect(renewed).not.toBe(secret)
    const confirmed = await t.request('/api/auth/two-factor/confirm', { token: member.token, body: { code: totpCode(renewed) } })
    expect(confirmed.status).toBe(200)
  })
})

describe('turning two-factor off with a code', () => {
  it('refuses the code that just signed in, and takes the next one', async () => {
    const { member, secret } = await twoFactorMember()
    const code = totpCode(secret)
    const signedIn = await secondStep(await ticketOf(member), code)
    const { token } = ((await signedIn.json()) as { data: { token: string } }).data
    const refused = await t.request('/api/auth/two-factor/disable', { token, body: { code } })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as Answer).message).toBe(`code: ${USED}`)
    later()
    const off = await t.request('/api/auth/two-factor/disable', { token, body: { code: totpCode(secret) } })
    expect(off.status).toBe(200)
  })
})
