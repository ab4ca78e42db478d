import { strToU8, zipSync } from 'fflate'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  automationRuns,
  automationTriggers,
  dataExports,
  webhookDeliveries,
  webhookEndpoints,
  workspaces,
} from '#server/db/schema/index.ts'
import { EXTRACTED_JSON } from '#server/artifact-links.ts'
import { createSecretBox, newMessageId, newWebhookSecret } from '#server/features/webhooks/webhook-signing.ts'
import { signPaddleBody } from '#server/features/billing/paddle-signature.ts'
import { createTestApp, sessionCookie, TEST_AUTH_SECRET, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { paddleSubscriptionOf, paymentOf } from '#server/testing/billing-fixtures.ts'
import { startFakePaddleApi, type FakePaddleApi } from '#server/testing/fake-paddle-api.ts'
import { startPracticeSites, type PracticeSites } from '#server/testing/practice-sites.ts'
import { createSoftwareAuthenticator } from '#server/testing/software-authenticator.ts'
import { enableTwoFactor, totpCode } from '#server/testing/totp.ts'
import { DOCUMENTED, keyOf, ROLES, UNDOCUMENTED, type Role, type RouteExpectation } from '#server/testing/authorization-expectations.ts'

// The authorisation matrix (issue 7): every /api route and method of authorization-expectations.ts,
// called as a visitor, the member who owns the resources in the path, another member and an admin,
// on one app and database. Each call that changes something gets resources of its own, so the
// order of the rows and roles does not matter.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Credentials = { token?: string; cookie?: string }
type Access =
  | 'anyone'
  | {
      who: 'member' | 'admin'
      apiKey: string
      workspaceRole?: string
      deviceOnly?: true
      whenQuery?: { name: string; value: string; rule: { who: string; apiKey: string; workspaceRole?: string } }
    }
type OpenApiDocument = { servers: { url: string }[]; paths: Record<string, Record<string, { 'x-access'?: Access }>> }

interface Call {
  /** The concrete path under /api, with its query. */
  path: string
  /** JSON (an object), a raw string, or bytes (with their content-type in `headers`). */
  body?: unknown
  form?: FormData
  headers?: Record<string, string>
  /** The client address; a fixed one per role unless a rate-limited route needs a fresh one. */
  ip?: string
  /** Instead of the role's own session (null: none at all). */
  credentials?: Credentials | null
  /** A server-sent event stream or other streamed answer: only the status is read. */
  stream?: boolean
  /** Ids that the row's blind roles must not see in a successful answer, and everyone else must. */
  private?: string[]
  /** The answer must not start a session (no live auth_session cookie). */
  signsNobodyIn?: boolean
  /** Runs after the call (to sign a role in again after its password changed). */
  after?: (response: Response) => Promise<void>
}

const WEBHOOK_SECRET = 'pdl_ntfset_01_authorization_matrix_secret'
const PASSWORD = 'correct-horse-battery'
const SCREENSHOT = 'step-1-1.png'
const KEPT_FILE = 'file-1-1'
const STEPS = [
  { type: 'navigate', url: 'https://example.com/form' },
  { type: 'extract', selector: '#result', field: 'result' },
]
const TEMPLATE = {
  category: 'monitoring',
  inputs: [{ name: 'start_url', label: 'Page', example: 'https://example.com/' }],
  steps: [{ type: 'navigate', url: '{{start_url}}' }, { type: 'screenshot' }],
}
/** The matrix sends thousands of requests a minute per account; the rate limit has its own tests. */
const RATE_LIMIT = 10_000
const TEMPLATE_USE = { inputs: { start_url: 'https://example.com/status' } }
const ROLE_IP: Record<Role, string> = {
  visitor: '203.0.113.21',
  member: '203.0.113.22',
  otherMember: '203.0.113.23',
  admin: '203.0.113.24',
}

let t: TestApp
let sites: PracticeSites
/** Paddle's API, stood in for on loopback: the billing rows ask it for portal and invoice links. */
let paddle: FakePaddleApi
/** The member's paid payment (with a Paddle subscription): its invoice is what the billing rows ask for. */
let memberPaymentId: string
let accounts: Record<Exclude<Role, 'visitor'>, Account>
/** The account the visitor signs in with (POST /auth/login). */
let spare: Account
let fixtures: {
  automationId: string
  runId: string
  keyId: string
  published: { id: string; slug: string }
  draft: { id: string; slug: string }
  editPostId: string
  inquiryId: string
  editUserId: string
  planId: string
  resetUserId: string
  template: string
  draftTemplate: string
  advancedTemplate: string
  webhook: { endpointId: string; deliveryId: string }
  secretId: string
  deviceId: string
}
/** Each signed-in role's own API key (the default scope, automations), made with its session. */
let apiKeys: Record<Exclude<Role, 'visitor'>, string>
/** The admin's key with every scope, the admin ones included. */
let adminScopedKey: string
/** Each signed-in role's own connected device (docs/decisions/031), in its personal workspace. */
let deviceTokens: Record<Exclude<Role, 'visitor'>, string>
/** The member's local runner, paired when a row first needs an automation on it. */
let memberRunner: { id: string; token: string } | undefined
/** An account on Business whose approvals the pairing rows use (no device limit). */
let pairer: Account
/** Authenticators of an account that signs in with a passkey and of the member (docs/decisions/023). */
const passkeyDevice = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
const memberDevice = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`

/** The member signs in with the cookie (as the browser does); the others with a bearer token. */
function credentialsOf(role: Role): Credentials | null {
  if (role === 'visitor') return null
  const account = accounts[role]
  return role === 'member' ? { cookie: account.cookie } : { token: account.token }
}

function send(role: Role, method: string, call: Call): Promise<Response> {
  const headers = new Headers(call.headers)
  headers.set('x-forwarded-for', call.ip ?? ROLE_IP[role])
  const credentials = call.credentials === undefined ? credentialsOf(role) : call.credentials
  if (credentials?.token) headers.set('authorization', `Bearer ${credentials.token}`)
  if (credentials?.cookie) {
    headers.set('cookie', credentials.cookie)
    if (method !== 'GET' && !headers.has('origin')) headers.set('origin', TEST_PUBLIC_URL)
  }
  let body: BodyInit | undefined
  if (call.form) body = call.form
  else if (call.body instanceof Uint8Array) body = call.body as Uint8Array<ArrayBuffer>
  else if (call.body !== undefined) {
    body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return Promise.resolve(t.app.request(`/api${call.path}`, { method, headers, body }))
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text) as T
}

/** A new session of an account: a cookie for the member, a bearer token for the others. */
async function signIn(account: Account): Promise<{ token: string; cookie: string }> {
  const response = await send('visitor', 'POST', {
    path: '/auth/login',
    body: { email: account.email, password: account.password },
    ip: t.freshIp(),
  })
  const { data } = await json<{ data: { token: string } }>(response, 200)
  return { token: data.token, cookie: sessionCookie(response) }
}

async function freshSession(role: Exclude<Role, 'visitor'>): Promise<Credentials> {
  const session = await signIn(accounts[role])
  return role === 'member' ? { cookie: session.cookie } : { token: session.token }
}

/** The passkey challenge cookie a ceremony's first call set. */
function challengeOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('better-auth.passkey_challenge='))
  if (!cookie) throw new Error('no passkey challenge cookie was set')
  return cookie.split(';')[0] ?? ''
}

/** A call that sends a passkey challenge cookie back, beside the role's own credentials. */
function withChallenge(role: Role, challenge: string, call: Call): Call {
  if (role === 'member') return { ...call, credentials: { cookie: `${accounts.member.cookie}; ${challenge}` } }
  return { ...call, headers: { ...call.headers, cookie: challenge } }
}

/** A fresh account's credentials, used as a role's own for rows that change how an account signs in. */
const asRole = (role: Role, account: { token: string; cookie: string }): Credentials | null =>
  role === 'visitor' ? null : role === 'member' ? { cookie: account.cookie } : { token: account.token }

/** Resources the member owns or the admin manages, made through the API as their owner would. */
const make = {
  async automation(): Promise<string> {
    const response = await send('member', 'POST', { path: '/automations', body: { name: unique('Matrix automation'), steps: STEPS } })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** An automation whose steps go through rows of data. */
  async rowsAutomation(): Promise<string> {
    const steps = [{ type: 'forEachRow' }, { type: 'navigate', url: 'https://example.com/{{row.page}}' }, { type: 'end' }]
    const response = await send('member', 'POST', { path: '/automations', body: { name: unique('Matrix rows automation'), steps } })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** A fresh automation of the member's with a file kept: the file's path. */
  async automationFile(): Promise<string> {
    const path = `/automations/${await make.automation()}/files/kept.txt`
    const response = await send('member', 'PUT', { path, body: 'kept', headers: { 'content-type': 'text/plain' } })
    await json(response, 200)
    return path
  },
  async clientRun(automationId: string): Promise<string> {
    const response = await send('member', 'POST', { path: `/automations/${automationId}/runs`, body: { where: 'client' } })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** A cloud run a worker has taken up (set so directly: no worker runs here), to watch live. */
  async runningCloudRun(): Promise<string> {
    const response = await send('member', 'POST', { path: `/automations/${fixtures.automationId}/runs`, body: { where: 'cloud' } })
    const id = (await json<{ data: { id: string } }>(response, 201)).data.id
    await t.db.update(automationRuns).set({ status: 'running', startedAt: new Date() }).where(eq(automationRuns.id, id))
    return id
  },
  /** A running cloud run waiting for a person (set so directly), to act for. */
  async waitingCloudRun(): Promise<string> {
    const id = await make.runningCloudRun()
    const since = new Date()
    const waiting = {
      message: 'Type the code',
      step: 1,
      since: since.toISOString(),
      until: new Date(since.getTime() + 60_000).toISOString(),
    }
    await t.db.update(automationRuns).set({ waiting }).where(eq(automationRuns.id, id))
    return id
  },
  /** A client run the member's own device started, and so runs. */
  async deviceRun(automationId: string): Promise<string> {
    const response = await send('member', 'POST', {
      path: `/automations/${automationId}/runs`,
      body: { where: 'client' },
      credentials: viaDevice('member'),
    })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** A trigger URL for the member's automation (replacing any), written as the service stores it; its secret. */
  async trigger(automationId: string): Promise<string> {
    const secret = `trg_${randomBytes(24).toString('base64url')}`
    const row = { secretHash: createHash('sha256').update(secret).digest('hex'), hint: secret.slice(-4) }
    await t.db
      .insert(automationTriggers)
      .values({ ...row, automationId, workspaceId: accounts.member.id, createdBy: accounts.member.id })
      .onConflictDoUpdate({ target: automationTriggers.automationId, set: row })
    return secret
  },
  /** A client run that failed at its second step, to resume or run again. */
  async failedRun(): Promise<string> {
    const runId = await make.clientRun(fixtures.automationId)
    await send('member', 'POST', { path: `/runs/${runId}/finish`, body: { status: 'failed', error: 'Step 2 (extract): nothing found' } })
    return runId
  },
  /** A run of a fresh automation whose step 2 was repaired, as a cloud run records it. */
  async repairedRun(): Promise<string> {
    const runId = await make.clientRun(await make.automation())
    const repair = {
      step: 2,
      failed: { by: 'css', selector: '#result' },
      used: { by: 'text', text: 'Result' },
      how: 'similar',
      at: new Date().toISOString(),
    } as const
    await t.db
      .update(automationRuns)
      .set({ repairs: [repair] })
      .where(eq(automationRuns.id, runId))
    return runId
  },
  /** A fresh automation that waits 3 s before a click, and the suggestion to wait for the element instead. */
  async suggestion(): Promise<{ automationId: string; suggestionId: string }> {
    const steps = [
      { type: 'navigate', url: 'https://example.com/form' },
      { type: 'wait', ms: 3000 },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
    ]
    const created = await send('member', 'POST', { path: '/automations', body: { name: unique('Matrix suggestion'), steps } })
    const automationId = (await json<{ data: { id: string } }>(created, 201)).data.id
    const listed = await send('member', 'GET', { path: `/automations/${automationId}/suggestions` })
    const suggestions = (await json<{ data: { id: string; kind: string }[] }>(listed, 200)).data
    const suggestionId = suggestions.find((suggestion) => suggestion.kind === 'fixed-wait')?.id
    if (!suggestionId) throw new Error('no fixed-wait suggestion')
    return { automationId, suggestionId }
  },
  async secret(): Promise<string> {
    const response = await send('member', 'POST', {
      path: '/vault',
      body: { name: unique('matrix_secret').replace(/\W/g, '_'), value: 'matrix', origins: ['https://matrix.example.com'] },
    })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** A pairing asked for with no credential and approved by the account (the /connect page calls the same service). */
  async approvedPairing(account: Account, kind: 'extension' | 'runner' = 'extension'): Promise<{ pairingId: string; pollSecret: string }> {
    const asked = await send('visitor', 'POST', {
      path: '/devices/pairings',
      body: { name: unique('Matrix device'), kind, version: '1.0.0' },
      ip: t.freshIp(),
    })
    const pairing = (await json<{ data: { pairingId: string; userCode: string; pollSecret: string } }>(asked, 201)).data
    await t.services.pairings.approve(
      pairing.userCode,
      { id: account.id, email: account.email, twoFactorEnabled: false },
      account.id,
      t.freshIp(),
    )
    return pairing
  },
  /** A device of the account's personal workspace, connected through the whole pairing flow. */
  async device(account: Account, kind: 'extension' | 'runner' = 'extension'): Promise<{ id: string; token: string }> {
    const { pairingId, pollSecret } = await make.approvedPairing(account, kind)
    const collected = await send('visitor', 'POST', { path: `/devices/pairings/${pairingId}/token`, body: { pollSecret } })
    const { data } = await json<{ data: { token: string; device: { id: string } } }>(collected, 200)
    return { id: data.device.id, token: data.token }
  },
  /** A fresh automation of the member's, set to run on their local runner (so version 1 is approved: they saved it). */
  async runnerAutomation(): Promise<string> {
    memberRunner ??= await make.device(accounts.member, 'runner')
    const response = await send('member', 'POST', {
      path: '/automations',
      body: { name: unique('Matrix runner automation'), steps: STEPS, deviceId: memberRunner.id },
    })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  async key(): Promise<string> {
    const response = await send('member', 'POST', { path: '/keys', body: { name: unique('Matrix key') } })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  async post(status: 'draft' | 'published' = 'draft'): Promise<{ id: string; slug: string }> {
    const response = await send('admin', 'POST', { path: '/blog', body: { title: unique('Matrix post'), status } })
    return (await json<{ data: { id: string; slug: string } }>(response, 201)).data
  },
  async inquiry(): Promise<string> {
    const response = await send('visitor', 'POST', { path: '/contact', body: inquiryBody(), ip: t.freshIp() })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  async template(fields: Record<string, unknown> = {}): Promise<string> {
    const body = { ...TEMPLATE, name: unique('Matrix template'), ...fields }
    return (await json<{ data: { id: string } }>(await send('admin', 'POST', { path: '/templates', body }), 201)).data.id
  },
  /** A passkey of the member's, added with a software authenticator. */
  async passkey(): Promise<string> {
    const started = await send('member', 'POST', {
      path: '/auth/passkeys/options',
      body: { name: 'Matrix', password: accounts.member.password },
    })
    const options = (await json<{ data: Record<string, unknown> }>(started, 200)).data
    const call = withChallenge('member', challengeOf(started), {
      path: '/auth/passkeys',
      body: { name: unique('Matrix passkey'), response: memberDevice.create(options) },
    })
    return (await json<{ data: { id: string } }>(await send('member', 'POST', call), 201)).data.id
  },
  /** A new account with two-factor on. */
  async twoFactorAccount(): Promise<Account> {
    const account = await t.signUp({ password: PASSWORD })
    await enableTwoFactor(t, account)
    return account
  },
  /**
   * An endpoint of the member's workspace with one logged delivery, written directly: the member's
   * plan (Pro) has no webhooks, as the POST /webhooks rows show. Its URL is a closed loopback port.
   */
  async webhook(): Promise<{ endpointId: string; deliveryId: string }> {
    const [endpoint] = await t.db
      .insert(webhookEndpoints)
      .values({
        workspaceId: accounts.member.id,
        url: 'http://127.0.0.1:9/matrix-hook',
        events: ['run.failed'],
        secretSealed: createSecretBox(TEST_AUTH_SECRET).seal(newWebhookSecret()),
      })
      .returning()
    if (!endpoint) throw new Error('no endpoint')
    const [delivery] = await t.db
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.id,
        workspaceId: accounts.member.id,
        messageId: newMessageId(),
        eventType: 'run.failed',
        body: '{}',
        status: 'failed',
      })
      .returning()
    if (!delivery) throw new Error('no delivery')
    return { endpointId: endpoint.id, deliveryId: delivery.id }
  },
  async user(): Promise<string> {
    const body = { email: `${unique('matrix-user')}@example.com`, password: PASSWORD, role: 'user' }
    const response = await send('admin', 'POST', { path: '/users', body })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
  /** The cookies of a browser in which the admin views the app as a fresh member (docs/decisions/064). */
  async viewing(): Promise<string> {
    const response = await send('admin', 'POST', { path: `/users/${await make.user()}/view-as`, body: { reason: 'Matrix view' } })
    await json(response, 200)
    return response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
  },
  /**
   * The signed link (under /api) of a ready data export of the account's, made two days ago so that
   * the account may still ask for a new one (docs/decisions/065).
   */
  async exportLink(account: Account): Promise<string> {
    const madeAt = new Date(Date.now() - 2 * 24 * 3_600_000)
    const [row] = await t.db
      .insert(dataExports)
      .values({
        userId: account.id,
        status: 'ready',
        createdAt: madeAt,
        readyAt: madeAt,
        expiresAt: new Date(Date.now() + 3_600_000),
        bytes: 1,
      })
      .returning()
    if (!row) throw new Error('no export')
    await mkdir(path.join(t.dataDir, 'exports'), { recursive: true })
    await writeFile(path.join(t.dataDir, 'exports', `${row.id}.zip`), zipSync({ 'data.json': strToU8('{}') }))
    const link = new URL(t.services.dataExports.view(row).apiUrl ?? '')
    return `${link.pathname.replace(/^\/api/, '')}${link.search}`
  },
  /** A fresh member an admin has suspended. */
  async suspendedUser(): Promise<string> {
    const id = await make.user()
    await json(await send('admin', 'POST', { path: `/users/${id}/suspend`, body: { reason: 'Matrix suspension' } }), 200)
    return id
  },
  async plan(): Promise<string> {
    const response = await send('admin', 'POST', { path: '/plans', body: { name: unique('Matrix plan'), price: 7 } })
    return (await json<{ data: { id: string } }>(response, 201)).data.id
  },
}

const inquiryBody = () => ({
  name: 'Matrix Client',
  email: 'client@example.com',
  projectType: 'data-scraping',
  message: 'Collect prices from three shops.',
})

function pngBytes(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(64)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

function pngForm(): FormData {
  const form = new FormData()
  form.append('file', new Blob([pngBytes()], { type: 'image/png' }), 'cover.png')
  return form
}

function paddleDelivery(signed: boolean): Call {
  const raw = JSON.stringify({
    event_id: unique('evt_matrix'),
    event_type: 'customer.updated',
    occurred_at: new Date().toISOString(),
    data: { id: 'ctm_matrix' },
  })
  return { path: '/webhooks/paddle', body: raw, headers: signed ? { 'paddle-signature': signPaddleBody(raw, WEBHOOK_SECRET) } : {} }
}

const accountOf = (role: Role): Account => (role === 'visitor' ? spare : accounts[role])
/** The role's API key instead of its session (a visitor has none). */
const viaApiKey = (role: Role): Credentials | null => (role === 'visitor' ? null : { token: apiKeys[role] })
/** The admin's key with the admin scopes; members, who cannot have those, use their default key. */
const viaAdminScopedKey = (role: Role): Credentials | null => (role === 'admin' ? { token: adminScopedKey } : viaApiKey(role))
/** The role's own connected device instead of its session. */
const viaDevice = (role: Role): Credentials | null => (role === 'visitor' ? null : { token: deviceTokens[role] })

/** A JSON-RPC request to the MCP server, as an MCP client sends it. */
const mcpCall = (): Call => ({
  path: '/mcp',
  body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  headers: { accept: 'application/json, text/event-stream' },
})

/** One valid request per row, keyed as keyOf(row); called once per role. */
const requests: Record<string, (role: Role) => Call | Promise<Call>> = {
  'GET /health': () => ({ path: '/health' }),

  'GET /runs/{id}/artifacts/{file}': () => {
    const link = new URL(t.services.artifactLinks.link(fixtures.runId, EXTRACTED_JSON, new Date(Date.now() + 3_600_000)))
    return { path: `${link.pathname.replace(/^\/api/, '')}${link.search}` }
  },
  'GET /runs/{id}/artifacts/{file} [unsigned]': () => ({ path: `/runs/${fixtures.runId}/artifacts/${EXTRACTED_JSON}` }),
  'GET /webhooks': () => ({ path: '/webhooks', private: [fixtures.webhook.endpointId] }),
  'POST /webhooks': () => ({ path: '/webhooks', body: { url: 'https://93.184.215.14/hook', events: ['run.failed'] } }),
  'POST /hooks': () => ({ path: '/hooks', body: { target_url: 'https://93.184.215.14/hook', event: 'run.failed' } }),
  'DELETE /hooks/{id}': async () => ({ path: `/hooks/${(await make.webhook()).endpointId}` }),
  'GET /hooks/samples/{event}': () => ({ path: '/hooks/samples/run.failed' }),
  'PATCH /webhooks/{id}': () => ({ path: `/webhooks/${fixtures.webhook.endpointId}`, body: { description: unique('Matrix hook') } }),
  'DELETE /webhooks/{id}': async () => ({ path: `/webhooks/${(await make.webhook()).endpointId}` }),
  'POST /webhooks/{id}/rotate-secret': () => ({ path: `/webhooks/${fixtures.webhook.endpointId}/rotate-secret` }),
  'GET /webhooks/{id}/deliveries': () => ({
    path: `/webhooks/${fixtures.webhook.endpointId}/deliveries`,
    private: [fixtures.webhook.deliveryId],
  }),
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver': () => ({
    path: `/webhooks/${fixtures.webhook.endpointId}/deliveries/${fixtures.webhook.deliveryId}/redeliver`,
  }),
  'POST /webhooks/{id}/test': () => ({ path: `/webhooks/${fixtures.webhook.endpointId}/test` }),
  'POST /webhooks/paddle': () => paddleDelivery(true),
  'POST /webhooks/paddle [unsigned]': () => paddleDelivery(false),

  'POST /auth/register': () => ({
    path: '/auth/register',
    body: { email: `${unique('matrix-register')}@example.com`, password: PASSWORD },
    ip: t.freshIp(),
  }),
  'POST /auth/login': (role) => ({
    path: '/auth/login',
    body: { email: accountOf(role).email, password: accountOf(role).password },
    ip: t.freshIp(),
  }),
  'POST /auth/logout': async (role) =>
    role === 'visitor' ? { path: '/auth/logout' } : { path: '/auth/logout', credentials: await freshSession(role) },
  'GET /auth/me': () => ({ path: '/auth/me' }),
  'GET /auth/me [API key]': (role) => ({ path: '/auth/me', credentials: viaApiKey(role) }),
  'PUT /auth/profile': () => ({ path: '/auth/profile', body: { fullName: 'Matrix Tester' } }),
  'PUT /auth/change-password': (role) => {
    const account = accountOf(role)
    const newPassword = unique('changed-password')
    return {
      path: '/auth/change-password',
      // The keys stay: the API key rows use them (revoking them is tested in auth.api.test.ts).
      body: { currentPassword: account.password, newPassword, revokeApiKeys: false },
      after: async (response) => {
        if (role === 'visitor' || response.status !== 200) return
        // Every session of the account ended: sign the role in again with the new password.
        account.password = newPassword
        Object.assign(account, await signIn(account))
      },
    }
  },

  'PUT /auth/change-password [API key]': (role) => ({
    path: '/auth/change-password',
    body: { currentPassword: accountOf(role).password, newPassword: 'taken-over-password' },
    credentials: viaApiKey(role),
  }),

  'POST /auth/login/second-factor': async () => {
    // An account per call: each code works once, and every role sends the current one.
    const account = await t.signUp({ password: PASSWORD })
    const { secret } = await enableTwoFactor(t, account)
    const login = await send('visitor', 'POST', {
      path: '/auth/login',
      body: { email: account.email, password: account.password },
      ip: t.freshIp(),
    })
    const { data } = await json<{ data: { ticket: string } }>(login, 401)
    return { path: '/auth/login/second-factor', body: { ticket: data.ticket, code: totpCode(secret) }, ip: t.freshIp() }
  },
  'GET /auth/two-factor': () => ({ path: '/auth/two-factor' }),
  'POST /auth/two-factor/setup': (role) => ({ path: '/auth/two-factor/setup', body: { password: accountOf(role).password } }),
  'POST /auth/two-factor/setup [API key]': (role) => ({
    path: '/auth/two-factor/setup',
    body: { password: accountOf(role).password },
    credentials: viaApiKey(role),
  }),
  'POST /auth/two-factor/confirm': async (role) => {
    if (role === 'visitor') return { path: '/auth/two-factor/confirm', body: { code: '123456' } }
    const fresh = await t.signUp({ password: PASSWORD })
    const setup = await t.request('/api/auth/two-factor/setup', { token: fresh.token, body: { password: PASSWORD } })
    const { secret } = (await json<{ data: { secret: string } }>(setup, 200)).data
    return { path: '/auth/two-factor/confirm', body: { code: totpCode(secret) }, credentials: asRole(role, fresh) }
  },
  'POST /auth/two-factor/recovery-codes': async (role) => ({
    path: '/auth/two-factor/recovery-codes',
    body: { password: PASSWORD },
    credentials: role === 'visitor' ? null : asRole(role, await make.twoFactorAccount()),
  }),
  'POST /auth/two-factor/disable': async (role) => ({
    path: '/auth/two-factor/disable',
    body: { password: PASSWORD },
    credentials: role === 'visitor' ? null : asRole(role, await make.twoFactorAccount()),
  }),
  'GET /auth/passkeys': () => ({ path: '/auth/passkeys' }),
  'POST /auth/passkeys/options': (role) => ({
    path: '/auth/passkeys/options',
    body: { name: 'Matrix passkey', password: accountOf(role).password },
  }),
  'POST /auth/passkeys': async (role) => {
    if (role === 'visitor') return { path: '/auth/passkeys', body: { name: 'Matrix passkey', response: {} } }
    const started = await send(role, 'POST', {
      path: '/auth/passkeys/options',
      body: { name: 'Matrix', password: accountOf(role).password },
    })
    const options = (await json<{ data: Record<string, unknown> }>(started, 200)).data
    const device = createSoftwareAuthenticator({ origin: TEST_PUBLIC_URL })
    return withChallenge(role, challengeOf(started), {
      path: '/auth/passkeys',
      body: { name: 'Matrix passkey', response: device.create(options) },
    })
  },
  'DELETE /auth/passkeys/{id}': async () => ({ path: `/auth/passkeys/${await make.passkey()}` }),
  'POST /auth/login/passkey/options': () => ({ path: '/auth/login/passkey/options', ip: t.freshIp() }),
  'POST /auth/login/passkey': async (role) => {
    const ip = t.freshIp()
    const started = await send('visitor', 'POST', { path: '/auth/login/passkey/options', ip })
    const options = (await json<{ data: Record<string, unknown> }>(started, 200)).data
    return withChallenge(role, challengeOf(started), { path: '/auth/login/passkey', body: { response: passkeyDevice.get(options) }, ip })
  },

  'GET /plans': () => ({ path: '/plans' }),
  'GET /plans/all': () => ({ path: '/plans/all' }),
  'POST /plans': () => ({ path: '/plans', body: { name: unique('Matrix plan'), price: 7 } }),
  'PATCH /plans/{id}': () => ({ path: `/plans/${fixtures.planId}`, body: { description: 'Changed by the matrix' } }),
  'DELETE /plans/{id}': async () => ({ path: `/plans/${await make.plan()}` }),

  'POST /billing/portal': () => ({ path: '/billing/portal' }),
  'POST /account/export': () => ({ path: '/account/export' }),
  'GET /account/export': () => ({ path: '/account/export' }),
  'GET /account/export/{id}/download': async (role) => ({ path: await make.exportLink(accountOf(role)), stream: true }),
  "GET /account/export/{id}/download [the member's link]": async () => ({ path: await make.exportLink(accounts.member), stream: true }),
  // A fresh account of the role's kind, so that the roles themselves are not deleted.
  'POST /account/deletion': async (role) => {
    if (role === 'visitor') return { path: '/account/deletion', body: { password: PASSWORD } }
    const fresh = await t.signUp({ password: PASSWORD, role: role === 'admin' ? 'admin' : 'user' })
    return {
      path: '/account/deletion',
      body: { password: PASSWORD },
      credentials: role === 'member' ? { cookie: fresh.cookie } : { token: fresh.token },
    }
  },
  'POST /account/deletion [API key]': (role) => ({
    path: '/account/deletion',
    body: { password: accountOf(role).password },
    credentials: viaApiKey(role),
  }),
  'GET /billing/invoices/{paymentId}': () => ({ path: `/billing/invoices/${memberPaymentId}` }),

  'GET /users': () => ({ path: '/users?page=1&limit=5' }),
  'POST /users': () => ({ path: '/users', body: { email: `${unique('made-by-admin')}@example.com`, password: PASSWORD, role: 'user' } }),
  'GET /users/{id}': () => ({ path: `/users/${accounts.member.id}` }),
  'PUT /users/{id}': () => ({ path: `/users/${fixtures.editUserId}`, body: { credits: 12 } }),
  'DELETE /users/{id}': async () => ({ path: `/users/${await make.user()}` }),
  'POST /users/{id}/reset-password': () => ({
    path: `/users/${fixtures.resetUserId}/reset-password`,
    body: { newPassword: 'brand-new-password' },
  }),
  'POST /users/{id}/reset-two-factor': () => ({ path: `/users/${fixtures.resetUserId}/reset-two-factor` }),
  'POST /users/{id}/sign-out': () => ({ path: `/users/${fixtures.resetUserId}/sign-out` }),
  'POST /users/{id}/verification-email': async () => ({ path: `/users/${await make.user()}/verification-email` }),
  'POST /users/{id}/suspend': async () => ({ path: `/users/${await make.user()}/suspend`, body: { reason: 'Matrix check' } }),
  'POST /users/{id}/unsuspend': async () => ({ path: `/users/${await make.suspendedUser()}/unsuspend` }),
  'POST /users/{id}/suspend [admin-scoped API key]': async (role) => ({
    path: `/users/${await make.user()}/suspend`,
    body: { reason: 'Matrix check by key' },
    credentials: viaAdminScopedKey(role),
  }),
  'POST /users/{id}/view-as': async () => ({ path: `/users/${await make.user()}/view-as`, body: { reason: 'Matrix check' } }),
  'POST /users/{id}/view-as [admin-scoped API key]': async (role) => ({
    path: `/users/${await make.user()}/view-as`,
    body: { reason: 'Matrix check by key' },
    credentials: viaAdminScopedKey(role),
  }),
  'POST /auth/view-as/end': () => ({ path: '/auth/view-as/end' }),
  'POST /auth/view-as/end [viewing]': async () => ({ path: '/auth/view-as/end', credentials: { cookie: await make.viewing() } }),
  'GET /users/{id}/timeline': () => ({ path: `/users/${accounts.member.id}/timeline` }),
  'GET /users/{id}/timeline [admin-scoped API key]': (role) => ({
    path: `/users/${accounts.member.id}/timeline`,
    credentials: viaAdminScopedKey(role),
  }),
  'POST /users/{id}/reset-two-factor [admin-scoped API key]': (role) => ({
    path: `/users/${role === 'visitor' ? accounts.admin.id : accounts[role].id}/reset-two-factor`,
    credentials: viaAdminScopedKey(role),
  }),
  'GET /users [admin-scoped API key]': (role) => ({ path: '/users?page=1&limit=5', credentials: viaAdminScopedKey(role) }),
  'GET /users [API key]': (role) => ({ path: '/users?page=1&limit=5', credentials: viaApiKey(role) }),
  'POST /users/{id}/reset-password [admin-scoped API key]': (role) => ({
    path: `/users/${role === 'visitor' ? accounts.admin.id : accounts[role].id}/reset-password`,
    body: { newPassword: 'taken-over-password' },
    credentials: viaAdminScopedKey(role),
  }),
  'POST /users [admin-scoped API key]': (role) => ({
    path: '/users',
    body: { email: `${unique('made-by-key')}@example.com`, password: PASSWORD, role: 'admin' },
    credentials: viaAdminScopedKey(role),
  }),
  'PUT /users/{id} [admin-scoped API key]': (role) => ({
    path: `/users/${fixtures.editUserId}`,
    body: { role: 'admin' },
    credentials: viaAdminScopedKey(role),
  }),

  'POST /contact': () => ({ path: '/contact', body: inquiryBody(), ip: t.freshIp() }),
  'GET /contact': () => ({ path: '/contact?processed=false' }),
  'PUT /contact/{id}': () => ({ path: `/contact/${fixtures.inquiryId}`, body: { processed: true } }),
  'DELETE /contact/{id}': async () => ({ path: `/contact/${await make.inquiry()}` }),

  'GET /blog': () => ({ path: '/blog' }),
  'GET /blog [status=draft]': () => ({ path: '/blog?status=draft&limit=50', private: [fixtures.draft.id] }),
  'GET /blog/tags': () => ({ path: '/blog/tags' }),
  'GET /blog/{slug}': () => ({ path: `/blog/${fixtures.published.slug}` }),
  'GET /blog/{slug} [draft]': () => ({ path: `/blog/${fixtures.draft.slug}` }),
  'POST /blog': () => ({ path: '/blog', body: { title: unique('Matrix post'), tags: 'a, b' } }),
  'POST /blog [admin-scoped API key]': (role) => ({
    path: '/blog',
    body: { title: unique('Matrix post by key') },
    credentials: viaAdminScopedKey(role),
  }),
  'PUT /blog/{id}': () => ({ path: `/blog/${fixtures.editPostId}`, body: { title: 'Edited by the matrix' } }),
  'DELETE /blog/{id}': async () => ({ path: `/blog/${(await make.post()).id}` }),
  'POST /uploads/covers': () => ({ path: '/uploads/covers', form: pngForm() }),
  'POST /ai/generate-blog': () => ({ path: '/ai/generate-blog', body: { title: 'Matrix draft', length: 'short' }, stream: true }),

  'GET /mail/outbox': () => ({ path: '/mail/outbox' }),
  'GET /settings': () => ({ path: '/settings' }),
  'PUT /settings': () => ({
    path: '/settings',
    body: { siteName: 'Aether', description: 'Matrix', defaultCredits: 5, maintenanceMode: false, theme: 'dark', apiRateLimit: RATE_LIMIT },
  }),
  'PUT /settings [admin-scoped API key]': (role) => ({
    path: '/settings',
    body: { siteName: 'Aether', description: 'Matrix', defaultCredits: 5, maintenanceMode: true, theme: 'dark', apiRateLimit: RATE_LIMIT },
    credentials: viaAdminScopedKey(role),
  }),
  'GET /audit': () => ({ path: '/audit?targetType=user' }),
  'GET /overview': () => ({ path: '/overview' }),
  'GET /events/inquiries': () => ({ path: '/events/inquiries', stream: true }),

  'GET /workspaces': () => ({ path: '/workspaces' }),
  'POST /workspaces': () => ({ path: '/workspaces', body: { name: 'Matrix team' } }),
  'GET /workspaces/current': () => ({ path: '/workspaces/current' }),
  'PATCH /workspaces/current': () => ({ path: '/workspaces/current', body: { requireTwoFactor: false } }),
  'DELETE /workspaces/current': () => ({ path: '/workspaces/current' }),
  'GET /workspaces/current/members': () => ({ path: '/workspaces/current/members' }),
  'PATCH /workspaces/current/members/{userId}': () => ({
    path: `/workspaces/current/members/${accounts.member.id}`,
    body: { role: 'viewer' },
  }),
  'DELETE /workspaces/current/members/{userId}': () => ({ path: `/workspaces/current/members/${accounts.otherMember.id}` }),
  'POST /workspaces/current/leave': () => ({ path: '/workspaces/current/leave' }),
  'POST /workspaces/current/transfer': () => ({ path: '/workspaces/current/transfer', body: { userId: accounts.otherMember.id } }),
  'GET /workspaces/current/invitations': () => ({ path: '/workspaces/current/invitations' }),
  'POST /workspaces/current/invitations': () => ({
    path: '/workspaces/current/invitations',
    body: { email: 'matrix-invitee@example.com' },
  }),
  'DELETE /workspaces/current/invitations/{id}': () => ({
    path: '/workspaces/current/invitations/00000000-0000-4000-8000-000000000000',
  }),
  'GET /workspaces/current/activity': () => ({ path: '/workspaces/current/activity' }),
  'POST /workspaces/invitations/accept': () => ({ path: '/workspaces/invitations/accept', body: { token: 'no-such-invitation' } }),

  'GET /templates': () => ({ path: '/templates', private: [fixtures.draftTemplate] }),
  'GET /templates [scope=all]': () => ({ path: '/templates?scope=all', private: [fixtures.draftTemplate] }),
  'GET /templates/{id}': () => ({ path: `/templates/${fixtures.template}` }),
  'GET /templates/{id} [draft]': () => ({ path: `/templates/${fixtures.draftTemplate}` }),
  'POST /templates': () => ({ path: '/templates', body: { ...TEMPLATE, name: unique('Matrix template') } }),
  'POST /templates [admin-scoped API key]': (role) => ({
    path: '/templates',
    body: { ...TEMPLATE, name: unique('Matrix template by key') },
    credentials: viaAdminScopedKey(role),
  }),
  'PUT /templates/{id}': () => ({ path: `/templates/${fixtures.template}`, body: { description: 'Changed by the matrix' } }),
  'DELETE /templates/{id}': async () => ({ path: `/templates/${await make.template()}` }),
  'POST /templates/{id}/use': () => ({ path: `/templates/${fixtures.template}/use`, body: TEMPLATE_USE }),
  'POST /templates/{id}/use [API key]': (role) => ({
    path: `/templates/${fixtures.template}/use`,
    body: TEMPLATE_USE,
    credentials: viaApiKey(role),
  }),
  'POST /templates/{id}/use [advanced]': () => ({ path: `/templates/${fixtures.advancedTemplate}/use`, body: TEMPLATE_USE }),

  'GET /keys': () => ({ path: '/keys', private: [fixtures.keyId] }),
  'GET /keys [API key]': (role) => ({ path: '/keys', private: [fixtures.keyId], credentials: viaApiKey(role) }),
  'POST /keys': () => ({ path: '/keys', body: { name: unique('Matrix key') } }),
  'POST /keys [API key]': (role) => ({ path: '/keys', body: { name: unique('Matrix key') }, credentials: viaApiKey(role) }),
  'DELETE /keys/{id}': async () => ({ path: `/keys/${await make.key()}` }),
  'DELETE /keys/{id} [API key]': async (role) => ({ path: `/keys/${await make.key()}`, credentials: viaApiKey(role) }),

  'POST /devices/pairings': () => ({
    path: '/devices/pairings',
    body: { name: unique('Matrix browser'), kind: 'extension', version: '1.0.0' },
    ip: t.freshIp(),
  }),
  'POST /devices/pairings/{pairingId}/token': () => ({
    path: `/devices/pairings/${randomUUID()}/token`,
    body: { pollSecret: randomBytes(32).toString('base64url') },
  }),
  'POST /devices/pairings/{pairingId}/token [approved]': async () => {
    const { pairingId, pollSecret } = await make.approvedPairing(pairer)
    return { path: `/devices/pairings/${pairingId}/token`, body: { pollSecret } }
  },
  'GET /devices/me': () => ({ path: '/devices/me' }),
  'GET /devices/me [device token]': (role) => ({ path: '/devices/me', credentials: viaDevice(role) }),
  'DELETE /devices/me': () => ({ path: '/devices/me' }),
  // Each call disconnects a fresh device (of an account on Business, where there is room): whose it is does not matter to its own route.
  'DELETE /devices/me [device token]': async (role) => ({
    path: '/devices/me',
    credentials: role === 'visitor' ? null : { token: (await make.device(pairer)).token },
  }),
  'POST /runs/claim': () => ({ path: '/runs/claim', body: {} }),
  'POST /runs/claim [device token]': (role) => ({ path: '/runs/claim', body: {}, credentials: viaDevice(role) }),
  'GET /devices': () => ({ path: '/devices', private: [fixtures.deviceId] }),
  'GET /devices [API key]': (role) => ({ path: '/devices', private: [fixtures.deviceId], credentials: viaApiKey(role) }),
  'GET /devices [device token]': (role) => ({ path: '/devices', credentials: viaDevice(role) }),
  'PATCH /devices/{id}': () => ({ path: `/devices/${fixtures.deviceId}`, body: { name: unique('Matrix device') } }),
  // Only the member's call revokes one; the others are refused, so they need no fresh device.
  'DELETE /devices/{id}': async (role) => ({
    path: `/devices/${role === 'member' ? (await make.device(accounts.member)).id : fixtures.deviceId}`,
  }),
  'DELETE /devices/{id} [device token]': (role) => ({ path: `/devices/${fixtures.deviceId}`, credentials: viaDevice(role) }),

  'GET /vault': () => ({ path: '/vault', private: [fixtures.secretId] }),
  'GET /vault [API key]': (role) => ({ path: '/vault', private: [fixtures.secretId], credentials: viaApiKey(role) }),
  'POST /vault': () => ({
    path: '/vault',
    body: { name: unique('matrix_secret').replace(/\W/g, '_'), kind: 'password', value: 'matrix', origins: ['https://matrix.example.com'] },
  }),
  'POST /vault [API key]': (role) => ({
    path: '/vault',
    body: { name: unique('from_key').replace(/\W/g, '_'), value: 'x', origins: ['https://matrix.example.com'] },
    credentials: viaApiKey(role),
  }),
  'DELETE /automations/{id}/session': () => ({ path: `/automations/${fixtures.automationId}/session` }),
  'PUT /vault/{id}': () => ({ path: `/vault/${fixtures.secretId}`, body: { value: 'matrix-replaced' } }),
  'PATCH /vault/{id}': () => ({ path: `/vault/${fixtures.secretId}`, body: { origins: ['https://matrix.example.com'] } }),
  'DELETE /vault/{id}': async () => ({ path: `/vault/${await make.secret()}` }),

  'GET /automations/steps.schema.json': () => ({ path: '/automations/steps.schema.json' }),
  'GET /automations/automation.schema.json': () => ({ path: '/automations/automation.schema.json' }),
  'GET /automations': () => ({ path: '/automations?limit=100', private: [fixtures.automationId] }),
  'POST /automations': () => ({ path: '/automations', body: { name: unique('Matrix automation'), steps: STEPS } }),
  'POST /automations [API key]': (role) => ({
    path: '/automations',
    body: { name: unique('Matrix automation by key'), steps: STEPS },
    credentials: viaApiKey(role),
  }),
  'GET /automations/{id}': () => ({ path: `/automations/${fixtures.automationId}` }),
  'PUT /automations/{id}': () => ({ path: `/automations/${fixtures.automationId}`, body: { description: 'Changed by the matrix' } }),
  'DELETE /automations/{id}': async () => ({ path: `/automations/${await make.automation()}` }),
  'POST /automations/{id}/duplicate': () => ({ path: `/automations/${fixtures.automationId}/duplicate` }),
  'GET /automations/{id}/rows': () => ({ path: `/automations/${fixtures.automationId}/rows` }),
  'PUT /automations/{id}/rows': async () => ({
    path: `/automations/${await make.rowsAutomation()}/rows`,
    body: { csv: 'page\nabout\ncontact\n', name: 'pages.csv' },
  }),
  'DELETE /automations/{id}/rows': () => ({ path: `/automations/${fixtures.automationId}/rows` }),
  'GET /automations/{id}/files': () => ({ path: `/automations/${fixtures.automationId}/files` }),
  'GET /automations/{id}/files/{name}': async () => ({ path: await make.automationFile() }),
  'PUT /automations/{id}/files/{name}': () => ({
    path: `/automations/${fixtures.automationId}/files/form.pdf`,
    body: '%PDF-1.4 matrix',
    headers: { 'content-type': 'application/pdf' },
  }),
  'DELETE /automations/{id}/files/{name}': async () => ({ path: await make.automationFile() }),
  'POST /automations/{id}/runner-approval': async () => ({
    path: `/automations/${await make.runnerAutomation()}/runner-approval`,
    body: { version: 1 },
  }),
  'POST /automations/inspect': () => ({ path: '/automations/inspect', body: { url: `${sites.url}/original/contact` } }),
  'POST /automations/inspect [API key]': (role) => ({
    path: '/automations/inspect',
    body: { url: `${sites.url}/original/search` },
    credentials: viaApiKey(role),
  }),
  'POST /automations/plan': () => ({ path: '/automations/plan', body: { description: 'take a screenshot', planner: 'offline' } }),
  'POST /automations/plan [API key]': (role) => ({
    path: '/automations/plan',
    body: { description: 'take a screenshot', planner: 'offline' },
    credentials: viaApiKey(role),
  }),
  'GET /automations/{id}/suggestions': () => ({ path: `/automations/${fixtures.automationId}/suggestions` }),
  'POST /automations/{id}/suggestions/{suggestionId}/apply': () => ({
    path: `/automations/${fixtures.automationId}/suggestions/0123456789abcdef/apply`,
  }),
  'GET /automations/{id}/suggestions [API key]': async (role) => {
    const { automationId, suggestionId } = await make.suggestion()
    return { path: `/automations/${automationId}/suggestions`, private: [suggestionId], credentials: viaApiKey(role) }
  },
  'GET /automations/{id}/trigger': () => ({ path: `/automations/${fixtures.automationId}/trigger` }),
  'POST /automations/{id}/trigger': () => ({ path: `/automations/${fixtures.automationId}/trigger` }),
  'DELETE /automations/{id}/trigger': async () => {
    const automationId = await make.automation()
    await make.trigger(automationId)
    return { path: `/automations/${automationId}/trigger` }
  },
  'POST /triggers/{secret}': () => ({ path: `/triggers/trg_${randomUUID().replaceAll('-', '')}`, body: {} }),
  'POST /triggers/{secret} [real secret]': async () => ({ path: `/triggers/${await make.trigger(fixtures.automationId)}`, body: {} }),
  'POST /automations/{id}/suggestions/{suggestionId}/apply [API key]': async (role) => {
    const { automationId, suggestionId } = await make.suggestion()
    return { path: `/automations/${automationId}/suggestions/${suggestionId}/apply`, credentials: viaApiKey(role) }
  },
  'POST /automations/{id}/runs': () => ({ path: `/automations/${fixtures.automationId}/runs`, body: { where: 'client' } }),

  'GET /runs': () => ({ path: '/runs?limit=100', private: [fixtures.runId] }),
  "GET /runs [the member's userId and automationId]": () => ({
    path: `/runs?userId=${accounts.member.id}&automationId=${fixtures.automationId}&limit=100`,
    private: [fixtures.runId],
  }),
  'GET /runs [scope=all]': () => ({ path: `/runs?scope=all&userId=${accounts.member.id}&limit=100`, private: [fixtures.runId] }),
  'GET /runs [scope=all, API key]': (role) => ({ path: '/runs?scope=all&limit=100', credentials: viaApiKey(role) }),
  'GET /runs [scope=all, admin-scoped API key]': (role) => ({
    path: `/runs?scope=all&userId=${accounts.member.id}&limit=100`,
    private: [fixtures.runId],
    credentials: viaAdminScopedKey(role),
  }),
  'GET /runs/events': () => ({ path: '/runs/events', stream: true }),
  'GET /runs/{id}/live': async () => ({ path: `/runs/${await make.runningCloudRun()}/live`, stream: true }),
  'POST /runs/{id}/continue': async () => ({ path: `/runs/${await make.waitingCloudRun()}/continue`, body: {} }),
  'POST /runs/{id}/live/input': async () => ({
    path: `/runs/${await make.waitingCloudRun()}/live/input`,
    body: { kind: 'type', text: '123456' },
  }),
  'GET /runs/{id}': () => ({ path: `/runs/${fixtures.runId}` }),
  'POST /runs/{id}/repairs/{step}/apply': async () => ({ path: `/runs/${await make.repairedRun()}/repairs/2/apply` }),
  'POST /runs/{id}/repairs/{step}/apply [API key]': async (role) => ({
    path: `/runs/${await make.repairedRun()}/repairs/2/apply`,
    credentials: viaApiKey(role),
  }),
  'POST /runs/{id}/progress': async () => ({
    path: `/runs/${await make.clientRun(fixtures.automationId)}/progress`,
    body: { actionsPerformed: 1, log: [{ message: 'Step 1 done' }] },
  }),
  'POST /runs/{id}/finish': async () => ({
    path: `/runs/${await make.clientRun(fixtures.automationId)}/finish`,
    body: { status: 'succeeded' },
  }),
  'POST /runs/{id}/cancel': async () => ({ path: `/runs/${await make.clientRun(fixtures.automationId)}/cancel` }),
  'POST /runs/{id}/screenshots': async () => ({
    path: `/runs/${await make.clientRun(fixtures.automationId)}/screenshots?step=1&name=Matrix`,
    body: pngBytes(),
    headers: { 'content-type': 'image/png' },
  }),
  'POST /runs/{id}/screenshots [device token]': async (role) => ({
    path: `/runs/${await make.clientRun(fixtures.automationId)}/screenshots?step=1`,
    body: pngBytes(),
    headers: { 'content-type': 'image/png' },
    credentials: viaDevice(role),
  }),
  'POST /runs/{id}/vault': async () => ({ path: `/runs/${await make.clientRun(fixtures.automationId)}/vault`, body: {} }),
  'POST /runs/{id}/vault [device token]': async (role) => ({
    path: `/runs/${await make.deviceRun(fixtures.automationId)}/vault`,
    body: {},
    credentials: viaDevice(role),
  }),
  'POST /runs/{id}/resume': async () => ({ path: `/runs/${await make.failedRun()}/resume`, body: {} }),
  'POST /runs/{id}/rerun': async () => ({ path: `/runs/${await make.failedRun()}/rerun`, body: {} }),
  'GET /runs/{id}/rows.csv': () => ({ path: `/runs/${fixtures.runId}/rows.csv` }),
  'GET /runs/{id}/files/{file}': () => ({ path: `/runs/${fixtures.runId}/files/${KEPT_FILE}` }),
  'GET /runs/{id}/extracted.csv': () => ({ path: `/runs/${fixtures.runId}/extracted.csv` }),
  'GET /runs/{id}/extracted.json': () => ({ path: `/runs/${fixtures.runId}/extracted.json` }),
  'GET /runs/{id}/screenshots/{file}': () => ({ path: `/runs/${fixtures.runId}/screenshots/${SCREENSHOT}` }),
  'GET /runs/{id}/trace': () => ({ path: `/runs/${fixtures.runId}/trace` }),

  // Not in the OpenAPI document.
  'GET /openapi.json': () => ({ path: '/openapi.json' }),
  'GET /docs': () => ({ path: '/docs' }),
  'POST /mcp': () => mcpCall(),
  'POST /mcp [API key]': (role) => ({ ...mcpCall(), credentials: viaApiKey(role) }),
  'GET /mcp': () => ({ path: '/mcp', headers: { accept: 'text/event-stream' } }),
  'POST /identity/sign-in/social': () => ({
    path: '/identity/sign-in/social',
    body: { provider: 'google', callbackURL: '/dashboard' },
    headers: { origin: TEST_PUBLIC_URL },
  }),
  'GET /identity/callback/{provider}': () => ({
    path: '/identity/callback/google?code=matrix-code&state=matrix-state',
    signsNobodyIn: true,
  }),
  'POST /identity/sign-in/email': (role) => ({
    path: '/identity/sign-in/email',
    body: { email: accountOf(role).email, password: accountOf(role).password },
    ip: t.freshIp(),
    signsNobodyIn: true,
  }),
  'POST /identity/sign-up/email': () => ({
    path: '/identity/sign-up/email',
    body: { email: `${unique('bypass')}@example.com`, password: PASSWORD, name: 'Bypass' },
    ip: t.freshIp(),
    signsNobodyIn: true,
  }),
  'GET /identity/get-session': () => ({ path: '/identity/get-session' }),
  'GET /identity/list-sessions': () => ({ path: '/identity/list-sessions' }),
  'POST /identity/revoke-sessions': () => ({ path: '/identity/revoke-sessions', body: {} }),
  'POST /identity/sign-out': () => ({ path: '/identity/sign-out', body: {} }),
  'POST /identity/change-password': (role) => ({
    path: '/identity/change-password',
    body: { currentPassword: accountOf(role).password, newPassword: 'bypass-password-123' },
  }),
  'POST /identity/update-user': () => ({ path: '/identity/update-user', body: { name: 'Bypass' } }),
  'POST /identity/delete-user': () => ({ path: '/identity/delete-user', body: {} }),
  'POST /identity/two-factor/enable': (role) => ({ path: '/identity/two-factor/enable', body: { password: accountOf(role).password } }),
  'POST /identity/two-factor/verify-totp': () => ({ path: '/identity/two-factor/verify-totp', body: { code: '123456' } }),
  'POST /identity/passkey/verify-authentication': () => ({ path: '/identity/passkey/verify-authentication', body: { response: {} } }),
  'GET /no-such-route': () => ({ path: '/no-such-route' }),
}

beforeAll(async () => {
  sites = await startPracticeSites()
  paddle = await startFakePaddleApi()
  t = await createTestApp({
    apiRateLimit: RATE_LIMIT,
    privateTargets: 'loopback',
    googleEnabled: true,
    billing: {
      PADDLE_CLIENT_TOKEN: 'test_client_token',
      PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PADDLE_API_KEY: 'pdl_matrix_key',
      PADDLE_API_URL: paddle.url,
    },
  })
  const [admin, member, otherMember, visitorAccount] = [
    await t.signUp({ role: 'admin', password: PASSWORD }),
    await t.signUp({ password: PASSWORD }),
    await t.signUp({ password: PASSWORD }),
    await t.signUp({ password: PASSWORD }),
  ]
  accounts = { admin, member, otherMember }
  spare = visitorAccount
  // Pro has no monthly run cap: the member starts a client run for each runs row; and the credits
  // pay for the cloud runs the rows start (a start, a resume, a run again, by every credential).
  await json(await send('admin', 'PUT', { path: `/users/${member.id}`, body: { plan: 'pro', credits: 500 } }), 200)
  await paddleSubscriptionOf(t.db, member.id)
  memberPaymentId = (await paymentOf(t.db, member.id)).id

  const automationId = await make.automation()
  const runId = await make.clientRun(automationId)
  await json(await send('member', 'POST', { path: `/runs/${runId}/progress`, body: { extracted: [{ price: '9.99' }] } }), 200)
  // Only the cloud worker takes screenshots; give the client run one as the worker would.
  await t.services.runFiles.saveScreenshot(runId, SCREENSHOT, pngBytes())
  await t.services.runFiles.saveFile(runId, KEPT_FILE, new TextEncoder().encode('name\nAda\n'))
  const trace = zipSync({ 'trace.trace': strToU8('') })
  await t.services.runFiles.saveTrace(runId, trace)
  await t.db
    .update(automationRuns)
    .set({
      screenshots: [{ name: 'Step 1', file: SCREENSHOT, step: 1 }],
      files: [{ name: 'people.csv', file: KEPT_FILE, size: 9, step: 1 }],
      trace: { bytes: trace.byteLength },
    })
    .where(eq(automationRuns.id, runId))

  const apiKeyFor = async (role: Exclude<Role, 'visitor'>) => {
    const response = await send(role, 'POST', { path: '/keys', body: { name: `${role} key` } })
    return (await json<{ data: { key: string } }>(response, 201)).data.key
  }
  apiKeys = { member: await apiKeyFor('member'), otherMember: await apiKeyFor('otherMember'), admin: await apiKeyFor('admin') }
  const scoped = await send('admin', 'POST', {
    path: '/keys',
    body: { name: 'admin key with every scope', scopes: ['automations', 'admin:read', 'admin:content'] },
  })
  adminScopedKey = (await json<{ data: { key: string } }>(scoped, 201)).data.key

  const passkeyOwner = await t.signUp({ password: PASSWORD })
  const started = await t.request('/api/auth/passkeys/options', { token: passkeyOwner.token, body: { name: 'Matrix', password: PASSWORD } })
  const creation = (await json<{ data: Record<string, unknown> }>(started, 200)).data
  const registered = await t.request('/api/auth/passkeys', {
    token: passkeyOwner.token,
    cookie: challengeOf(started),
    body: { name: 'Matrix', response: passkeyDevice.create(creation) },
  })
  await json(registered, 201)

  pairer = await t.signUp({ password: PASSWORD })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, pairer.id))
  // One device each: the Free plan (the other member's and the admin's) connects one, Pro three.
  const memberDevice = await make.device(member)
  deviceTokens = {
    member: memberDevice.token,
    otherMember: (await make.device(otherMember)).token,
    admin: (await make.device(admin)).token,
  }

  fixtures = {
    automationId,
    runId,
    keyId: await make.key(),
    published: await make.post('published'),
    draft: await make.post('draft'),
    editPostId: (await make.post()).id,
    inquiryId: await make.inquiry(),
    editUserId: await make.user(),
    planId: await make.plan(),
    resetUserId: await make.user(),
    template: await make.template({ published: true }),
    draftTemplate: await make.template(),
    advancedTemplate: await make.template({ published: true, advanced: true }),
    webhook: await make.webhook(),
    secretId: await make.secret(),
    deviceId: memberDevice.id,
  }
})

afterAll(async () => {
  await t?.close()
  await sites?.close()
  await paddle?.close()
})

async function documentedOperations(): Promise<string[]> {
  const document = await json<OpenApiDocument>(await send('visitor', 'GET', { path: '/openapi.json' }), 200)
  expect(document.servers).toEqual([{ url: '/api' }])
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.keys(byMethod).map((method) => `${method.toUpperCase()} ${path}`),
  )
}

describe('the expectation table', () => {
  it('has a row for every operation of the OpenAPI document, and none for an operation it lacks', async () => {
    const documented = await documentedOperations()
    const rows = new Set(DOCUMENTED.map((row) => row.route))
    const missing = documented.filter((operation) => !rows.has(operation))
    const notDocumented = [...rows].filter((route) => !documented.includes(route))
    expect({ missing, notDocumented }).toEqual({ missing: [], notDocumented: [] })
    // Each documented operation has exactly one main row (variants come in addition).
    expect(DOCUMENTED.filter((row) => !row.variant).map((row) => row.route)).toHaveLength(documented.length)
  })

  it('lists the routes served outside the document separately, none of them documented', async () => {
    const documented = new Set(await documentedOperations())
    expect(UNDOCUMENTED.filter((row) => documented.has(row.route))).toEqual([])
  })

  it('has one request for every row and no request without a row', () => {
    const keys = [...DOCUMENTED, ...UNDOCUMENTED].map(keyOf)
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([])
    const withoutRequest = keys.filter((key) => !(key in requests))
    const withoutRow = Object.keys(requests).filter((key) => !keys.includes(key))
    expect({ withoutRequest, withoutRow }).toEqual({ withoutRequest: [], withoutRow: [] })
  })
})

async function check(row: RouteExpectation) {
  const [method = 'GET'] = row.route.split(' ')
  const key = keyOf(row)
  const statuses = {} as Record<Role, number>
  const details: string[] = []
  for (const role of ROLES) {
    const call = await requests[key]?.(role)
    if (!call) throw new Error(`no request for ${key}`)
    const response = await send(role, method, call)
    statuses[role] = response.status
    let text = ''
    if (call.stream && response.status === 200) await response.body?.cancel()
    else text = await response.text()
    await call.after?.(response)
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('auth_session=') && !/max-age=0/i.test(cookie))
    if (call.signsNobodyIn && session) details.push(`${role}: a session cookie was set`)
    if (response.status !== row[role]) details.push(`${role}: ${response.status} ${text.slice(0, 300)}`)
    if (call.private && response.status >= 200 && response.status < 300) {
      const blind = row.blind?.includes(role) ?? false
      for (const id of call.private) {
        if (text.includes(id) === blind) details.push(`${role}: ${blind ? 'sees' : 'does not see'} ${id}`)
      }
    }
  }
  const expected = { visitor: row.visitor, member: row.member, otherMember: row.otherMember, admin: row.admin }
  expect(statuses, details.join('\n')).toEqual(expected)
  expect(details).toEqual([])
}

describe.each(DOCUMENTED.map((row) => [keyOf(row), row] as const))('documented: %s', (_key, row) => {
  it(`visitor ${row.visitor}, member ${row.member}, another member ${row.otherMember}, admin ${row.admin}`, () => check(row))
})

describe.each(UNDOCUMENTED.map((row) => [keyOf(row), row] as const))('not documented: %s', (_key, row) => {
  it(`visitor ${row.visitor}, member ${row.member}, another member ${row.otherMember}, admin ${row.admin}`, () => check(row))
})

describe('no hidden methods', () => {
  it('a method the document does not name on a documented path answers 404 to a visitor and to an admin', async () => {
    const documented = await documentedOperations()
    const templates = [...new Set(documented.map((operation) => operation.split(' ')[1] ?? ''))]
    const pattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`)
    const found: string[] = []
    for (const template of templates) {
      const concrete = template.replace('{file}', SCREENSHOT).replace(/\{[^}]+\}/g, randomUUID())
      // Every documented method whose path matches (GET /blog/{slug} and PUT /blog/{id} share one).
      const allowed = new Set(
        documented.filter((operation) => pattern(operation.split(' ')[1] ?? '').test(concrete)).map((operation) => operation.split(' ')[0]),
      )
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((candidate) => !allowed.has(candidate))) {
        for (const role of ['visitor', 'admin'] as const) {
          const response = await send(role, method, { path: concrete, body: method === 'GET' ? undefined : {} })
          if (response.status !== 404) found.push(`${role} ${method} ${concrete}: ${response.status}`)
          await response.body?.cancel()
        }
      }
    }
    expect(found).toEqual([])
  })
})

/** Public routes whose credential is the request itself (a signature, a secret URL), not a session. */
const CREDENTIAL_IN_REQUEST = ['POST /webhooks/paddle', 'POST /triggers/{secret}', 'POST /devices/pairings/{pairingId}/token']

async function accessRules(): Promise<Map<string, Access | undefined>> {
  const document = await json<OpenApiDocument>(await send('visitor', 'GET', { path: '/openapi.json' }), 200)
  return new Map(
    Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation['x-access']] as const),
    ),
  )
}

describe('the access rules the routes declare (x-access)', () => {
  it('every operation declares one, and the table agrees with it for sessions', async () => {
    const rules = await accessRules()
    const disagreements: string[] = []
    for (const row of DOCUMENTED.filter((candidate) => !candidate.variant)) {
      const access = rules.get(row.route)
      if (access === undefined) disagreements.push(`${row.route}: no x-access`)
      else if (access === 'anyone') {
        if (row.visitor === 401 && !CREDENTIAL_IN_REQUEST.includes(row.route))
          disagreements.push(`${row.route}: public, but the table refuses visitors`)
      } else {
        if (row.visitor !== 401) disagreements.push(`${row.route}: signed-in only, but the table lets visitors in`)
        const adminOnly = row.member === 403 && row.otherMember === 403 && row.admin < 300
        if ((access.who === 'admin') !== adminOnly) disagreements.push(`${row.route}: x-access says ${access.who}, the table disagrees`)
      }
    }
    expect(disagreements).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// Authorisation before validation: every caller the table refuses (401/403) is refused the same
// way whatever they send.

const BAD_BODIES: { describe: string; body: string; type?: string }[] = [
  { describe: 'empty body', body: '' },
  { describe: 'malformed JSON', body: '{' },
  { describe: 'an empty object', body: '{}' },
  { describe: 'an array', body: '[1]' },
  { describe: 'wrong types', body: '{"email":"x","name":[],"credits":-1,"siteName":7,"defaultCredits":"x","steps":"no","newPassword":1}' },
  { describe: 'a NUL character', body: '{"name":"\\u0000"}' },
  { describe: 'half a surrogate pair', body: '{"name":"\\udfff"}' },
  { describe: 'not JSON at all', body: 'x=1', type: 'text/plain' },
]
const BAD_QUERY = 'page=-1&limit=abc&scope=everything&status=x&processed=maybe&role=owner&targetType=%00'
const BAD_PARAMS = ['not-a-uuid', 'a%00b', 'x'.repeat(300)]

/** The same request made invalid: its path parameters, its query and its body spoiled in turn. */
function malformedCalls(route: string, call: Call): { describe: string; call: Call }[] {
  const [method = 'GET', template = ''] = route.split(' ')
  const [path = '', query] = call.path.split('?')
  const calls: { describe: string; call: Call }[] = []
  const templateSegments = template.split('/')
  const pathSegments = path.split('/')
  for (const bad of BAD_PARAMS) {
    if (!templateSegments.some((segment) => segment.startsWith('{'))) break
    const spoiled = pathSegments.map((segment, index) => (templateSegments[index]?.startsWith('{') ? bad : segment)).join('/')
    calls.push({ describe: `path ${spoiled.slice(0, 60)}`, call: { ...call, path: query ? `${spoiled}?${query}` : spoiled } })
  }
  calls.push({ describe: `query ${BAD_QUERY}`, call: { ...call, path: `${path}?${query ? `${query}&` : ''}${BAD_QUERY}` } })
  if (method !== 'GET') {
    for (const bad of BAD_BODIES) {
      const headers = { ...call.headers, 'content-type': bad.type ?? 'application/json' }
      calls.push({ describe: bad.describe, call: { ...call, form: undefined, body: bad.body, headers } })
    }
  }
  return calls
}

describe.each(DOCUMENTED.map((row) => [keyOf(row), row] as const))('refused before validation: %s', (key, row) => {
  const refused = ROLES.filter((role) => row[role] === 401 || row[role] === 403)
  it.skipIf(refused.length === 0)(`${refused.map((role) => `${role} ${row[role]}`).join(', ')} whatever the request holds`, async () => {
    const [method = 'GET'] = row.route.split(' ')
    const mismatches: string[] = []
    for (const role of refused) {
      const valid = await requests[key]?.(role)
      if (!valid) throw new Error(`no request for ${key}`)
      for (const { describe: what, call } of malformedCalls(row.route, valid)) {
        const response = await send(role, method, { ...call, ip: call.ip ?? ROLE_IP[role] })
        const text = await response.text()
        if (response.status !== row[role]) mismatches.push(`${role}, ${what}: ${response.status} ${text.slice(0, 200)}`)
      }
    }
    expect(mismatches).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// API keys: every signed-in operation, called with each role's key, is refused with 403 exactly
// where its declared rule refuses that key (no key at all, a scope it lacks, a role it lacks), and
// otherwise answers as the role's session does.

type Rule = { who: string; apiKey: string }

function ruleOf(access: Exclude<Access, 'anyone'>, path: string): Rule {
  const stricter = access.whenQuery
  const query = new URLSearchParams(path.split('?')[1] ?? '')
  return stricter && query.getAll(stricter.name).includes(stricter.value) ? stricter.rule : access
}

function keyRefused(role: Exclude<Role, 'visitor'>, rule: Rule, scopes: readonly string[]): boolean {
  if (rule.who === 'admin' && role !== 'admin') return true
  if (rule.apiKey === 'never') return true
  return rule.apiKey !== 'any' && !scopes.includes(rule.apiKey)
}

const KEYS = [
  { name: 'default key', scopes: ['automations'], credentials: viaApiKey },
  { name: 'admin-scoped key', scopes: ['automations', 'admin:read', 'admin:content'], credentials: viaAdminScopedKey },
] as const

describe.each(DOCUMENTED.filter((row) => !row.variant || row.variant === 'scope=all').map((row) => [keyOf(row), row] as const))(
  'API keys on %s',
  (key, row) => {
    it('refused (403) where the declared rule refuses the key, else as the session', async () => {
      const access = (await accessRules()).get(row.route)
      if (!access || access === 'anyone') return
      const [method = 'GET'] = row.route.split(' ')
      const mismatches: string[] = []
      for (const keyKind of KEYS) {
        for (const role of ['member', 'otherMember', 'admin'] as const) {
          // A route no key may call needs no real resource (DELETE /keys/{id} would otherwise mint one each time).
          const neverByKey = access.apiKey === 'never' && !access.whenQuery
          const call = neverByKey
            ? { path: row.route.split(' ')[1]?.replace(/\{[^}]+\}/g, randomUUID()) ?? '' }
            : await requests[key]?.(role)
          if (!call) throw new Error(`no request for ${key}`)
          const scopes = role === 'admin' ? keyKind.scopes : ['automations']
          const expected = keyRefused(role, ruleOf(access, call.path), scopes) ? 403 : row[role]
          const response = await send(role, method, { ...call, credentials: keyKind.credentials(role), after: undefined })
          if (call.stream && response.status === 200) await response.body?.cancel()
          const text = call.stream && response.status === 200 ? '' : await response.text()
          if (response.status !== expected)
            mismatches.push(`${role} with the ${keyKind.name}: ${response.status}, expected ${expected} ${text.slice(0, 200)}`)
        }
      }
      expect(mismatches).toEqual([])
      // Six real calls per route: inspecting and planning open pages in the browser each time.
    }, 120_000)
  },
)

// ---------------------------------------------------------------------------------------------
// Device tokens (docs/decisions/031): every signed-in operation, called with each role's own
// connected device, is refused with 403 where a device may not go (a rule open to any key or to
// no key, a scope the device lacks, more than the Member role in the workspace) and otherwise
// answers as the role's session does; a device's own routes answer it.

const DEVICE_SCOPES = ['automations']
const ROLE_RANK: Record<string, number> = { owner: 4, admin: 3, member: 2, viewer: 1 }

/** Routes after which the device's token no longer works. */
const ENDS_THE_DEVICE = new Set(['DELETE /devices/me'])

function deviceRefused(rule: { apiKey: string; workspaceRole?: string; deviceOnly?: true }): boolean {
  if (rule.deviceOnly) return false
  if (!DEVICE_SCOPES.includes(rule.apiKey)) return true
  return (ROLE_RANK[rule.workspaceRole ?? 'viewer'] ?? 0) > (ROLE_RANK.member ?? 0)
}

describe.each(DOCUMENTED.filter((row) => !row.variant || row.variant === 'scope=all').map((row) => [keyOf(row), row] as const))(
  'device tokens on %s',
  (key, row) => {
    it('refused (403) where a device may not go, else as the session', async () => {
      const access = (await accessRules()).get(row.route)
      if (!access || access === 'anyone') return
      const [method = 'GET'] = row.route.split(' ')
      const mismatches: string[] = []
      // A device's own route answers as its device-token row says (a run of its own: only its device is answered).
      const ownRow = access.deviceOnly ? DOCUMENTED.find((each) => each.route === row.route && each.variant === 'device token') : undefined
      for (const role of ['member', 'otherMember', 'admin'] as const) {
        const refusedByRule = access.apiKey === 'never' && !access.whenQuery && !access.deviceOnly
        const call = refusedByRule
          ? { path: row.route.split(' ')[1]?.replace(/\{[^}]+\}/g, randomUUID()) ?? '' }
          : await requests[ownRow ? `${row.route} [device token]` : key]?.(role)
        if (!call) throw new Error(`no request for ${key}`)
        const rule = ruleOf(access, call.path)
        const expected = ownRow ? ownRow[role] : access.deviceOnly ? 200 : deviceRefused({ ...access, ...rule }) ? 403 : row[role]
        // A route that disconnects the device is called with a fresh one, never the role's own.
        const own = ENDS_THE_DEVICE.has(row.route) ? await requests[`${row.route} [device token]`]?.(role) : null
        const response = await send(role, method, { ...call, credentials: own?.credentials ?? viaDevice(role), after: undefined })
        if (call.stream && response.status === 200) await response.body?.cancel()
        const text = call.stream && response.status === 200 ? '' : await response.text()
        if (response.status !== expected)
          mismatches.push(`${role}'s device: ${response.status}, expected ${expected} ${text.slice(0, 200)}`)
      }
      expect(mismatches).toEqual([])
    }, 120_000)
  },
)
