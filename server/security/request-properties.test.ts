/**
 * Property-based tests for every request schema (issue 7): for each operation of the OpenAPI
 * document (plus Better Auth's public endpoints), random and malformed bodies, queries, path
 * parameters and headers, sent as a visitor, a member (session or API key) and an admin, must
 *   1. never produce a 5xx,
 *   2. when refused (4xx), leave the data as it was (a fingerprint of every table),
 *   3. when refused under /api, answer JSON { message, code } (docs/decisions/005-error-format.md).
 * No fixed seed: fast-check prints the seed and path of a failing run, to replay it.
 */
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { Hono } from 'hono'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { action as authAction } from '#app/routes/auth.tsx'
import { action as contactAction } from '#app/routes/contact.tsx'
import { action as forgotPasswordAction } from '#app/routes/forgot-password.tsx'
import { action as preferencesAction } from '#app/routes/preferences.tsx'
import { action as resetPasswordAction } from '#app/routes/reset-password.tsx'
import { action as servicesAction } from '#app/routes/services.tsx'
import { errorHandler } from '#server/http/error-handler.ts'
import type { PageContext } from '#server/http/page-context.ts'
import type { AppEnv } from '#server/http/app-env.ts'
import { bodyLimit } from '#server/http/body-limit.ts'
import { answerRefusedBody, requestGuard } from '#server/http/request-guard.ts'
import { createTestApp, sessionCookie, type TestApp } from '#server/testing/create-test-app.ts'
import {
  bodyFor,
  formFor,
  forwardedFor,
  oddHeaders,
  operationsOf,
  pathParam,
  queryFor,
  type HeaderOverride,
  type OpenApiDocument,
  type Operation,
  type PageForm,
  type RawBody,
} from '#server/testing/arbitrary-requests.ts'

/** Runs per property: 60 or so, each run one request plus one fingerprint query (the file takes about a minute). */
const RUNS_PER_OPERATION = 30
const OPERATION_TIMEOUT_MS = 60_000

// Set up at collection time: the operations to test come from the app's own OpenAPI document.
const t: TestApp = await createTestApp({
  billing: { PADDLE_CLIENT_TOKEN: 'test_client_token', PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_fuzz_secret' },
})
afterAll(async () => {
  await t.close()
})

/** The last error the app's onError saw (the app logs to a silent logger in tests). */
let lastError: unknown = null
const answerError = errorHandler(pino({ level: 'silent' }))
t.app.onError((error, c) => {
  lastError = error
  return answerError(error, c)
})

const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument

type Account = { id: string; email: string; password: string; token: string; cookie: string }
const accounts: Record<'member' | 'admin', Account> = {
  member: await t.signUp({ fullName: 'Fuzz Member' }),
  admin: await t.signUp({ fullName: 'Fuzz Admin', role: 'admin' }),
}
const victim = await t.signUp({ fullName: 'Victim Person' })

async function created(path: string, body: unknown, account?: Account): Promise<Record<string, unknown> | null> {
  const response = await t.request(path, { body, token: account?.token, ip: t.freshIp() })
  if (response.status >= 300) return null
  return ((await response.json()) as { data: Record<string, unknown> }).data
}
const post = await created('/api/blog', { title: 'Victim post', content: 'Body', status: 'published', tags: ['fuzz'] }, accounts.admin)
const inquiry = await created('/api/contact', { name: 'Victim', email: 'victim@example.com', message: 'Please help' })
const automation = await created(
  '/api/automations',
  { name: 'Victim automation', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  accounts.member,
)
const run = automation
  ? await created(`/api/automations/${String(automation.id)}/runs`, { where: 'client', trigger: 'extension' }, accounts.member)
  : null
const apiKey = await created('/api/keys', { name: 'fuzz key' }, accounts.member)
const memberKey = typeof apiKey?.key === 'string' ? apiKey.key : 'ak_missing'

const realIds = [victim.id, post?.id, inquiry?.id, automation?.id, run?.id, apiKey?.id].filter((id): id is string => typeof id === 'string')
const realValues: Record<string, string[]> = {
  id: realIds,
  slug: typeof post?.slug === 'string' ? [post.slug] : [],
  file: ['1.png', 'step-1.png', 'screenshot.png'],
  provider: ['google', 'github'],
}

/** The id of the operation's own resource three times out of four, another resource's otherwise. */
function idsFor(path: string): string[] {
  const own = Object.entries(ownIds).find(([prefix]) => path.startsWith(prefix))?.[1]
  return typeof own === 'string' ? [own, own, own, ...realIds] : realIds
}
const ownIds: Record<string, unknown> = {
  '/api/users/': victim.id,
  '/api/blog/': post?.id,
  '/api/contact/': inquiry?.id,
  '/api/automations/': automation?.id,
  '/api/runs/': run?.id,
  '/api/keys/': apiKey?.id,
}

/** Better Auth's endpoints that the app exposes (server/auth.ts PUBLIC_AUTH_ENDPOINTS); not in the document. */
const identityOperations: Operation[] = [
  {
    key: 'POST /api/identity/sign-in/social',
    method: 'POST',
    path: '/api/identity/sign-in/social',
    pathParams: [],
    queryParams: [],
    headerParams: [],
    bodySchema: {
      type: 'object',
      properties: { provider: { type: 'string', enum: ['google', 'github'] }, callbackURL: { type: 'string', format: 'uri' } },
      required: ['provider'],
    },
    signedIn: false,
    access: 'anyone',
  },
  {
    key: 'GET /api/identity/callback/{provider}',
    method: 'GET',
    path: '/api/identity/callback/{provider}',
    pathParams: ['provider'],
    queryParams: [
      { name: 'code', schema: { type: 'string' } },
      { name: 'state', schema: { type: 'string' } },
      { name: 'error', schema: { type: 'string' } },
    ],
    headerParams: [],
    bodySchema: null,
    signedIn: false,
    access: 'anyone',
  },
]

// Deletions last: one that succeeds (a fitting request) would take a shared resource from the others.
const operations = [...operationsOf(document), ...identityOperations].sort(
  (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
)

// ---------------------------------------------------------------------------------------------
// The data fingerprint: row count and a hash of every row of every table, except what a refused
// request may legitimately touch (rate-limit counters, an API key's last-used hint).

const VOLATILE_TABLES = new Set(['rate_limits', 'auth_rate_limits'])
const VOLATILE_COLUMNS: Record<string, string[]> = { api_keys: ['last_used_at'], sessions: ['updated_at', 'expires_at'] }

type Row = Record<string, unknown>
const rowsOf = (result: unknown): Row[] => (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[]

const tables = rowsOf(
  await t.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`),
)
  .map((row) => String(row.table_name))
  .filter((name) => !VOLATILE_TABLES.has(name))
  .sort()

const fingerprintQuery = sql.raw(
  tables
    .map((table) => {
      const stripped = (VOLATILE_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('')
      return (
        `select '${table}' as name, count(*)::int as rows, ` +
        `md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash ` +
        `from (select to_jsonb(r)${stripped} as x from "${table}" r) s`
      )
    })
    .join(' union all '),
)

async function fingerprint(): Promise<Map<string, string>> {
  const rows = rowsOf(await t.db.execute(fingerprintQuery))
  return new Map(rows.map((row) => [String(row.name), `${String(row.rows)}:${String(row.hash)}`]))
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name))
}

// ---------------------------------------------------------------------------------------------
// Requests

type Actor = 'visitor' | 'member' | 'member-key' | 'admin'

interface Sample {
  actor: Actor
  credential: 'bearer' | 'cookie'
  method: string
  path: string
  query: string | null
  body: RawBody | null
  xff: string
  headers: HeaderOverride | null
}

const cut = (value: string, length = 200) => (value.length > length ? `${value.slice(0, length)}… (${value.length} chars)` : value)

function describeSample(sample: Sample): string {
  const body = sample.body
    ? `${sample.body.kind} ${sample.body.contentType ?? '(no content-type)'} ${
        typeof sample.body.body === 'string' ? JSON.stringify(cut(sample.body.body)) : `${sample.body.body.length} bytes`
      }`
    : 'no body'
  const headers = Object.entries(sample.headers ?? {})
    .map(([name, value]) => `${name}: ${JSON.stringify(cut(value, 80))}`)
    .join('; ')
  return (
    `${sample.method} ${cut(urlOf(sample), 300)} as ${sample.actor} (${sample.credential}); ${body}; ` +
    `x-forwarded-for: ${JSON.stringify(cut(sample.xff, 80))}${headers ? `; ${headers}` : ''}`
  )
}

/** Control characters escaped, so that a NUL in a failure message does not turn the log into "binary". */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function urlOf(sample: Sample): string {
  return `http://localhost:3000${sample.path}${sample.query === null ? '' : `?${sample.query}`}`
}

function sampleFor(operation: Operation): fc.Arbitrary<Sample> {
  const actors: Actor[] = ['visitor', 'member', 'member-key', 'admin']
  const pathValues = fc.tuple(
    ...operation.pathParams.map((name) => pathParam(name === 'id' ? idsFor(operation.path) : (realValues[name] ?? []))),
  )
  return fc
    .record({
      actor: fc.constantFrom(...actors),
      credential: fc.constantFrom('bearer' as const, 'cookie' as const),
      method: fc.oneof(
        { arbitrary: fc.constant(operation.method), weight: 12 },
        { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), weight: 1 },
      ),
      pathValues,
      query: fc.option(queryFor(operation), { freq: operation.queryParams.length ? 5 : 2 }),
      body: bodyFor(operation),
      xff: forwardedFor,
      headers: fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: oddHeaders, weight: 1 }),
    })
    .map(({ pathValues: values, ...rest }) => {
      let path = operation.path
      operation.pathParams.forEach((name, index) => {
        path = path.replace(`{${name}}`, values[index] ?? '')
      })
      const sample: Sample = { ...rest, path, body: rest.method === 'GET' || rest.method === 'HEAD' ? null : rest.body }
      return Object.assign(sample, { [fc.toStringMethod]: () => describeSample(sample) })
    })
}

function requestOf(sample: Sample): Request | null {
  try {
    const headers = new Headers()
    headers.set('x-forwarded-for', sample.xff)
    if (sample.body?.contentType) headers.set('content-type', sample.body.contentType)
    if (sample.actor !== 'visitor') {
      const account = accounts[sample.actor === 'admin' ? 'admin' : 'member']
      if (sample.actor === 'member-key') headers.set('authorization', `Bearer ${memberKey}`)
      else if (sample.credential === 'cookie') headers.set('cookie', account.cookie)
      else headers.set('authorization', `Bearer ${account.token}`)
    }
    for (const [name, value] of Object.entries(sample.headers ?? {})) headers.set(name, value)
    const body = sample.body?.body
    return new Request(urlOf(sample), {
      method: sample.method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
    })
  } catch {
    // Something fetch itself refuses (a header value it will not send): no server would see it.
    return null
  }
}

/** Puts back what a successful request may have broken for the runs after it. */
async function repairAfterSuccess(operation: Operation, sample: Sample) {
  if (operation.key === 'PUT /api/settings') {
    const settings = await t.services.settings.get()
    await t.services.settings.update({ ...settings, maintenanceMode: false, apiRateLimit: 1000 })
  }
  if ((operation.key === 'POST /api/auth/logout' || operation.key === 'PUT /api/auth/change-password') && sample.actor !== 'visitor') {
    for (const account of Object.values(accounts)) {
      const me = await t.request('/api/auth/me', { token: account.token })
      await me.body?.cancel()
      if (me.status === 200) continue
      const login = await t.request('/api/auth/login', { body: { email: account.email, password: account.password }, ip: t.freshIp() })
      if (login.status !== 200) throw new Error(`could not sign ${account.email} in again: ${login.status}`)
      account.token = ((await login.json()) as { data: { token: string } }).data.token
      account.cookie = sessionCookie(login)
    }
  }
}

/** What the error body of a refused /api request must look like. */
async function checkErrorBody(response: Response, sample: Sample, url: URL) {
  const text = await response.text()
  // Paths that normalise out of /api (../) belong to the pages, and Better Auth answers in its own format.
  if (!url.pathname.startsWith('/api/') || url.pathname.startsWith('/api/identity/') || sample.method === 'HEAD') return
  const where = `${response.status} for ${describeSample(sample)}: ${cut(text)}`
  expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`error body is not JSON: ${where}`)
  }
  expect(body, where).toMatchObject({ message: expect.stringMatching(/\S/), code: expect.any(String) })
}

let baseline = await fingerprint()
const tally = new Map<string, Map<number, number>>()

async function check(operation: Operation, sample: Sample) {
  const request = requestOf(sample)
  if (!request) return
  const url = new URL(request.url)
  lastError = null
  const response = await t.app.request(request)
  const counts = tally.get(operation.key) ?? new Map<number, number>()
  counts.set(response.status, (counts.get(response.status) ?? 0) + 1)
  tally.set(operation.key, counts)

  if (response.status >= 500) {
    const text = await response.text().catch(() => '')
    const cause = lastError instanceof Error ? `\n${lastError.stack ?? lastError.message}` : ''
    baseline = await fingerprint()
    throw new Error(printable(`${response.status} for ${describeSample(sample)}\nbody: ${cut(text, 500)}${cause}`))
  }
  if (response.status < 400) {
    await response.body?.cancel()
    await repairAfterSuccess(operation, sample)
    baseline = await fingerprint()
    return
  }
  const bodyCheck = checkErrorBody(response, sample, url)
  const after = await fingerprint()
  const changed = changedTables(baseline, after)
  baseline = after
  await bodyCheck
  if (changed.length) throw new Error(`refused with ${response.status} but changed ${changed.join(', ')}: ${describeSample(sample)}`)
}

// ---------------------------------------------------------------------------------------------
// The public pages' form actions, called as React Router calls them (the test app has no page
// renderer) once the app's request guard let the request through. An error the action throws,
// other than a Response, would be a 500 page.

type PageAction = (args: { request: Request; params: Record<string, string>; context: PageContext }) => unknown
const pageForms: { path: string; action: PageAction; fields: Record<string, string[]> }[] = [
  {
    path: '/auth',
    action: authAction as unknown as PageAction,
    fields: { intent: ['signup', 'login'], email: [victim.email], password: [victim.password], fullName: ['Form Person'] },
  },
  {
    path: '/services',
    action: servicesAction as unknown as PageAction,
    fields: { name: ['Ada'], email: ['ada@example.com'], projectType: ['data-scraping', 'other'], message: ['Please help'], website: [''] },
  },
  {
    path: '/contact',
    action: contactAction as unknown as PageAction,
    fields: { name: ['Ada'], email: ['ada@example.com'], subject: ['Hello'], message: ['Please help'], website: [''] },
  },
  {
    path: '/forgot-password',
    action: forgotPasswordAction as unknown as PageAction,
    fields: { email: [victim.email, 'nobody@example.com'] },
  },
  {
    path: '/reset-password',
    action: resetPasswordAction as unknown as PageAction,
    fields: { token: ['abc'], newPassword: ['new-password-123'], confirmPassword: ['new-password-123'] },
  },
  {
    path: '/preferences',
    action: preferencesAction as unknown as PageAction,
    fields: {
      theme: ['light', 'dark', 'system'],
      consent: ['accepted', 'rejected'],
      returnTo: ['/blog', '//evil.example', 'javascript:x'],
    },
  },
]

/** The status React Router would answer with: a Response's, data()'s init, or 200. */
function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status
  const init = (result as { init?: { status?: number } } | null)?.init
  return init?.status ?? 200
}

/**
 * The app's body limit and request guard in front of one page action, as server/app.ts puts them
 * before the pages: the action reads the (possibly refused) body itself, and answerRefusedBody
 * turns a refused body that was read into the guard's answer.
 */
function pageApp(form: (typeof pageForms)[number], ip: string, failures: string[]) {
  return new Hono<AppEnv>()
    .use(bodyLimit())
    .use(requestGuard())
    .all('*', answerRefusedBody(), async (c) => {
      const reported: unknown[] = []
      const context: PageContext = {
        services: t.services,
        user: null,
        credential: null,
        cspNonce: 'nonce',
        clientIp: ip,
        publicUrl: 'http://localhost:3000',
        reportError: (error) => reported.push(error),
      }
      let status: number
      try {
        status = statusOf(await form.action({ request: c.req.raw, params: {}, context }))
      } catch (error) {
        if (error instanceof Response) status = error.status
        else {
          // A refused body the action tried to read: answerRefusedBody answers for it.
          if (!c.get('refusedBody')?.read)
            failures.push(`action threw (a 500 page): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
          status = 500
        }
      }
      if (status >= 500 && !c.get('refusedBody')?.read) {
        failures.push(...reported.map((error) => (error instanceof Error ? (error.stack ?? error.message) : String(error))))
      }
      return c.body(null, status as 200)
    })
}

async function checkPageForm(form: (typeof pageForms)[number], sample: PageForm) {
  const headers = new Headers({ 'x-forwarded-for': sample.ip })
  if (sample.contentType) headers.set('content-type', sample.contentType)
  const failures: string[] = []
  const response = await pageApp(form, sample.ip, failures).request(
    new Request(`http://localhost:3000${form.path}?index`, { method: 'POST', headers, body: sample.body }),
  )
  const status = response.status
  await response.body?.cancel()
  if (status >= 500) {
    baseline = await fingerprint()
    throw new Error(printable(`${status} for POST ${form.path} ${sample.describe}\n${failures.join('\n')}`))
  }
  const after = await fingerprint()
  const changed = status >= 400 ? changedTables(baseline, after) : []
  baseline = after
  if (changed.length) throw new Error(`refused with ${status} but changed ${changed.join(', ')}: POST ${form.path} ${sample.describe}`)
}

describe('every request schema holds up against hostile requests', () => {
  it('reads the operations from /api/openapi.json', () => {
    expect(operations.length).toBeGreaterThan(40)
    expect(operations.filter((operation) => operation.bodySchema).length).toBeGreaterThan(15)
    expect(realIds.length).toBe(6)
  })

  it('the fingerprint notices a change', async () => {
    const before = await fingerprint()
    const response = await t.request('/api/contact', {
      body: { name: 'Probe', email: 'probe@example.com', message: 'Fingerprint probe' },
      ip: t.freshIp(),
    })
    expect(response.status).toBe(201)
    baseline = await fingerprint()
    expect(changedTables(before, baseline)).toContain('service_inquiries')
  })

  describe.each(operations.map((operation) => [operation.key, operation] as const))('%s', (_key, operation) => {
    it(
      'never answers 5xx; a refusal changes no data and is a JSON error',
      async () => {
        await fc.assert(
          fc.asyncProperty(sampleFor(operation), (sample) => check(operation, sample)),
          { numRuns: RUNS_PER_OPERATION },
        )
      },
      OPERATION_TIMEOUT_MS,
    )
  })

  describe.each(pageForms.map((form) => [form.path, form] as const))('page form POST %s', (_path, form) => {
    it.each(['form', 'not-a-form'] as const)(
      'never fails with a 500 and a refusal changes no data (%s body)',
      async (kind) => {
        await fc.assert(
          fc.asyncProperty(formFor(form.fields, kind), (sample) => checkPageForm(form, sample)),
          { numRuns: RUNS_PER_OPERATION },
        )
      },
      OPERATION_TIMEOUT_MS,
    )
  })

  it('reached the handlers, not only the validators', () => {
    const statuses = [...tally.values()].flatMap((counts) => [...counts.keys()])
    expect(statuses.some((status) => status < 300)).toBe(true)
    expect(statuses).toContain(400)
    expect(statuses).toContain(401)
  })
})
