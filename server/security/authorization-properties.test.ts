/**
 * Property tests of the order of checks (ADR 015): whatever a request holds (any body, query,
 * path parameters, content type), a visitor gets 401 on every signed-in route, a member 403 on
 * every admin route, and an API key or a device token 403 on every route whose rule it does not meet. The routes and
 * their rules come from the app's own OpenAPI document (`x-access`), the declaration the routes'
 * middleware enforces. Bodies over the size limit are left out (operationSample): they are
 * refused (413) before anything, whoever sends them (server/http/body-limit.ts).
 */
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  operationSample,
  operationsOf,
  sampleRequest,
  type Access,
  type AccessRule,
  type OpenApiDocument,
  type Operation,
} from '#server/testing/arbitrary-requests.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

const RUNS_PER_ROUTE = 25

const t: TestApp = await createTestApp({ apiRateLimit: 1_000_000 })
afterAll(async () => {
  await t.close()
})

const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument
const protectedOperations = operationsOf(document).filter(
  (operation): operation is Operation & { access: Exclude<Access, 'anyone'> } => operation.access !== 'anyone',
)

const member = await t.signUp()
const memberKey = await keyOf(member.token, ['automations'])
const admin = await t.signUp({ role: 'admin' })
const adminReadKey = await keyOf(admin.token, ['automations', 'admin:read'])
const memberDevice = await deviceOf(member)

async function keyOf(token: string, scopes: string[]): Promise<string> {
  const response = await t.request('/api/keys', { body: { name: 'property key', scopes }, token })
  if (response.status !== 201) throw new Error(`no key: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { key: string } }).data.key
}

/** A device connected through the pairing flow (docs/decisions/031); its token. */
async function deviceOf(account: { id: string; email: string }): Promise<string> {
  const asked = await t.request('/api/devices/pairings', { body: { name: 'Property device', kind: 'runner', version: '1' } })
  const { data: pairing } = (await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }
  await t.services.pairings.approve(pairing.userCode, { ...account, twoFactorEnabled: false }, account.id, t.freshIp())
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  if (collected.status !== 200) throw new Error(`no device: ${collected.status} ${await collected.text()}`)
  return ((await collected.json()) as { data: { token: string } }).data.token
}

type Caller = 'visitor' | 'member (cookie)' | 'member (token)' | 'member (API key)' | 'member (device)' | 'admin (admin:read key)'
const CALLERS: Caller[] = ['visitor', 'member (cookie)', 'member (token)', 'member (API key)', 'member (device)', 'admin (admin:read key)']
const RANK = { viewer: 1, member: 2, admin: 3, owner: 4 } as const

/** The status the declared rule gives this caller before anything else is looked at; null when it lets them in. */
function refusedWith(caller: Caller, rule: AccessRule): 401 | 403 | null {
  if (caller === 'visitor') return 401
  const isAdmin = caller.startsWith('admin')
  if (rule.who === 'admin' && !isAdmin) return 403
  // A device passes only where the rule names its scope and needs no more than the Member role (docs/decisions/031).
  if (caller === 'member (device)') {
    if (rule.deviceOnly) return null
    return rule.apiKey === 'automations' && RANK[rule.workspaceRole ?? 'viewer'] <= RANK.member ? null : 403
  }
  if (rule.deviceOnly) return 403
  if (!caller.endsWith('key)')) return null
  if (rule.apiKey === 'never') return 403
  const scopes = isAdmin ? ['automations', 'admin:read'] : ['automations']
  return rule.apiKey === 'any' || scopes.includes(rule.apiKey) ? null : 403
}

function ruleFor(access: Exclude<Access, 'anyone'>, query: string): AccessRule {
  const stricter = access.whenQuery
  return stricter && new URLSearchParams(query).getAll(stricter.name).includes(stricter.value) ? stricter.rule : access
}

function headersFor(caller: Caller): Headers {
  const headers = new Headers({ 'x-forwarded-for': '203.0.113.77' })
  if (caller === 'member (cookie)') {
    headers.set('cookie', member.cookie)
    headers.set('origin', TEST_PUBLIC_URL)
  }
  if (caller === 'member (token)') headers.set('authorization', `Bearer ${member.token}`)
  if (caller === 'member (API key)') headers.set('authorization', `Bearer ${memberKey}`)
  if (caller === 'member (device)') headers.set('authorization', `Bearer ${memberDevice}`)
  if (caller === 'admin (admin:read key)') headers.set('authorization', `Bearer ${adminReadKey}`)
  return headers
}

describe('authorisation comes before validation, for any request', () => {
  it('reads the protected routes and their rules from the document', () => {
    expect(protectedOperations.length).toBeGreaterThan(30)
    expect(protectedOperations.filter((operation) => operation.access.who === 'admin').length).toBeGreaterThan(10)
  })

  describe.each(protectedOperations.map((operation) => [operation.key, operation] as const))('%s', (_key, operation) => {
    it('visitors 401, members 403 on admin routes, keys 403 where their rule refuses them', async () => {
      const sample = fc.tuple(fc.constantFrom(...CALLERS), operationSample(operation))
      await fc.assert(
        fc.asyncProperty(sample, async ([caller, request]) => {
          const expected = refusedWith(caller, ruleFor(operation.access, request.query ?? ''))
          if (expected === null) return
          const sent = sampleRequest(operation, request, headersFor(caller))
          const response = await t.app.request(sent)
          const text = await response.text()
          expect(response.status, `${caller} ${operation.method} ${sent.url.slice(0, 200)}: ${text.slice(0, 200)}`).toBe(expected)
        }),
        { numRuns: RUNS_PER_ROUTE },
      )
    }, 60_000)
  })
})
