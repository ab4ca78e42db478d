import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'

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
