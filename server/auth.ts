import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { bearer } from 'better-auth/plugins'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/auth.ts'
import type { Db } from './db/client.ts'
import { accounts, authRateLimits, sessions, users, verifications } from './db/schema/index.ts'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'
import { hashPassword, verifyPassword } from './password-hashing.ts'
import { EMAIL_VERIFICATION_HOURS, PASSWORD_RESET_HOURS } from './features/auth/account-mail.ts'

const AUTH_BASE_PATH = '/api/identity'
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
/** Our own proxy-aware client address, set on every request before Better Auth sees it. */
export const CLIENT_IP_HEADER = 'x-aether-client-ip'

const DAY = 24 * 60 * 60
export const SESSION_IDLE_SECONDS = 7 * DAY
export const SESSION_REFRESH_SECONDS = DAY
export const SESSION_ABSOLUTE_SECONDS = 30 * DAY

export interface AuthHooks {
  /** Whether a Google sign-in may create a new account now (not in maintenance mode). */
  socialSignUpOpen(): Promise<boolean>
  onUserCreated(user: { id: string; name: string }): Promise<void>
  sendVerificationEmail(email: string, token: string): Promise<void>
  sendResetPassword(email: string, token: string): Promise<void>
}

export function createAuth(options: {
  db: Db
  env: Pick<Env, 'PUBLIC_URL' | 'isProduction' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'googleEnabled'>
  secret: string
  hooks: AuthHooks
  logger: Logger
}) {
  const { db, env, secret, hooks, logger } = options
  return betterAuth({
    appName: 'Aether',
    baseURL: env.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [env.PUBLIC_URL],
    telemetry: { enabled: false },
    logger: {
      log: (level, message, ...args) => {
        const log = level === 'error' ? logger.error : level === 'warn' ? logger.warn : level === 'info' ? logger.info : logger.debug
        log.call(logger, { source: 'better-auth', details: args.length ? args : undefined }, message)
      },
    },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: authRateLimits },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_HOURS * 3600,
      sendResetPassword: ({ user, token }) => hooks.sendResetPassword(user.email, token),
    },
    // A link is sent at sign-up; signing in does not wait for it (the admin's Verified column reads it).
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: EMAIL_VERIFICATION_HOURS * 3600,
      sendVerificationEmail: ({ user, token }) => hooks.sendVerificationEmail(user.email, token),
    },
    socialProviders: env.googleEnabled
      ? { google: { clientId: env.GOOGLE_CLIENT_ID ?? '', clientSecret: env.GOOGLE_CLIENT_SECRET ?? '' } }
      : undefined,
    session: {
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      cookieCache: { enabled: false },
    },
    // Better Auth's own limiter guards the endpoints we expose (PUBLIC_AUTH_ENDPOINTS); our /api
    // routes use rate-limit.service.ts. Both keep their counters in PostgreSQL.
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 100,
    },
    advanced: {
      // The spec's cookie policy names the session cookie auth_session, so no __Secure- prefix;
      // the Secure attribute is still set in production.
      useSecureCookies: false,
      defaultCookieAttributes: { secure: env.isProduction, sameSite: 'lax', httpOnly: true },
      cookies: { session_token: { name: SESSION_COOKIE_NAME } },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
    },
    databaseHooks: {
      user: {
        create: {
          // Our own sign-up refuses in maintenance mode (auth.service.ts); Google's callback creates users here.
          before: async (_user, context) =>
            context?.path.startsWith('/callback') && !(await hooks.socialSignUpOpen()) ? false : undefined,
          after: async (user) => {
            await hooks.onUserCreated({ id: user.id, name: user.name })
          },
        },
      },
    },
    plugins: [bearer()],
  })
}

export type Auth = ReturnType<typeof createAuth>
