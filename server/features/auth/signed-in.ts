import { parse as parseCookies } from 'hono/utils/cookie'
import { Unauthorized } from '#common/errors.ts'
import { SESSION_COOKIE_NAME } from '#server/auth.ts'
import type { SessionService, SessionUser } from './session.service.ts'
import type { TrustedDevices } from './trusted-devices.ts'

/** A finished sign-in: the bearer token, the member, and the cookies that sign the browser in. */
export interface SignedIn {
  token: string
  user: SessionUser
  setCookies: string[]
  /** The day the account would have been erased, when this sign-in cancelled its deletion (docs/decisions/065). */
  deletionCancelled: Date | null
}

/**
 * The last step of every way in (a password alone, a password and a second factor, a passkey):
 * the member as the session resolves them, and the device noted as one the account signed in on
 * (ADR 016). A second step that was still due never gets here, so the note follows both factors.
 */
export function createSignedIn(deps: {
  sessions: Pick<SessionService, 'ofNewSession'>
  trustedDevices: TrustedDevices
  /** Signing in cancels the account's deletion that waits (docs/decisions/065): the day it was due, or null. */
  cancelDeletion: (userId: string) => Promise<Date | null>
}) {
  return async function signedIn(
    session: { userId: string; name: string; token: string },
    setCookies: string[],
    requestHeaders: Headers,
  ): Promise<SignedIn> {
    // Before the member is read: an account whose deletion waits is nobody to the session's lookup.
    const deletionCancelled = await deps.cancelDeletion(session.userId)
    const user = await deps.sessions.ofNewSession(session)
    if (!user) throw new Unauthorized('Invalid email or password')
    return {
      token: session.token,
      user,
      setCookies: [...setCookies, deps.trustedDevices.remember(requestHeaders, user.id)],
      deletionCancelled,
    }
  }
}

export type SignedInStep = ReturnType<typeof createSignedIn>

/** The session token in an auth_session Set-Cookie (Better Auth signs the cookie: `token.signature`). */
export function sessionTokenOf(setCookies: string[]): string | null {
  for (const header of setCookies) {
    const [pair = ''] = header.split(';')
    const value = parseCookies(pair, SESSION_COOKIE_NAME)[SESSION_COOKIE_NAME]
    if (value) return value.slice(0, value.lastIndexOf('.') > 0 ? value.lastIndexOf('.') : undefined)
  }
  return null
}

/** The value of one cookie among Set-Cookie headers (decoded), or null. */
export function setCookieValue(setCookies: string[], name: string): string | null {
  for (const header of setCookies) {
    const [pair = ''] = header.split(';')
    const value = parseCookies(pair, name)[name]
    if (value) return value
  }
  return null
}
