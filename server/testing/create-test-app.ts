import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { MiddlewareHandler } from 'hono'
import pino from 'pino'
import { createApp } from '#server/app.ts'
import type { AppEnv } from '#server/http/app-env.ts'
import type { PageContext } from '#server/http/page-context.ts'
import { and, desc, eq } from 'drizzle-orm'
import { seed } from '#server/db/seed.ts'
import { mailOutbox } from '#server/db/schema/index.ts'
import { createServices } from '#server/services.ts'
import type { ExplorationLimits } from '#server/features/planning/planning.service.ts'
import type { BillingEnv } from '#server/features/billing/create-billing.ts'
import { openTestDatabase } from './test-database.ts'

export const TEST_PUBLIC_URL = 'http://localhost:3000'
export const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789'

export interface TestAppOptions {
  /** Requests per minute per client for the general API limit (the app's default is 60). */
  apiRateLimit?: number
  googleEnabled?: boolean
  /** Payment settings (PADDLE_*, BILLING_SANDBOX). The sandbox delivers its webhooks in-process. */
  billing?: Partial<BillingEnv>
  /** An SMTP relay; unset, mail goes to the outbox only. */
  smtpUrl?: string
  /** PostgreSQL only: connect through this host:port (a proxy the test controls). */
  databaseHost?: string
  /** Stands in for the React Router pages (every non-API path); unset, those paths answer 404. */
  pages?: MiddlewareHandler<AppEnv>
  /** An OpenAI-compatible endpoint (a scripted one in tests: server/testing/fake-chat-completions.ts). */
  ai?: { baseUrl: string; model?: string }
  /** Let the cloud browser reach this machine (the practice sites on 127.0.0.1). */
  privateTargets?: 'loopback'
  /** The time the services count schedules from (give the scheduler the same one). */
  clock?: () => Date
  /** The places and waits of inspections and plans (docs/decisions/038), shortened for a test. */
  explorations?: Partial<ExplorationLimits>
}

/**
 * The real app (every middleware and service) on a fresh database, called in-process with
 * app.request(). Client addresses come from X-Forwarded-For, so a test can act as several
 * clients: pass { ip } to the request helpers.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const database = await openTestDatabase({ host: options.databaseHost })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aether-test-'))
  const env = {
    ...testEnv(options),
    ...options.billing,
    SMTP_URL: options.smtpUrl,
    DATA_DIR: dataDir,
    AI_BASE_URL: options.ai?.baseUrl,
    AI_MODEL: options.ai ? (options.ai.model ?? 'test-model') : undefined,
    RUN_ALLOW_PRIVATE_TARGETS: options.privateTargets ?? ('none' as const),
    RUN_STEP_TIMEOUT_MS: 5_000,
  }
  const logger = pino({ level: 'silent' })
  const services = createServices({
    database,
    env,
    logger,
    authSecret: TEST_AUTH_SECRET,
    deliverWebhook: (request) => Promise.resolve(app.request(request)),
    clock: options.clock,
    explorations: options.explorations,
  })
  await seed(database.db, services, logger, { demo: false, adminEmail: 'admin@aether.test', memberEmail: 'member@aether.test' })
  const defaults = await services.settings.get()
  await services.settings.update({ ...defaults, apiRateLimit: options.apiRateLimit ?? 1000 })
  const app = createApp({ env, logger, database, services, pages: options.pages })

  let nextIp = 1
  const freshIp = () => `198.51.100.${nextIp++ % 250}`

  async function request(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; ip?: string; token?: string; cookie?: string } = {},
  ) {
    const headers = new Headers(init.headers)
    headers.set('x-forwarded-for', init.ip ?? '203.0.113.10')
    if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json')
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    if (init.cookie) headers.set('cookie', init.cookie)
    const response = await app.request(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    })
    return response
  }

  /** Follows the link of the newest "Verify your e-mail" mail to this address, as its owner would. */
  async function verifyEmailOf(email: string): Promise<void> {
    const [mail] = await database.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, 'Verify your e-mail address for Aether')))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1)
    const token = mail?.text.match(/\/verify-email\?token=([^\s]+)/)?.[1]
    if (!token || (await services.account.verifyEmail(decodeURIComponent(token))) !== 'done') {
      throw new Error(`no working verification link was mailed to ${email}`)
    }
  }

  /**
   * Registers and signs in a user; returns the bearer token, session cookie and user. The address
   * is verified through the sign-up mail's link, as most members' are, unless `verified` is false
   * (what an unverified account may not do: common/email-verification.ts).
   */
  async function signUp(input: { email?: string; password?: string; fullName?: string; role?: 'user' | 'admin'; verified?: boolean } = {}) {
    const email = input.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`
    const password = input.password ?? 'correct-horse-battery'
    const ip = freshIp()
    const registered = await request('/api/auth/register', { body: { email, password, fullName: input.fullName }, ip })
    if (registered.status !== 201) throw new Error(`sign-up failed: ${registered.status} ${await registered.text()}`)
    const { data } = (await registered.json()) as { data: { user: { id: string } } }
    if (input.role === 'admin') await services.profiles.setRole(data.user.id, 'admin')
    if (input.verified !== false) await verifyEmailOf(email.toLowerCase())
    const login = await request('/api/auth/login', { body: { email, password }, ip })
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`)
    const body = (await login.json()) as { data: { token: string; user: { id: string; email: string } } }
    const cookie = sessionCookie(login)
    return { email, password, id: body.data.user.id, token: body.data.token, cookie }
  }

  /**
   * The `context` React Router hands a page's loader and action for a request of this account (the
   * session its sign-up made; `workspace`: the one it chose), or of a visitor: pages are tested by
   * calling their loader and action with it.
   */
  async function pageContext(account: { token: string } | null, workspace?: string): Promise<PageContext> {
    const credential = account ? ({ kind: 'bearer', token: account.token } as const) : null
    const user = credential
      ? (await services.sessions.resolve(credential, workspace ? { id: workspace, explicit: true } : null)).user
      : null
    return {
      services,
      user,
      credential,
      cspNonce: 'nonce',
      clientIp: freshIp(),
      publicUrl: TEST_PUBLIC_URL,
      reportError: (error) => {
        throw error
      },
    }
  }

  const close = async () => {
    await sayIfSlow('closing the cloud browser', services.browsers.close())
    await sayIfSlow('closing the database', database.close())
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { app, database, db: database.db, services, request, signUp, verifyEmailOf, pageContext, freshIp, dataDir, close }
}

/** The configuration the test app runs with (everything createServices and createApp read). */
export function testEnv(options: { googleEnabled?: boolean; isProduction?: boolean } = {}) {
  return {
    PUBLIC_URL: TEST_PUBLIC_URL,
    isProduction: options.isProduction ?? false,
    TRUST_PROXY: true,
    GOOGLE_CLIENT_ID: options.googleEnabled ? 'test-client-id' : undefined,
    GOOGLE_CLIENT_SECRET: options.googleEnabled ? 'test-client-secret' : undefined,
    googleEnabled: Boolean(options.googleEnabled),
    CONTACT_EMAIL: 'hello@aether.test',
    MAIL_FROM: 'Aether <no-reply@aether.test>',
  }
}

/** The auth_session cookie from a response, as a Cookie request header value. */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('auth_session='))
  if (!cookie) throw new Error('no auth_session cookie was set')
  return cookie.split(';')[0] ?? ''
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/**
 * Waits for `work`, saying on stderr which part of a test's clean-up is still waiting after 20 s:
 * a hook that runs out of time then names what held it (an unreleased database client, a browser).
 */
async function sayIfSlow<T>(what: string, work: Promise<T>): Promise<T> {
  const timer = setTimeout(() => process.stderr.write(`test app: ${what} has taken over 20 s\n`), 20_000)
  try {
    return await work
  } finally {
    clearTimeout(timer)
  }
}
