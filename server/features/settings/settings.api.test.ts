import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '#common/settings.ts'
import { creditLedger } from '#server/db/schema/index.ts'
import { MAINTENANCE_MESSAGE } from '#common/settings.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }
type AuditEntry = {
  actor: { id: string | null; email: string }
  action: string
  targetType: string
  summary: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

const RATE_MESSAGE = 'API rate limit must be between 1 and 10000 requests per minute.'

let t: TestApp
let admin: Account
let member: Account
let defaults: AppSettings

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
  defaults = await t.services.settings.get()
})
afterAll(async () => {
  await t.close()
})

const save = (body: unknown, token = admin.token) => t.request('/api/settings', { method: 'PUT', body, token })

async function read(): Promise<AppSettings> {
  const response = await t.request('/api/settings', { token: admin.token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: AppSettings }).data
}

async function settingsAudit(): Promise<AuditEntry[]> {
  const response = await t.request('/api/audit?targetType=settings&limit=100', { token: admin.token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: AuditEntry[] }).data
}

/** Runs a test with some settings changed, and puts the defaults back (through the service, which no limit stops). */
async function withSettings(changes: Partial<AppSettings>, run: () => Promise<void>) {
  const response = await save({ ...defaults, ...changes })
  expect(response.status).toBe(200)
  try {
    await run()
  } finally {
    await t.services.settings.update(defaults)
  }
}

describe('GET and PUT /api/settings', () => {
  it('shows every setting to an admin', async () => {
    expect(await read()).toEqual({
      siteName: 'Aether',
      description: 'AI-powered browser and desktop automation that saves you time.',
      defaultCredits: 5,
      maintenanceMode: false,
      theme: 'dark',
      apiRateLimit: 1000,
    })
  })

  it('saves every field, answers the saved settings, and audits what changed with before and after', async () => {
    const response = await save({ ...defaults, siteName: '  Aether Labs ', theme: 'light', description: 'New words' })
    expect(response.status).toBe(200)
    const saved = ((await response.json()) as { data: AppSettings }).data
    expect(saved).toEqual({ ...defaults, siteName: 'Aether Labs', theme: 'light', description: 'New words' })
    expect(await read()).toEqual(saved)

    const [entry] = await settingsAudit()
    expect(entry).toMatchObject({
      action: 'settings.update',
      targetType: 'settings',
      actor: { id: admin.id, email: admin.email },
      summary: 'Changed System Settings: siteName, description, theme',
      before: { siteName: 'Aether', theme: 'dark', description: defaults.description },
      after: { siteName: 'Aether Labs', theme: 'light', description: 'New words' },
    })

    // Saving the same values again records nothing.
    const count = (await settingsAudit()).length
    expect((await save(saved)).status).toBe(200)
    expect(await settingsAudit()).toHaveLength(count)
    await t.services.settings.update(defaults)
  })

  it('answers 400 naming the field for an API rate limit outside 1..10000, an empty site name, a bad theme or a missing field', async () => {
    for (const apiRateLimit of [0, 10001]) {
      const response = await save({ ...defaults, apiRateLimit })
      expect(response.status).toBe(400)
      const body = (await response.json()) as ErrorBody
      expect(body.message).toBe(`apiRateLimit: ${RATE_MESSAGE}`)
      expect(body.issues).toEqual([{ path: 'apiRateLimit', message: RATE_MESSAGE }])
    }
    const emptyName = await save({ ...defaults, siteName: '   ' })
    expect(emptyName.status).toBe(400)
    expect(((await emptyName.json()) as ErrorBody).message).toBe('siteName: Site name is required')
    const theme = await save({ ...defaults, theme: 'neon' })
    expect(((await theme.json()) as ErrorBody).message).toBe('theme: Theme must be light, dark or system.')
    const credits = await save({ ...defaults, defaultCredits: -1 })
    expect(((await credits.json()) as ErrorBody).message).toBe('defaultCredits: Default credits cannot be negative.')
    const partial = await save({ siteName: 'Only this' })
    expect(partial.status).toBe(400)

    expect(await read()).toEqual(defaults)
  })

  it('is refused to members (403) and visitors (401)', async () => {
    expect((await t.request('/api/settings', { token: member.token })).status).toBe(403)
    expect((await t.request('/api/settings')).status).toBe(401)
    expect((await save({ ...defaults, maintenanceMode: true }, member.token)).status).toBe(403)
    expect((await t.request('/api/settings', { method: 'PUT', body: { ...defaults, maintenanceMode: true } })).status).toBe(401)
    expect((await t.services.settings.get()).maintenanceMode).toBe(false)
  })
})

describe('maintenance mode', () => {
  it('answers 503 with Retry-After to visitors and members; health, sign-in and admins still work', async () => {
    await withSettings({ maintenanceMode: true, siteName: 'Aether & Co' }, async () => {
      for (const token of [undefined, member.token]) {
        const refused = await t.request('/api/blog', { token })
        expect(refused.status).toBe(503)
        expect(refused.headers.get('retry-after')).toBe('300')
        expect(refused.headers.get('cache-control')).toBe('no-store')
        expect(await refused.json()).toEqual({ message: MAINTENANCE_MESSAGE, code: 'MAINTENANCE' })
      }
      expect((await t.request('/api/auth/profile', { method: 'PUT', token: member.token, body: { fullName: 'Blocked' } })).status).toBe(503)
      expect((await t.request('/api/auth/register', { body: { email: 'late@example.com', password: 'a-good-password' } })).status).toBe(503)

      const page = await t.request('/')
      expect(page.status).toBe(503)
      expect(page.headers.get('content-type')).toMatch(/text\/html/)
      expect(await page.text()).toContain('Aether &amp; Co is down for maintenance')

      expect((await t.request('/api/health')).status).toBe(200)
      const login = await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })
      expect(login.status).toBe(200)
      expect((await t.request('/api/blog', { token: admin.token })).status).toBe(200)
      expect((await t.request('/api/settings', { token: admin.token })).status).toBe(200)

      // The admin switches it off again through the API.
      expect((await save({ ...defaults, maintenanceMode: false })).status).toBe(200)
      expect((await t.request('/api/blog')).status).toBe(200)
    })
  })
})

describe('default credits', () => {
  it('a new account starts with the configured default credits, recorded in the ledger', async () => {
    await withSettings({ defaultCredits: 42 }, async () => {
      const user = await t.signUp()
      const me = await t.request('/api/auth/me', { token: user.token })
      expect(((await me.json()) as { data: { profile: { credits: number } } }).data.profile.credits).toBe(42)
      const ledger = await t.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.workspaceId, user.id), eq(creditLedger.reason, 'signup')))
      expect(ledger).toMatchObject([{ delta: 42, balanceAfter: 42 }])
    })
  })
})

describe('API rate limit', () => {
  it('a saved limit of 2 per minute answers 429 to the third request of one client', async () => {
    await withSettings({ apiRateLimit: 2 }, async () => {
      const ip = '203.0.113.77'
      const first = await t.request('/api/blog', { ip })
      expect(first.status).toBe(200)
      expect(first.headers.get('x-ratelimit-limit')).toBe('2')
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1')
      const second = await t.request('/api/blog', { ip })
      expect(second.status).toBe(200)
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0')

      const third = await t.request('/api/blog', { ip })
      expect(third.status).toBe(429)
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(((await third.json()) as ErrorBody).message).toMatch(/^Too many requests: the limit is 2 per minute\./)

      // Another client has its own budget.
      expect((await t.request('/api/blog', { ip: '203.0.113.78' })).status).toBe(200)
    })
    // Back at the default limit, the client is served again.
    expect((await t.request('/api/blog', { ip: '203.0.113.77' })).status).toBe(200)
  })
})
