import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

type Health = {
  status: string
  uptimeSeconds: number
  memory: { rssBytes: number; heapUsedBytes: number }
  database: { kind: string; ok: boolean; latencyMs: number }
  message?: string
}

function appWithDatabase(ping: () => Promise<boolean>) {
  return createApp({
    env: testEnv(),
    logger: pino({ level: 'silent' }),
    database: { kind: 'postgres', ping },
    services: t.services,
  })
}

describe('GET /api/health', () => {
  it('answers 200 with the process and database state', async () => {
    const response = await t.request('/api/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = (await response.json()) as Health
    expect(body.status).toBe('ok')
    expect(body.database.ok).toBe(true)
    expect(body.database.kind).toBe(t.database.kind)
    expect(['pglite', 'postgres']).toContain(body.database.kind)
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0)
    expect(body.memory.rssBytes).toBeGreaterThan(0)
    expect(body.memory.heapUsedBytes).toBeGreaterThan(0)
  })

  it('really pings the database', async () => {
    let pings = 0
    const app = appWithDatabase(async () => {
      pings++
      return true
    })
    expect((await app.request('/api/health')).status).toBe(200)
    expect((await app.request('/api/health')).status).toBe(200)
    expect(pings).toBe(2)
  })

  it("answers 503 'degraded' when the database ping fails", async () => {
    const app = appWithDatabase(async () => false)
    const response = await app.request('/api/health', { headers: { 'x-forwarded-for': '203.0.113.5' } })
    expect(response.status).toBe(503)
    const body = (await response.json()) as Health
    expect(body.status).toBe('degraded')
    expect(body.database).toMatchObject({ kind: 'postgres', ok: false })
    expect(body.message).toMatch(/database is unreachable/)
  })

  it('answers HEAD too and needs no session', async () => {
    const response = await t.request('/api/health', { method: 'HEAD' })
    expect([200, 204]).toContain(response.status)
  })
})
