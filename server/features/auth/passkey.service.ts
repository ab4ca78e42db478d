import { and, asc, eq } from 'drizzle-orm'
import { AppError, NotFound, Unauthorized, ValidationError } from '#common/errors.ts'
import { ACCOUNT_SUSPENDED_CODE, AccountSuspended } from '#common/suspension.ts'
import { CLIENT_IP_HEADER, PASSKEY_CHALLENGE_COOKIE_NAME } from '#server/auth.ts'
import { isAuthApiError, type Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import { passkeys } from '#server/db/schema/index.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import { SIGN_IN_PER_IP, TWO_FACTOR_CHANGES_PER_USER } from './auth-limits.ts'
import type { Caller } from './auth.service.ts'
import { verifyAccountPassword } from './account-password.ts'
import { betterAuthHeaders, type Credential } from './session.service.ts'
import { sessionTokenOf, type SignedIn, type SignedInStep } from './signed-in.ts'
import { parse as parseCookies } from 'hono/utils/cookie'

/** A passkey as its owner sees it in Settings (the public key and counter stay on the server). */
export interface PasskeyRow {
  id: string
  name: string
  createdAt: Date | null
  /** 'multiDevice': synced by a password manager or platform; 'singleDevice': a security key or one device. */
  deviceType: string
  backedUp: boolean
}

/** WebAuthn options for the browser, and the challenge cookie that must come back with its answer. */
export interface PasskeyCeremony {
  options: Record<string, unknown>
  setCookies: string[]
}

/** The browser's WebAuthn answer, passed to Better Auth as @simplewebauthn/browser made it. */
type WebAuthnAnswer = Record<string, unknown>

class PasskeyRefused extends AppError {
  constructor(message: string) {
    super(401, message, 'PASSKEY_REFUSED')
  }
}

/**
 * Passkeys (WebAuthn) on Better Auth's passkey plugin (docs/decisions/023): added from Settings
 * after the password, listed and deleted there; a passkey signs in alone and counts as both factors
 * (it must verify its user: auth.ts). The challenge of a ceremony lives in a signed cookie for 5 minutes.
 */
export function createPasskeyService(deps: { auth: Auth; db: Db; rateLimits: RateLimitService; signedIn: SignedInStep }) {
  const { auth, db, rateLimits, signedIn } = deps

  /** The request headers for Better Auth: the session (if any) and the challenge cookie the browser sent back. */
  function ceremonyHeaders(credential: Credential | null, request: Headers): Headers {
    const headers = betterAuthHeaders(credential)
    const challenge = parseCookies(request.get('cookie') ?? '', PASSKEY_CHALLENGE_COOKIE_NAME)[PASSKEY_CHALLENGE_COOKIE_NAME]
    const cookies = [headers.get('cookie'), challenge ? `${PASSKEY_CHALLENGE_COOKIE_NAME}=${encodeURIComponent(challenge)}` : null]
    headers.set('cookie', cookies.filter(Boolean).join('; '))
    for (const name of ['user-agent', CLIENT_IP_HEADER]) {
      const value = request.get(name)
      if (value) headers.set(name, value)
    }
    return headers
  }

  function refusal(error: unknown): unknown {
    if (!isAuthApiError(error)) return error
    const code = error.body?.code
    if (code === ACCOUNT_SUSPENDED_CODE) return new AccountSuspended()
    if (code === 'CHALLENGE_NOT_FOUND') return new PasskeyRefused('The passkey request expired. Please try again.')
    if (code === 'PASSKEY_USER_NOT_VERIFIED') return new PasskeyRefused(error.body?.message ?? 'Your passkey did not verify you.')
    if (code === 'PASSKEY_NOT_FOUND') return new PasskeyRefused('This passkey is not registered with any account here.')
    if (error.statusCode === 400 || error.statusCode === 401)
      return new PasskeyRefused('The passkey could not be verified. Please try again.')
    return error
  }

  return {
    async list(userId: string): Promise<PasskeyRow[]> {
      const rows = await db
        .select({
          id: passkeys.id,
          name: passkeys.name,
          createdAt: passkeys.createdAt,
          deviceType: passkeys.deviceType,
          backedUp: passkeys.backedUp,
        })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
        .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
      return rows.map((row) => ({ ...row, name: row.name ?? 'Passkey' }))
    },

    /** Starts adding a passkey: the password first, then options for navigator.credentials.create(). */
    async registrationOptions(
      userId: string,
      input: { name: string; password: string },
      credential: Credential | null,
      request: Headers,
    ): Promise<PasskeyCeremony> {
      await rateLimits.consume(`two-factor-change:user:${userId}`, TWO_FACTOR_CHANGES_PER_USER)
      if (!(await verifyAccountPassword(db, userId, input.password))) {
        throw new ValidationError('password: Password is incorrect.', [{ path: 'password', message: 'Password is incorrect.' }])
      }
      const { headers, response } = await auth.api.generatePasskeyRegistrationOptions({
        query: { name: input.name },
        headers: ceremonyHeaders(credential, request),
        returnHeaders: true,
      })
      return { options: response as unknown as Record<string, unknown>, setCookies: headers.getSetCookie() }
    },

    /** Finishes adding a passkey with the browser's answer (the challenge cookie must match). */
    async register(
      userId: string,
      input: { name: string; response: WebAuthnAnswer },
      credential: Credential | null,
      request: Headers,
    ): Promise<PasskeyRow> {
      try {
        const created = await auth.api.verifyPasskeyRegistration({
          body: { response: input.response, name: input.name },
          headers: ceremonyHeaders(credential, request),
        })
        if (created.userId !== userId) throw new Unauthorized('This passkey was not started by you.')
        return {
          id: created.id,
          name: created.name ?? input.name,
          createdAt: created.createdAt ?? null,
          deviceType: created.deviceType,
          backedUp: created.backedUp,
        }
      } catch (error) {
        throw refusal(error)
      }
    },

    async remove(userId: string, id: string): Promise<PasskeyRow> {
      const [removed] = await db
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning()
      if (!removed) throw new NotFound('Passkey not found')
      return {
        id: removed.id,
        name: removed.name ?? 'Passkey',
        createdAt: removed.createdAt,
        deviceType: removed.deviceType,
        backedUp: removed.backedUp,
      }
    },

    /** Options for navigator.credentials.get(): any passkey of this site (the browser lets the person choose). */
    async signInOptions(caller: Caller): Promise<PasskeyCeremony> {
      await rateLimits.consume(`sign-in:ip:${caller.ip}`, SIGN_IN_PER_IP)
      const { headers, response } = await auth.api.generatePasskeyAuthenticationOptions({
        headers: ceremonyHeaders(null, caller.headers),
        returnHeaders: true,
      })
      return { options: response as unknown as Record<string, unknown>, setCookies: headers.getSetCookie() }
    },

    /** Signs in with a passkey: both factors at once, so no second step follows. */
    async signIn(response: WebAuthnAnswer, caller: Caller): Promise<SignedIn> {
      await rateLimits.consume(`sign-in:ip:${caller.ip}`, SIGN_IN_PER_IP)
      try {
        const { headers, response: verified } = await auth.api.verifyPasskeyAuthentication({
          // Checked by the route's schema for its shape; Better Auth verifies the rest.
          body: { response: response as never },
          headers: ceremonyHeaders(null, caller.headers),
          returnHeaders: true,
        })
        const setCookies = headers.getSetCookie()
        const token = sessionTokenOf(setCookies) ?? verified.session.token
        return await signedIn({ userId: verified.user.id, name: verified.user.name, token }, setCookies, caller.headers)
      } catch (error) {
        throw refusal(error)
      }
    },
  }
}

export type PasskeyService = ReturnType<typeof createPasskeyService>
