import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, ne } from 'drizzle-orm'
import { Conflict, ServiceUnavailable, ValidationError } from '#common/errors.ts'
import { isAuthApiError, type Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { sessions, users, verifications } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import { EMAIL_CHANGE_PER_USER, RESET_REQUEST_PER_EMAIL, RESET_REQUEST_PER_IP, VERIFICATION_RESEND_PER_USER } from './account-limits.ts'
import { EMAIL_CHANGE_HOURS, type AccountMail } from './account-mail.ts'

export type LinkResult = 'done' | 'invalid'

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
const emailChangeId = (token: string) => `email-change:${hashToken(token)}`

/**
 * Account maintenance by e-mail link: address verification and password reset through Better
 * Auth, and e-mail changes of our own (the new address proves itself before it is used).
 */
export function createAccountService(deps: { db: Db; auth: Auth; rateLimits: RateLimitService; mail: AccountMail; mailer: Mailer }) {
  const { db, auth, rateLimits, mail, mailer } = deps

  async function requestPasswordReset(email: string, ip: string): Promise<void> {
    await rateLimits.consume(`reset-request:ip:${ip}`, RESET_REQUEST_PER_IP)
    await rateLimits.consume(`reset-request:email:${email}`, RESET_REQUEST_PER_EMAIL)
    await auth.api.requestPasswordReset({ body: { email } })
  }

  return {
    /** Sends a reset link if the address has an account; answers the same either way. */
    requestPasswordReset,

    /**
     * Settings' 'Reset Password' for the signed-in member's own address. Unlike the anonymous form
     * (which must not tell whether an account exists), a failed delivery is reported.
     */
    async sendOwnPasswordReset(email: string, ip: string): Promise<void> {
      const since = new Date()
      await requestPasswordReset(email, ip)
      if (await mailer.failedSince(email, since))
        throw new ServiceUnavailable('The reset e-mail could not be sent. Please try again later.')
    },

    /** Sets the new password if the token is valid and unused; every session of the account ends. */
    async resetPassword(token: string, newPassword: string): Promise<LinkResult> {
      try {
        await auth.api.resetPassword({ body: { token, newPassword } })
        return 'done'
      } catch (error) {
        if (isAuthApiError(error) && error.statusCode === 400) return 'invalid'
        throw error
      }
    },

    async verifyEmail(token: string): Promise<LinkResult> {
      try {
        await auth.api.verifyEmail({ query: { token } })
        return 'done'
      } catch (error) {
        if (isAuthApiError(error) && (error.statusCode === 401 || error.statusCode === 400)) return 'invalid'
        throw error
      }
    },

    async resendVerification(user: { id: string; email: string; emailVerified: boolean }): Promise<void> {
      if (user.emailVerified) throw new Conflict('Your e-mail address is already verified.')
      await rateLimits.consume(`verification-resend:user:${user.id}`, VERIFICATION_RESEND_PER_USER)
      await auth.api.sendVerificationEmail({ body: { email: user.email } })
    },

    /**
     * Sends a one-time link to the new address; the address changes only when it is followed.
     * If another account already has the address, its owner is told instead, and the caller sees
     * the same answer (no account lookup through this form).
     */
    async requestEmailChange(user: { id: string; email: string }, newEmail: string): Promise<void> {
      if (newEmail === user.email)
        throw new ValidationError('email: This is already your e-mail address.', [
          { path: 'email', message: 'This is already your e-mail address.' },
        ])
      await rateLimits.consume(`email-change:user:${user.id}`, EMAIL_CHANGE_PER_USER)
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, newEmail))
      if (taken) {
        await mail.emailInUse(newEmail)
        return
      }
      const token = randomBytes(32).toString('base64url')
      await db.insert(verifications).values({
        id: randomBytes(16).toString('hex'),
        identifier: emailChangeId(token),
        value: JSON.stringify({ userId: user.id, newEmail }),
        expiresAt: new Date(Date.now() + EMAIL_CHANGE_HOURS * 3600_000),
      })
      await mail.confirmEmailChange(newEmail, token)
    },

    /** Follows an e-mail change link: single use, within the hour, and only if the address is still free. */
    async confirmEmailChange(token: string): Promise<LinkResult> {
      const outcome = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .delete(verifications)
            .where(and(eq(verifications.identifier, emailChangeId(token)), gt(verifications.expiresAt, new Date())))
            .returning()
          if (!row) return null
          const { userId, newEmail } = JSON.parse(row.value) as { userId: string; newEmail: string }
          const [taken] = await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.email, newEmail), ne(users.id, userId)))
          if (taken) return null
          const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
          if (!before) return null
          await tx.update(users).set({ email: newEmail, emailVerified: true, updatedAt: new Date() }).where(eq(users.id, userId))
          // Whoever held a session under the old address signs in again with the new one.
          await tx.delete(sessions).where(eq(sessions.userId, userId))
          return { oldEmail: before.email, newEmail }
        })
        // A sign-up that took the address a moment ago trips the unique index: the link is spent.
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) return null
          throw error
        })
      if (!outcome) return 'invalid'
      await mail.emailChanged(outcome.oldEmail, outcome.newEmail)
      return 'done'
    },
  }
}
