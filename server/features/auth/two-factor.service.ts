import { eq } from 'drizzle-orm'
import { parse as parseCookies } from 'hono/utils/cookie'
import { AppError, Conflict, RateLimited, Unauthorized, ValidationError } from '#common/errors.ts'
import { ACCOUNT_SUSPENDED_CODE, AccountSuspended } from '#common/suspension.ts'
import type { PasswordConfirm, SecondFactorInput, TwoFactorDisable } from '#common/two-factor.ts'
import { CLIENT_IP_HEADER, TWO_FACTOR_COOKIE_NAME, TOTP_ISSUER } from '#server/auth.ts'
import { isAuthApiError, type Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import { twoFactors, users } from '#server/db/schema/index.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import { SECOND_FACTOR_PER_IP, TWO_FACTOR_CHANGES_PER_USER } from './auth-limits.ts'
import type { Caller } from './auth.service.ts'
import { verifyAccountPassword } from './account-password.ts'
import { betterAuthHeaders, type Credential } from './session.service.ts'
import { sessionTokenOf, type SignedIn, type SignedInStep } from './signed-in.ts'
import { createTotpSteps } from './totp-steps.ts'

/** Where an account stands: off, set up but not confirmed, or on (with how many recovery codes are left). */
export interface TwoFactorStatus {
  enabled: boolean
  pending: boolean
  recoveryCodesLeft: number
}

/** What the app shows while setting up: the otpauth:// address (for the QR code) and its secret (typed by hand). */
export interface TwoFactorSetup {
  totpUri: string
  secret: string
}

const WRONG_PASSWORD = 'Password is incorrect.'
const EXPIRED = 'Your sign-in has expired or was already used. Please sign in with your email and password again.'
/** A code works once (RFC 6238, section 5.2): the same one again, or an older one, is refused. */
const CODE_USED = 'This code was already used. Wait for the next code in your authenticator app and enter that one.'

/** A ticket that cannot be used (expired, used, or spent on too many wrong codes): start again with the password. */
class SecondFactorExpired extends AppError {
  constructor() {
    super(401, EXPIRED, 'SECOND_FACTOR_EXPIRED')
  }
}

/**
 * Two-factor sign-in with an authenticator app (TOTP) and one-use recovery codes, on Better
 * Auth's two-factor plugin (docs/decisions/023). The plugin keeps the secret and the codes
 * encrypted; this service adds our answers, our limits and the password checks.
 */
export function createTwoFactorService(deps: { auth: Auth; db: Db; rateLimits: RateLimitService; signedIn: SignedInStep }) {
  const { auth, db, rateLimits, signedIn } = deps
  const changesKey = (userId: string) => `two-factor-change:user:${userId}`
  const totpSteps = createTotpSteps({ db, auth })

  async function recoveryCodesLeft(userId: string): Promise<number> {
    const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } })
    return backupCodes.length
  }

  /** The new session's token after Better Auth replaced it (confirming a set-up rotates the session). */
  function newSession(headers: Headers, fallback: string): { token: string; setCookies: string[] } {
    const setCookies = headers.getSetCookie()
    return { token: sessionTokenOf(setCookies) ?? fallback, setCookies }
  }

  /**
   * A signed-in member proves it is them with the app's current code (turning two-factor off,
   * deleting the account): a wrong or already used code is refused as a field error.
   */
  async function checkCode(userId: string, code: string, credential: Credential | null): Promise<void> {
    if ((await totpSteps.claim(userId, code)) === 'used') {
      throw new ValidationError(`code: ${CODE_USED}`, [{ path: 'code', message: CODE_USED }])
    }
    const valid = await auth.api
      .verifyTOTP({ body: { code }, headers: betterAuthHeaders(credential) })
      .then(() => true)
      .catch((error: unknown) => {
        if (isAuthApiError(error) && error.statusCode === 401) return false
        throw error
      })
    if (!valid) {
      const message = 'That code is not right.'
      throw new ValidationError(`code: ${message}`, [{ path: 'code', message }])
    }
  }

  return {
    /** The ticket the /auth page keeps in Better Auth's two_factor cookie between the password and the code. */
    ticketOf(headers: Headers): string | null {
      return parseCookies(headers.get('cookie') ?? '', TWO_FACTOR_COOKIE_NAME)[TWO_FACTOR_COOKIE_NAME] ?? null
    },

    async status(userId: string): Promise<TwoFactorStatus> {
      const [row] = await db
        .select({ enabled: users.twoFactorEnabled, verified: twoFactors.verified })
        .from(users)
        .leftJoin(twoFactors, eq(twoFactors.userId, users.id))
        .where(eq(users.id, userId))
      const enabled = Boolean(row?.enabled)
      return {
        enabled,
        pending: !enabled && row?.verified === false,
        recoveryCodesLeft: enabled ? await recoveryCodesLeft(userId) : 0,
      }
    },

    /** Starts (or starts again) a set-up: a new secret, not in force until a code confirms it. */
    async beginSetup(userId: string, input: PasswordConfirm, credential: Credential | null): Promise<TwoFactorSetup> {
      await rateLimits.consume(changesKey(userId), TWO_FACTOR_CHANGES_PER_USER)
      try {
        const result = await auth.api.enableTwoFactor({
          body: { password: input.password, issuer: TOTP_ISSUER },
          headers: betterAuthHeaders(credential),
        })
        if (result.method !== 'totp') throw new Error('Better Auth enabled another two-factor method than TOTP')
        // A new secret: none of its steps has been used.
        await totpSteps.forget(userId)
        const secret = new URL(result.totpURI).searchParams.get('secret') ?? ''
        return { totpUri: result.totpURI, secret }
      } catch (error) {
        if (isAuthApiError(error) && error.body?.code === 'INVALID_PASSWORD') {
          throw new ValidationError(`password: ${WRONG_PASSWORD}`, [{ path: 'password', message: WRONG_PASSWORD }])
        }
        if (isAuthApiError(error) && error.body?.code === 'TOTP_ALREADY_ENABLED') {
          throw new Conflict('Two-factor sign-in is already on. Turn it off first to set it up again.')
        }
        throw error
      }
    },

    /**
     * Confirms a set-up with the app's first code: two-factor is on from now, and the recovery
     * codes are returned this once. Better Auth replaces the session: the new token and cookie come back.
     */
    async confirmSetup(userId: string, code: string, credential: Credential | null) {
      await rateLimits.consume(changesKey(userId), TWO_FACTOR_CHANGES_PER_USER)
      const [row] = await db.select({ verified: twoFactors.verified }).from(twoFactors).where(eq(twoFactors.userId, userId))
      if (!row) throw new Conflict('Start the set-up first: confirm your password to get a QR code.')
      // The code's step is claimed before the state is read: a second confirmation with the same
      // code is refused as a used code however late it reads that the first one turned it on.
      if ((await totpSteps.claim(userId, code)) === 'used') {
        throw new ValidationError(`code: ${CODE_USED}`, [{ path: 'code', message: CODE_USED }])
      }
      if (row.verified) throw new Conflict('Two-factor sign-in is already on.')
      try {
        const { headers, response } = await auth.api.verifyTOTP({
          body: { code },
          headers: betterAuthHeaders(credential),
          returnHeaders: true,
        })
        const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } })
        return { recoveryCodes: backupCodes, ...newSession(headers, response.token) }
      } catch (error) {
        if (isAuthApiError(error) && error.body?.code === 'INVALID_CODE') {
          const message = 'That code is not right. Check the time on your phone and enter the newest code.'
          throw new ValidationError(`code: ${message}`, [{ path: 'code', message }])
        }
        throw error
      }
    },

    /** A new set of recovery codes (the old ones stop working); shown once. */
    async regenerateRecoveryCodes(userId: string, input: PasswordConfirm, credential: Credential | null): Promise<string[]> {
      await rateLimits.consume(changesKey(userId), TWO_FACTOR_CHANGES_PER_USER)
      if (!(await verifyAccountPassword(db, userId, input.password))) {
        throw new ValidationError(`password: ${WRONG_PASSWORD}`, [{ path: 'password', message: WRONG_PASSWORD }])
      }
      try {
        const result = await auth.api.generateBackupCodes({ body: { password: input.password }, headers: betterAuthHeaders(credential) })
        return result.backupCodes
      } catch (error) {
        if (isAuthApiError(error) && error.body?.code === 'TWO_FACTOR_NOT_ENABLED') throw new Conflict('Two-factor sign-in is off.')
        throw error
      }
    },

    /** Turns two-factor off with the password or a current code; a set-up not yet confirmed is dropped too. */
    async disable(userId: string, input: TwoFactorDisable, credential: Credential | null): Promise<void> {
      await rateLimits.consume(changesKey(userId), TWO_FACTOR_CHANGES_PER_USER)
      const [row] = await db.select({ enabled: users.twoFactorEnabled }).from(users).where(eq(users.id, userId))
      if (!row?.enabled) throw new Conflict('Two-factor sign-in is already off.')
      if (input.password !== undefined) {
        if (!(await verifyAccountPassword(db, userId, input.password))) {
          throw new ValidationError(`password: ${WRONG_PASSWORD}`, [{ path: 'password', message: WRONG_PASSWORD }])
        }
      } else {
        await checkCode(userId, input.code ?? '', credential)
      }
      await db.transaction((tx) => turnOff(tx, userId))
    },

    checkCode,

    /**
     * The second step of a password sign-in: the ticket and the app's code or a recovery code
     * (which then stops working). Each ticket allows 5 tries and lasts 5 minutes; 10 wrong codes in
     * a row lock the step for 15 minutes (Better Auth); each client address has 30 tries per 10 minutes.
     */
    async completeSignIn(input: SecondFactorInput, caller: Caller): Promise<SignedIn> {
      await rateLimits.consume(`second-factor:ip:${caller.ip}`, SECOND_FACTOR_PER_IP)
      const headers = new Headers({ cookie: `${TWO_FACTOR_COOKIE_NAME}=${encodeURIComponent(input.ticket)}` })
      for (const name of ['user-agent', CLIENT_IP_HEADER]) {
        const value = caller.headers.get(name)
        if (value) headers.set(name, value)
      }
      if (input.recoveryCode === undefined) {
        const account = await totpSteps.accountOfTicket(input.ticket)
        if (account && (await totpSteps.claim(account, input.code ?? '')) === 'used') throw new Unauthorized(CODE_USED)
      }
      try {
        const { headers: answered, response } =
          input.recoveryCode !== undefined
            ? await auth.api.verifyBackupCode({ body: { code: input.recoveryCode }, headers, returnHeaders: true })
            : await auth.api.verifyTOTP({ body: { code: input.code ?? '' }, headers, returnHeaders: true })
        const setCookies = answered.getSetCookie()
        const token = sessionTokenOf(setCookies) ?? response.token ?? ''
        return await signedIn({ userId: response.user.id, name: response.user.name ?? '', token }, setCookies, caller.headers)
      } catch (error) {
        if (!isAuthApiError(error)) throw error
        const code = error.body?.code
        if (code === ACCOUNT_SUSPENDED_CODE) throw new AccountSuspended()
        if (code === 'INVALID_CODE') throw new Unauthorized('Invalid two-factor code. Enter the newest code from your authenticator app.')
        if (code === 'INVALID_BACKUP_CODE') throw new Unauthorized('Invalid recovery code. Each recovery code works once.')
        if (code === 'ACCOUNT_TEMPORARILY_LOCKED') {
          throw new RateLimited('Too many wrong two-factor codes for this account. Please wait 15 minutes and try again.', 15 * 60)
        }
        if (code === 'INVALID_TWO_FACTOR_COOKIE' || code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE' || code === 'TOTP_NOT_ENABLED') {
          throw new SecondFactorExpired()
        }
        throw error
      }
    },
  }
}

/** Two-factor off: the secret and recovery codes are deleted (Settings, and an admin's reset). */
export async function turnOff(db: Pick<Db, 'update' | 'delete'>, userId: string): Promise<void> {
  await db.delete(twoFactors).where(eq(twoFactors.userId, userId))
  await db.update(users).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(users.id, userId))
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>
