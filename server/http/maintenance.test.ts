import { Hono } from 'hono'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { MAINTENANCE_MESSAGE } from '#common/settings.ts'
import { createTestApp, TEST_PUBLIC_URL, testEnv, type TestApp } from '#server/testing/create-test-app.ts'
import { pageOutcome } from '#server/testing/page-modules.ts'
import { action as authAction } from '#app/routes/auth.tsx'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import type { AppEnv } from './app-env.ts'
import { maintenanceMode } from './maintenance.ts'

// The test app renders no pages, so this one stands in React Router with a stub: a 200 means the
// request got past maintenance mode to the pages.
let t: TestApp
let app: ReturnType<typeof createApp>
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  app = createApp({
    env: testEnv(),
    logger: pino({ level: 'silent' }),
    database: t.database,
    services: t.services,
    pages: async (c) => c.text(`page ${c.req.path}`),
  })
  await t.services.settings.update({ ...(await t.services.settings.get()), maintenanceMode: true })
})
afterAll(async () => {
  await t.close()
})

const visit = (path: string, cookie?: string) =>
  app.request(path, { headers: { 'x-forwarded-for': '203.0.113.60', ...(cookie ? { cookie } : {}) } })

describe('maintenance mode and React Router requests', () => {
  it('serves route discovery (/__manifest) so the sign-in page can still navigate', async () => {
    const manifest = await visit('/__manifest?paths=%2Fauth%2C%2F&version=abc123')
    expect(manifest.status).toBe(200)
    expect(await manifest.text()).toBe('page /__manifest')
    expect((await visit('/__manifest?paths=%2Fauth', member.cookie)).status).toBe(200)
  })

  it('keeps the sign-in page and its data open', async () => {
    expect((await visit('/auth')).status).toBe(200)
    expect((await visit('/auth.data')).status).toBe(200)
  })

  it('still answers 503 for other pages, their data and look-alike paths', async () => {
    for (const path of ['/', '/blog', '/blog.data', '/__manifest.data', '/__manifest/x', '/x/__manifest']) {
      const response = await visit(path, member.cookie)
      expect(response.status, path).toBe(503)
      expect(response.headers.get('retry-after'), path).toBe('300')
    }
  })
})

describe('maintenance mode and sign-up', () => {
  it('closes sign-up everywhere: the service refuses (the /auth page calls it), the API answers 503, sign-in stays open', async () => {
    const caller = { headers: new Headers(), ip: '203.0.113.61' }
    await expect(
      t.services.auth.register({ email: 'during-maintenance@example.com', password: 'a-good-password' }, caller),
    ).rejects.toMatchObject({
      status: 503,
      message: MAINTENANCE_MESSAGE,
    })
    const api = await t.request('/api/auth/register', { body: { email: 'api-maintenance@example.com', password: 'a-good-password' } })
    expect(api.status).toBe(503)
    expect(await t.services.users.list({ page: 1, limit: 10, search: 'maintenance@example.com' })).toMatchObject({ total: 0 })
    expect(
      (await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: '203.0.113.62' })).status,
    ).toBe(200)
  })

  it('refuses a sign-up through the /auth page (the finding of issue 19): 503, no account', async () => {
    const request = new Request(`${TEST_PUBLIC_URL}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'signup', email: 'page-maintenance@example.com', password: 'a-good-password' }),
    })
    const context = { services: t.services, user: null, credential: null, clientIp: '203.0.113.63' }
    const outcome = await pageOutcome(() => authAction({ request, params: {}, context } as unknown as Parameters<typeof authAction>[0]))
    expect(outcome).toMatchObject({ status: 503, location: null })
    expect(await t.services.users.list({ page: 1, limit: 10, search: 'page-maintenance@example.com' })).toMatchObject({ total: 0 })
  })

  it("refuses a new account from Google's sign-in callback too, but not one an admin creates", async () => {
    const before = (await t.services.betterAuth.instance()).options.databaseHooks?.user?.create?.before
    if (!before) throw new Error('no user-creation hook')
    const user = { id: 'x', email: 'google@example.com', name: 'G', emailVerified: true, createdAt: new Date(), updatedAt: new Date() }
    const context = (path: string) => ({ path }) as Parameters<typeof before>[1]
    expect(await before(user, context('/callback/:id'))).toBe(false)
    expect(await before(user, context('/sign-up/email'))).toBeUndefined()
    await t.services.settings.update({ ...(await t.services.settings.get()), maintenanceMode: false })
    try {
      expect(await before(user, context('/callback/:id'))).toBeUndefined()
    } finally {
      await t.services.settings.update({ ...(await t.services.settings.get()), maintenanceMode: true })
    }
  })
})

describe('maintenance mode and a database outage', () => {
  it('lets health checks through without reading the settings, which may be unreadable then', async () => {
    const settings = {
      get: () => Promise.reject(new Error('the database is away')),
    } as unknown as SettingsService
    const outage = new Hono<AppEnv>().use(maintenanceMode(settings)).get('/api/health', (c) => c.text('health'))
    const response = await outage.request('/api/health')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('health')
  })
})
