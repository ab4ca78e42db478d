import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimited } from '#common/errors.ts'
import { mailOutbox, users, verifications } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

/** The newest e-mail to an address, and the token of the link in it. */
async function lastMail(to: string) {
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt)).limit(1)
  const token = mail?.text.match(/\?token=([^\s]+)/)?.[1]
  return { mail, token: token ? decodeURIComponent(token) : undefined }
}

async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id))
  return row
}

const login = (email: string, password: string) => t.request('/api/auth/login', { body: { email, password }, ip: t.freshIp() })

describe('e-mail verification', () => {
  it('sign-up sends a link; following it marks the address verified', async () => {
    const user = await t.signUp({ verified: false })
    expect((await userRow(user.id))?.emailVerified).toBe(false)
    const { mail, token } = await lastMail(user.email)
    expect(mail?.subject).toBe('Verify your e-mail address for Aether')
    expect(mail?.text).toContain('http://localhost:3000/verify-email?token=')
    expect(await t.services.account.verifyEmail(token ?? '')).toBe('done')
    expect((await userRow(user.id))?.emailVerified).toBe(true)
  })

  it('a forged or mangled token changes nothing', async () => {
    const user = await t.signUp({ verified: false })
    const { token } = await lastMail(user.email)
    expect(await t.services.account.verifyEmail(`${token}x`)).toBe('invalid')
    expect(await t.services.account.verifyEmail('not-a-token')).toBe('invalid')
    expect((await userRow(user.id))?.emailVerified).toBe(false)
  })
})

describe('password reset', () => {
  it('a one-time link sets a new password and ends every session; the old password stops working', async () => {
    const user = await t.signUp()
    await t.services.account.requestPasswordReset(user.email, t.freshIp())
    const { mail, token } = await lastMail(user.email)
    expect(mail?.subject).toBe('Reset your Aether password')
    expect(mail?.text).toContain('http://localhost:3000/reset-password?token=')
    expect(await t.services.account.resetPassword(token ?? '', 'a-brand-new-password')).toBe('done')

    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await login(user.email, user.password)).status).toBe(401)
    expect((await login(user.email, 'a-brand-new-password')).status).toBe(200)
    // Single use.
    expect(await t.services.account.resetPassword(token ?? '', 'yet-another-password')).toBe('invalid')
  })

  it('an expired link is refused', async () => {
    const user = await t.signUp()
    await t.services.account.requestPasswordReset(user.email, t.freshIp())
    const { token } = await lastMail(user.email)
    await t.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `reset-password:${token}`))
    expect(await t.services.account.resetPassword(token ?? '', 'a-brand-new-password')).toBe('invalid')
    expect((await login(user.email, user.password)).status).toBe(200)
  })

  it('an unknown address gets the same answer and no e-mail', async () => {
    await expect(t.services.account.requestPasswordReset('nobody-here@example.com', t.freshIp())).resolves.toBeUndefined()
    expect((await lastMail('nobody-here@example.com')).mail).toBeUndefined()
  })

  it('at most three reset e-mails per address an hour', async () => {
    const user = await t.signUp()
    for (let attempt = 0; attempt < 3; attempt++) await t.services.account.requestPasswordReset(user.email, t.freshIp())
    await expect(t.services.account.requestPasswordReset(user.email, t.freshIp())).rejects.toBeInstanceOf(RateLimited)
  })
})

describe("Settings' Reset Password for the signed-in member", () => {
  it('sends the link like the anonymous form', async () => {
    const user = await t.signUp()
    await t.services.account.sendOwnPasswordReset(user.email, t.freshIp())
    expect((await lastMail(user.email)).mail?.subject).toBe('Reset your Aether password')
  })

  it('reports a delivery the SMTP relay refused, where the anonymous form stays silent', async () => {
    // A relay that is not there: port 1 on loopback refuses the connection.
    const unreachable = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1' })
    try {
      // Unverified: the outbox of an SMTP relay keeps no link to follow.
      const user = await unreachable.signUp({ verified: false })
      await expect(unreachable.services.account.sendOwnPasswordReset(user.email, unreachable.freshIp())).rejects.toThrow(
        'The reset e-mail could not be sent. Please try again later.',
      )
      await expect(unreachable.services.account.requestPasswordReset(user.email, unreachable.freshIp())).resolves.toBeUndefined()
    } finally {
      await unreachable.close()
    }
  })
})

describe('e-mail change', () => {
  it('the address changes only when the link sent to the new address is followed, once', async () => {
    const user = await t.signUp()
    const newEmail = `moved-${Date.now()}@example.com`
    await t.services.account.requestEmailChange({ id: user.id, email: user.email }, newEmail)
    expect((await userRow(user.id))?.email).toBe(user.email)
    const { mail, token } = await lastMail(newEmail)
    expect(mail?.subject).toBe('Confirm your new e-mail address for Aether')
    expect(mail?.text).toContain('http://localhost:3000/confirm-email?token=')

    expect(await t.services.account.confirmEmailChange(token ?? '')).toBe('done')
    expect(await userRow(user.id)).toMatchObject({ email: newEmail, emailVerified: true })
    // Sessions made under the old address are over.
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
    expect((await lastMail(user.email)).mail?.subject).toBe('Your Aether e-mail address was changed')
    expect(await t.services.account.confirmEmailChange(token ?? '')).toBe('invalid')
    expect((await login(newEmail, user.password)).status).toBe(200)
  })

  it('an expired link changes nothing', async () => {
    const user = await t.signUp()
    const newEmail = `late-${Date.now()}@example.com`
    await t.services.account.requestEmailChange({ id: user.id, email: user.email }, newEmail)
    const { token } = await lastMail(newEmail)
    await t.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) })
    expect(await t.services.account.confirmEmailChange(token ?? '')).toBe('invalid')
    expect((await userRow(user.id))?.email).toBe(user.email)
  })

  it("another account's address is never taken: its owner is told, and nothing is sent to follow", async () => {
    const user = await t.signUp()
    const other = await t.signUp()
    await t.services.account.requestEmailChange({ id: user.id, email: user.email }, other.email)
    const { mail, token } = await lastMail(other.email)
    expect(mail?.subject).toBe('Someone tried to use your e-mail address on Aether')
    expect(token).toBeUndefined()
    expect((await userRow(user.id))?.email).toBe(user.email)
  })
})
