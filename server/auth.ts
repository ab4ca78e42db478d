import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'

export const AUTH_BASE_PATH = '/api/identity'
/**
 * The only Better Auth endpoints reachable from outside: Google sign-in and its callback.
 * E-mail sign-in, sign-up and password changes go through /api/auth and the /auth page, where
 * our validation and rate limits apply; exposing Better Auth's copies would bypass them.
 */
export const PUBLIC_AUTH_ENDPOINTS: { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'POST', path: '/sign-in/social' },
  { method: 'GET', path: '/callback/:provider' },
]
export const SESSION_COOKIE_NAME = 'auth_session'
/** While an admin views the app as a member, their own session waits in this cookie (docs/decisions/064). */
export const VIEW_AS_COOKIE_NAME = 'aether_view_as'
/** Our own proxy-aware client address, set on every request before Better Auth sees it. */
export const CLIENT_IP_HEADER = 'x-aether-client-ip'

/** How long the ticket between a correct password and the second factor lasts (docs/decisions/023). */
export const SECOND_FACTOR_TICKET_SECONDS = 5 * 60
/** Better Auth's cookie for that ticket (its prefix, no __Secure-: see useSecureCookies in better-auth-config.ts). */
export const TWO_FACTOR_COOKIE_NAME = 'better-auth.two_factor'
/** The passkey plugin's cookie naming the challenge of a registration or sign-in in progress (5 minutes). */
export const PASSKEY_CHALLENGE_COOKIE_NAME = 'better-auth.passkey_challenge'
/** The name on a code in an authenticator app; the account's e-mail address follows it. */
export const TOTP_ISSUER = 'Aether'

const DAY = 24 * 60 * 60
export const SESSION_IDLE_SECONDS = 7 * DAY
export const SESSION_REFRESH_SECONDS = DAY
export const SESSION_ABSOLUTE_SECONDS = 30 * DAY

export interface AuthHooks {
  /** Whether a Google sign-in may create a new account now (not in maintenance mode). */
  socialSignUpOpen(): Promise<boolean>
  onUserCreated(user: { id: string; name: string }): Promise<void>
  /** Whether an admin has suspended the account: then no way of signing in makes it a session (docs/decisions/062). */
  accountSuspended(userId: string): Promise<boolean>
  /** A Google sign-in made a session (our own ways in end in signed-in.ts): it cancels a deletion that waits (docs/decisions/065). */
  signedInWithGoogle(userId: string): Promise<void>
  sendVerificationEmail(email: string, token: string): Promise<void>
  sendResetPassword(email: string, token: string): Promise<void>
}

export interface AuthOptions {
  db: Db
  env: Pick<Env, 'PUBLIC_URL' | 'isProduction' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'googleEnabled'>
  secret: string
  hooks: AuthHooks
  logger: Logger
}
