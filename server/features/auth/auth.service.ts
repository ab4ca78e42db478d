import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, notExists } from 'drizzle-orm'
import { newPasswordSchema, type ChangePasswordInput, type LoginInput, type ProfileUpdateInput, type RegisterInput } from '#common/auth.ts'
import { SECOND_FACTOR_TICKET_SECONDS, TWO_FACTOR_COOKIE_NAME } from '#server/auth.ts'
import { isAuthApiError, type Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import { accounts, sessions, users } from '#server/db/schema/index.ts'
import { Conflict, NotFound, RateLimited, ServiceUnavailable, Unauthorized, ValidationError } from '#common/errors.ts'
import { MAINTENANCE_MESSAGE } from '#common/settings.ts'
import { ACCOUNT_SUSPENDED_CODE, AccountSuspended } from '#common/suspension.ts'
import type { ApiKeyService } from '#server/features/api-keys/api-key.service.ts'
import type { DeviceService } from '#server/features/devices/device.service.ts'
import type { Profile, ProfileService } from '#server/features/profiles/profile.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import {
  failedSignInDelayMs,
  FAILED_SIGN_IN_PER_ACCOUNT,
  FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT,
  PASSWORD_CHANGE_PER_USER,
  SIGN_IN_PER_IP,
  SIGN_UP_PER_IP,
} from './auth-limits.ts'
import { betterAuthHeaders, expiredSessionCookie, type Credential } from './session.service.ts'
import { setCookieValue, type SignedIn, type SignedInStep } from './signed-in.ts'
import type { TrustedDevices } from './trusted-devices.ts'

/** Who is signing up or in: the request headers (Better Auth records the client from them) and the client's address. */
export interface Caller {
  headers: Headers
  ip: string
}

const INVALID_CREDENTIALS = 'Invalid email or password'

/**
 * A right password for an account with two-factor sign-in on (docs/decisions/023): no session yet.
 * The ticket (Better Auth's signed two_factor cookie value) completes it with a code within
 * SECOND_FACTOR_TICKET_SECONDS, once; the page keeps it in that cookie (setCookies), the API answers it.
 */
export interface SecondFactorDue {
  secondFactor: true
  ticket: string
  methods: ('totp' | 'recovery-code')[]
  expiresInSeconds: number
  setCookies: string[]
}

export type LoginResult = (SignedIn & { secondFactor: false }) | SecondFactorDue

export function createAuthService(deps: {
  auth: Auth
  db: Db
  profiles: ProfileService
  rateLimits: RateLimitService
  signedIn: SignedInStep
  apiKeys: Pick<ApiKeyService, 'revokeAll'>
  devices: Pick<DeviceService, 'revokeAllOf'>
  trustedDevices: TrustedDevices
  settings: Pick<SettingsService, 'get'>
}) {
  const { auth, db, profiles, rateLimits, signedIn, apiKeys, devices, trustedDevices, settings } = deps

  /**
   * Better Auth writes a new user and its password in two steps: a process stopped between them
   * leaves a user that can neither sign in nor sign up again. Such a user (no sign-in method, no
   * session) is removed so that the address can register; true when it was one.
   */
  async function removeInterruptedSignUp(userId: string): Promise<boolean> {
    const removed = await db
      .delete(users)
      .where(
        and(
          eq(users.id, userId),
          notExists(db.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, userId))),
          notExists(db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))),
        ),
      )
      .returning({ id: users.id })
    return removed.length > 0
  }

  return {
    async register(input: RegisterInput, caller: Caller): Promise<{ id: string; email: string; profile: Profile }> {
      // Maintenance mode closes sign-up everywhere (the /auth page as well as the API).
      if ((await settings.get()).maintenanceMode) throw new ServiceUnavailable(MAINTENANCE_MESSAGE)
      await rateLimits.consume(`sign-up:ip:${caller.ip}`, SIGN_UP_PER_IP)
      const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email))
      if (existing && !(await removeInterruptedSignUp(existing.id))) throw new Conflict('An account with this email already exists.')
      try {
        const result = await auth.api.signUpEmail({
          body: { email: input.email, password: input.password, name: input.fullName ?? '' },
          headers: caller.headers,
        })
        const profile = (await profiles.get(result.user.id)) ?? (await profiles.createFor(result.user.id, input.fullName ?? null))
        return { id: result.user.id, email: result.user.email, profile }
      } catch (error) {
        throw translateAuthError(error)
      }
    },

    /**
     * An account whose address the operator vouches for (the seed's demo accounts): created
     * verified, with its password, and without the sign-up's "Verify your e-mail" mail, which
     * Better Auth's sign-up endpoint sends to every account it creates (issue 27, item 11).
     * The profile comes from the same database hook as a sign-up's.
     */
    async createVerified(input: { email: string; password: string; fullName: string }): Promise<{ id: string }> {
      const password = newPasswordSchema.parse(input.password)
      const context = await auth.$context
      const user = await context.internalAdapter.createUser(
        { email: input.email, name: input.fullName, emailVerified: true },
        { method: 'email-password' },
      )
      await context.internalAdapter.linkAccount({
        userId: user.id,
        providerId: 'credential',
        accountId: user.id,
        password: await context.password.hash(password),
      })
      return { id: user.id }
    },

    /**
     * Signs in with e-mail and password. Guessing is throttled without locking the owner out
     * (ADR 016): per client address, per account and client, and per account, where the last one
     * refuses only devices the account never signed in on.
     */
    async login(input: LoginInput, caller: Caller): Promise<LoginResult> {
      await rateLimits.consume(`sign-in:ip:${caller.ip}`, SIGN_IN_PER_IP)
      const accountKey = `sign-in-failures:email:${input.email}`
      const clientKey = `${accountKey}:ip:${caller.ip}`
      const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email))
      const failures = await rateLimits.assertAllBelow([
        [clientKey, FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT],
        ...(!account || !trustedDevices.trusts(caller.headers, account.id) ? [[accountKey, FAILED_SIGN_IN_PER_ACCOUNT] as const] : []),
      ])
      try {
        const { headers, response } = await auth.api.signInEmail({
          body: { email: input.email, password: input.password },
          headers: caller.headers,
          returnHeaders: true,
        })
        if (failures.has(clientKey)) await rateLimits.reset(clientKey)
        if ('twoFactorRedirect' in response) {
          // The password was right; the plugin made a ticket instead of a session. Only its cookie is passed on.
          const ticket = setCookieValue(headers.getSetCookie(), TWO_FACTOR_COOKIE_NAME)
          if (!ticket) throw new Error('Better Auth asked for a second factor without a two_factor cookie')
          return {
            secondFactor: true,
            ticket,
            methods: ['totp', 'recovery-code'],
            expiresInSeconds: SECOND_FACTOR_TICKET_SECONDS,
            setCookies: headers.getSetCookie().filter((cookie) => cookie.startsWith(`${TWO_FACTOR_COOKIE_NAME}=`)),
          }
        }
        const done = await signedIn(
          { userId: response.user.id, name: response.user.name, token: response.token },
          headers.getSetCookie(),
          caller.headers,
        )
        return { ...done, secondFactor: false }
      } catch (error) {
        if (isAuthApiError(error) && error.statusCode === 401) {
          await rateLimits.hit(clientKey, FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT)
          const failures = await rateLimits.hit(accountKey, FAILED_SIGN_IN_PER_ACCOUNT)
          await sleep(failedSignInDelayMs(failures.count))
          throw new Unauthorized(INVALID_CREDENTIALS)
        }
        throw translateAuthError(error)
      }
    },

    /** Ends the session on the server and returns the cookie that clears it in the browser. */
    async logout(credential: Credential | null): Promise<string[]> {
      try {
        const { headers } = await auth.api.signOut({ headers: betterAuthHeaders(credential), returnHeaders: true })
        return headers.getSetCookie()
      } catch {
        return [expiredSessionCookie()]
      }
    },

    async updateProfile(userId: string, input: ProfileUpdateInput): Promise<Profile> {
      const profile = await profiles.update(userId, {
        fullName: input.fullName,
        avatarUrl: input.avatarUrl,
        timeZone: input.timeZone,
        phone: input.phone,
      })
      if (!profile) throw new NotFound('Profile not found')
      return profile
    },

    /**
     * Changes the password and ends every other session; the caller gets a fresh one. Unless the
     * member keeps them (input.revokeApiKeys false), their API keys and connected devices stop
     * working too (docs/decisions/015).
     */
    async changePassword(userId: string, input: ChangePasswordInput, credential: Credential | null) {
      await rateLimits.consume(`password-change:user:${userId}`, PASSWORD_CHANGE_PER_USER)
      if (input.currentPassword === input.newPassword) {
        throw new ValidationError('newPassword: The new password must be different from the current one.', [
          { path: 'newPassword', message: 'The new password must be different from the current one.' },
        ])
      }
      try {
        const { headers, response } = await auth.api.changePassword({
          body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
          headers: betterAuthHeaders(credential),
          returnHeaders: true,
        })
        const revokedApiKeys = input.revokeApiKeys ? await apiKeys.revokeAll(userId) : 0
        const revokedDevices = input.revokeApiKeys ? await devices.revokeAllOf(userId) : 0
        return { token: response.token, setCookies: headers.getSetCookie(), revokedApiKeys, revokedDevices }
      } catch (error) {
        if (isAuthApiError(error) && (error.statusCode === 400 || error.statusCode === 401)) {
          const message =
            error.body?.code === 'INVALID_PASSWORD' ? 'Current password is incorrect.' : (error.body?.message ?? 'Password change failed.')
          throw new ValidationError(`currentPassword: ${message}`, [{ path: 'currentPassword', message }])
        }
        throw translateAuthError(error)
      }
    },
  }
}

function translateAuthError(error: unknown): unknown {
  if (!isAuthApiError(error)) return error
  if (error.body?.code === ACCOUNT_SUSPENDED_CODE) return new AccountSuspended()
  const message = error.body?.message ?? 'Authentication failed'
  if (error.statusCode === 401) return new Unauthorized(message)
  if (error.statusCode === 422 || error.statusCode === 409) return new Conflict(message)
  if (error.statusCode === 429) return new RateLimited(message, 60)
  return new ValidationError(message)
}

export type AuthService = ReturnType<typeof createAuthService>
