import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, notExists } from 'drizzle-orm'
import { APIError } from 'better-auth/api'
import { API_KEY_PREFIX } from '#common/api-keys.ts'
import type { ChangePasswordInput, LoginInput, ProfileUpdateInput, RegisterInput } from '#common/auth.ts'
import { SESSION_ABSOLUTE_SECONDS, SESSION_COOKIE_NAME, type Auth } from '#server/auth.ts'
import type { Db } from '#server/db/client.ts'
import { accounts, sessions, users } from '#server/db/schema/index.ts'
import { DatabaseUnavailableError, isDatabaseUnavailable } from '#server/db/errors.ts'
import { Conflict, NotFound, RateLimited, Unauthorized, ValidationError } from '#common/errors.ts'
import type { Profile, ProfileService } from '#server/features/profiles/profile.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { Logger } from '#server/logger.ts'
import { createSessionLookup } from './session-lookup.ts'
import { failedSignInDelayMs, FAILED_SIGN_IN_PER_ACCOUNT, PASSWORD_CHANGE_PER_USER, SIGN_IN_PER_IP, SIGN_UP_PER_IP } from './auth-limits.ts'

/** Who is asking: the request headers (cookie or bearer token) and the client's address. */
export interface Caller {
  headers: Headers
  ip: string
}

export interface SessionUser {
  id: string
  email: string
  emailVerified: boolean
  name: string
  /** The Better Auth session; empty when signed in with an API key. */
  sessionId: string
  /** How the request signed in: a session (cookie or bearer token) or one of the member's API keys. */
  via: 'session' | 'api-key'
  profile: Profile
  /** The profile could not be read: `profile` is the default one (spec: 'Profile loading issue'). */
  profileUnavailable?: boolean
}

/** What a member works with while their profile cannot be read: no role, no plan, no credits. */
function defaultProfile(userId: string, fullName: string | null): Profile {
  const now = new Date()
  return { id: userId, role: 'user', subscriptionPlan: 'free', credits: 0, fullName, avatarUrl: null, createdAt: now, updatedAt: now }
}

export interface CurrentSession {
  user: SessionUser | null
  /** Set-Cookie values to pass on: a refreshed or cleared session cookie. */
  setCookies: string[]
}

const INVALID_CREDENTIALS = 'Invalid email or password'

/** Resolves an API key to its member (api-key.service.ts); null for unknown, forged or revoked keys. */
export interface ApiKeyAuthenticator {
  authenticate(key: string): Promise<string | null>
}

/** The API key in `Authorization: Bearer ak_...`, if that is what the header carries. */
function bearerApiKey(headers: Headers): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')
  const value = match?.[1]
  return value?.startsWith(API_KEY_PREFIX) ? value : null
}

export function createAuthService(deps: {
  auth: Auth
  /** Better Auth's secret: the session cookie's signature is checked with it. */
  secret: string
  db: Db
  profiles: ProfileService
  rateLimits: RateLimitService
  apiKeys: ApiKeyAuthenticator
  logger: Logger
}) {
  const { auth, db, profiles, rateLimits, apiKeys, logger } = deps
  const sessionLookup = createSessionLookup(db, deps.secret)

  async function loadUser(
    userId: string,
    sessionId: string,
    fallbackName: string,
    via: SessionUser['via'] = 'session',
  ): Promise<SessionUser | null> {
    const [user] = await db.select().from(users).where(eq(users.id, userId))
    if (!user) return null
    const base = { id: user.id, email: user.email, emailVerified: user.emailVerified, name: user.name, sessionId, via }
    try {
      // The spec inserts a profile when one is missing; so do we.
      const profile = (await profiles.get(user.id)) ?? (await profiles.createFor(user.id, fallbackName))
      return { ...base, profile }
    } catch (error) {
      // The session is valid; without a readable profile the member continues with the default one.
      logger.error({ userId: user.id, error: String(error) }, 'profile could not be read; using the default profile')
      return { ...base, profile: defaultProfile(user.id, fallbackName || null), profileUnavailable: true }
    }
  }

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

    async login(input: LoginInput, caller: Caller) {
      await rateLimits.consume(`sign-in:ip:${caller.ip}`, SIGN_IN_PER_IP)
      const accountKey = `sign-in-failures:email:${input.email}`
      await rateLimits.assertBelow(accountKey, FAILED_SIGN_IN_PER_ACCOUNT)
      try {
        const { headers, response } = await auth.api.signInEmail({
          body: { email: input.email, password: input.password },
          headers: caller.headers,
          returnHeaders: true,
        })
        await rateLimits.reset(accountKey)
        const user = await loadUser(response.user.id, '', response.user.name)
        if (!user) throw new Unauthorized(INVALID_CREDENTIALS)
        return { token: response.token, user, setCookies: headers.getSetCookie() }
      } catch (error) {
        if (error instanceof APIError && error.statusCode === 401) {
          const failures = await rateLimits.hit(accountKey, FAILED_SIGN_IN_PER_ACCOUNT)
          await sleep(failedSignInDelayMs(failures.count))
          throw new Unauthorized(INVALID_CREDENTIALS)
        }
        throw translateAuthError(error)
      }
    },

    /** Ends the session on the server and returns the cookie that clears it in the browser. */
    async logout(caller: Caller): Promise<string[]> {
      try {
        const { headers } = await auth.api.signOut({ headers: caller.headers, returnHeaders: true })
        return headers.getSetCookie()
      } catch {
        return [expiredSessionCookie()]
      }
    },

    /**
     * The signed-in user, if any. Better Auth slides the idle timeout; we add the absolute
     * lifetime: a session older than SESSION_ABSOLUTE_SECONDS is deleted, whatever its activity.
     * An API key (`Bearer ak_...`) alone decides who is asking: an unknown or revoked key is
     * nobody, even beside a session cookie, and a key never sets cookies.
     */
    async currentSession(headers: Headers): Promise<CurrentSession> {
      const apiKey = bearerApiKey(headers)
      if (apiKey) {
        const userId = await apiKeys.authenticate(apiKey)
        return { user: userId ? await loadUser(userId, '', '', 'api-key') : null, setCookies: [] }
      }
      if (!headers.get('cookie')?.includes(SESSION_COOKIE_NAME) && !headers.get('authorization')) {
        return { user: null, setCookies: [] }
      }
      const live = await sessionLookup.find(headers).catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError(error)
        logger.warn({ error: String(error) }, 'session lookup failed; asking Better Auth')
        return null
      })
      if (live) return { user: { ...live.user, sessionId: live.sessionId, via: 'session', profile: live.profile }, setCookies: [] }
      const result = await auth.api.getSession({ headers, returnHeaders: true }).catch((error: unknown) => {
        // An unreadable session is "signed out", but a database outage is not: the caller gets 503.
        if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError(error)
        return null
      })
      const found = result?.response
      const setCookies = result?.headers.getSetCookie() ?? []
      if (!found) return { user: null, setCookies }
      const ageSeconds = (Date.now() - new Date(found.session.createdAt).getTime()) / 1000
      if (ageSeconds > SESSION_ABSOLUTE_SECONDS) {
        await db.delete(sessions).where(eq(sessions.id, found.session.id))
        return { user: null, setCookies: [expiredSessionCookie()] }
      }
      const user = await loadUser(found.session.userId, found.session.id, found.user.name)
      return { user, setCookies }
    },

    async updateProfile(userId: string, input: ProfileUpdateInput): Promise<Profile> {
      const profile = await profiles.update(userId, { fullName: input.fullName, avatarUrl: input.avatarUrl })
      if (!profile) throw new NotFound('Profile not found')
      return profile
    },

    /** Changes the password and ends every session; the caller gets a fresh one. */
    async changePassword(userId: string, input: ChangePasswordInput, caller: Caller) {
      await rateLimits.consume(`password-change:user:${userId}`, PASSWORD_CHANGE_PER_USER)
      if (input.currentPassword === input.newPassword) {
        throw new ValidationError('newPassword: The new password must be different from the current one.', [
          { path: 'newPassword', message: 'The new password must be different from the current one.' },
        ])
      }
      try {
        const { headers, response } = await auth.api.changePassword({
          body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
          headers: caller.headers,
          returnHeaders: true,
        })
        return { token: response.token, setCookies: headers.getSetCookie() }
      } catch (error) {
        if (error instanceof APIError && (error.statusCode === 400 || error.statusCode === 401)) {
          const message =
            error.body?.code === 'INVALID_PASSWORD' ? 'Current password is incorrect.' : (error.body?.message ?? 'Password change failed.')
          throw new ValidationError(`currentPassword: ${message}`, [{ path: 'currentPassword', message }])
        }
        throw translateAuthError(error)
      }
    },
  }
}

function expiredSessionCookie(): string {
  return `${SESSION_COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`
}

function translateAuthError(error: unknown): unknown {
  if (!(error instanceof APIError)) return error
  const message = error.body?.message ?? 'Authentication failed'
  if (error.statusCode === 401) return new Unauthorized(message)
  if (error.statusCode === 422 || error.statusCode === 409) return new Conflict(message)
  if (error.statusCode === 429) return new RateLimited(message, 60)
  return new ValidationError(message)
}

export type AuthService = ReturnType<typeof createAuthService>
