// Better Auth's configuration. Only server/better-auth.ts imports this module, when Better Auth is
// first needed: loading Better Auth and its plugins (WebAuthn above all) takes about half a second
// of CPU, which a start does not need (issue 18, cold start).
import { betterAuth } from 'better-auth/minimal'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import { bearer } from 'better-auth/plugins/bearer'
import { twoFactor } from 'better-auth/plugins/two-factor'
import { passkey } from '@better-auth/passkey'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/auth.ts'
import { ACCOUNT_SUSPENDED_CODE, ACCOUNT_SUSPENDED_MESSAGE } from '#common/suspension.ts'
import {
  AUTH_BASE_PATH,
  CLIENT_IP_HEADER,
  SECOND_FACTOR_TICKET_SECONDS,
  SESSION_COOKIE_NAME,
  SESSION_IDLE_SECONDS,
  SESSION_REFRESH_SECONDS,
  TOTP_ISSUER,
  type AuthOptions,
} from './auth.ts'
import { accounts, authRateLimits, passkeys, sessions, twoFactors, users, verifications } from './db/schema/index.ts'
import { hashPassword, verifyPassword } from './password-hashing.ts'
import { EMAIL_VERIFICATION_HOURS, PASSWORD_RESET_HOURS } from './features/auth/account-mail.ts'

export { APIError }

export function buildAuth(options: AuthOptions) {
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
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: authRateLimits,
        twoFactor: twoFactors,
        passkey: passkeys,
      },
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
      session: {
        create: {
          // Every way in (a password, a second factor, a passkey, Google) ends here, after the
          // account proved itself: a suspended one is told so, and gets no session (docs/decisions/062).
          before: async (session) => {
            if (await hooks.accountSuspended(session.userId)) {
              throw new APIError('FORBIDDEN', { message: ACCOUNT_SUSPENDED_MESSAGE, code: ACCOUNT_SUSPENDED_CODE })
            }
          },
          // Google's callback is the one way in that does not end in our signed-in step (signed-in.ts),
          // which cancels an account's deletion that waits (docs/decisions/065).
          after: async (session, context) => {
            if (context?.path.startsWith('/callback')) await hooks.signedInWithGoogle(session.userId)
          },
        },
      },
    },
    plugins: [
      bearer(),
      // Password sign-ins of an account with two-factor on answer with a ticket (the signed
      // two_factor cookie) instead of a session; the code or a recovery code then completes them.
      // Secrets and recovery codes are stored encrypted with the server secret (docs/decisions/023).
      twoFactor({
        issuer: TOTP_ISSUER,
        twoFactorCookieMaxAge: SECOND_FACTOR_TICKET_SECONDS,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
      }),
      // A passkey signs in alone and counts as both factors, so it must verify its user (PIN or
      // biometrics): the plugin accepts unverified assertions, these checks refuse them.
      passkey({
        rpName: 'Aether',
        rpID: new URL(env.PUBLIC_URL).hostname,
        origin: new URL(env.PUBLIC_URL).origin,
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        advanced: { webAuthnChallengeCookie: 'passkey_challenge' },
        // Our routes (features/auth/passkey.service.ts) check the session and the password first.
        registration: {
          requireSession: false,
          afterVerification: ({ verification }) => {
            if (!verification.registrationInfo?.userVerified) throw userNotVerified()
            return Promise.resolve()
          },
        },
        authentication: {
          afterVerification: ({ verification }) => {
            if (!verification.authenticationInfo.userVerified) throw userNotVerified()
            return Promise.resolve()
          },
        },
      }),
    ],
  })
}

const userNotVerified = () =>
  new APIError('UNAUTHORIZED', {
    message: 'Your passkey did not verify you (no PIN or biometrics). Use a passkey that asks for one.',
    code: 'PASSKEY_USER_NOT_VERIFIED',
  })

export type BetterAuthInstance = ReturnType<typeof buildAuth>
