import { once } from 'node:events'
import { createServer, get as get_, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, createNodeListener } from '#server/app.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'
import type { AppEnv } from './app-env.ts'
import { nodeListener } from './node-listener.ts'
import { pageCache } from './page-cache.ts'
import { securityHeaderList, securityHeaders } from './security-headers.ts'

const PUBLIC = 'public, max-age=60, s-maxage=300'

/** A page that shows the site's name, shared only without a cookie (as the React Router pages mark theirs). */
function countingPages() {
  let renders = 0
  const pages = createMiddleware<AppEnv>(async (c) => {
    renders++
    const html = `<!DOCTYPE html><html><body><p>render ${renders}</p><script nonce="${c.get('cspNonce')}">window.x=1</script></body></html>`
    const shared = !c.req.header('cookie')
    return new Response(html, {
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': shared ? PUBLIC : 'private, no-store', Vary: 'Cookie' },
    })
  })
  return { pages, renders: () => renders }
}

async function listen(listener: (req: never, res: never) => void): Promise<{ server: Server; base: string }> {
  const server = createServer(listener as never)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** Every log line the logger wrote, parsed. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  return { logger: pino({ level: 'info' }, stream), lines }
}

const headersOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name)))

describe("Node's listener: kept pages answered before Hono", () => {
  it('answers a hit without calling Hono, and hands misses, cookies, other methods and unknown versions to it', async () => {
    let heard: string | null = 'v1'
    let maintenanceNow: boolean | null = false
    const cache = pageCache({
      readVersion: async () => heard,
      heardVersion: () => heard,
      maintenance: async () => false,
      maintenanceNow: () => maintenanceNow,
      securityHeaders: (sources) => securityHeaderList({ isProduction: true }, sources),
    })
    const { pages, renders } = countingPages()
    const app = new Hono<AppEnv>()
    app.use(cache.serve)
    app.use(securityHeaders({ isProduction: true }))
    app.all('*', cache.keep, pages)
    let fetched = 0
    const { logger, lines } = recordingLogger()
    const { server, base } = await listen(
      nodeListener(
        (request) => {
          fetched++
          return app.fetch(request)
        },
        { keptPages: cache, logger },
      ),
    )
    try {
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers })
      expect((await get('/pricing')).status).toBe(200)
      expect(fetched).toBe(1)

      const hit = await get('/pricing?from=ad', { 'x-request-id': 'req-42' })
      expect(fetched).toBe(2) // another key: a miss
      const again = await get('/pricing?from=ad', { 'x-request-id': 'req-43', 'accept-encoding': 'gzip' })
      expect(fetched).toBe(2)
      expect(again.headers.get('x-request-id')).toBe('req-43')
      expect(again.headers.get('content-encoding')).toBe('gzip')
      // fetch decodes the gzip: the miss's page, kept.
      expect(await hit.text()).toContain('render 2')
      expect(await again.text()).toContain('render 2')
      expect(lines.at(-1)).toMatchObject({ msg: 'request', requestId: 'req-43', method: 'GET', path: '/pricing', status: 200 })
      expect(typeof lines.at(-1)?.durationMs).toBe('number')

      const etag = again.headers.get('etag')!
      const unchanged = await get('/pricing?from=ad', { 'accept-encoding': 'gzip', 'if-none-match': etag })
      expect(unchanged.status).toBe(304)
      expect(unchanged.headers.get('content-length')).toBeNull()
      expect(fetched).toBe(2)

      await get('/pricing', { cookie: 'aether_theme=dark' })
      await fetch(`${base}/pricing`, { method: 'HEAD' })
      expect(fetched).toBe(4)
      // A Host header @hono/node-server checks further is left to it (it may refuse it).
      const odd = await new Promise<number>((resolve, reject) =>
        get_(`${base}/pricing`, { headers: { host: 'Example.COM' } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        }).on('error', reject),
      )
      expect(odd).toBe(200)
      expect(fetched).toBe(5)
      maintenanceNow = null // settings not cached now: Hono's chain reads them
      await get('/pricing')
      expect(fetched).toBe(6)
      maintenanceNow = true // the maintenance page is Hono's
      await get('/pricing')
      expect(fetched).toBe(7)
      maintenanceNow = false
      heard = null // a change could have been missed: the version is read
      await get('/pricing')
      expect(fetched).toBe(8)
      heard = 'v2'
      expect(await (await get('/pricing')).text()).toContain(`render ${renders()}`)
      expect(fetched).toBe(9)
      await get('/pricing')
      expect(fetched).toBe(9)
    } finally {
      server.close()
    }
  })
})

describe("Node's listener in the production app, on the database", () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  it('gives the same answer as the Hono chain, and the maintenance page once maintenance mode is on', async () => {
    const deps = () => {
      const { pages } = countingPages()
      return { env: testEnv({ isProduction: true }), logger: pino({ level: 'silent' }), database: t.database, services: t.services, pages }
    }
    const hono = createApp(deps())
    // Hono's page cache asks for the settings on every hit; the direct way reads the cached ones.
    let settingsReads = 0
    const counted = { ...t.services.settings, get: () => (settingsReads++, t.services.settings.get()) }
    const { server, base } = await listen(createNodeListener({ ...deps(), services: { ...t.services, settings: counted } }))
    // PostgreSQL: the connection that hears other processes' changes starts beside the pool.
    for (let i = 0; i < 100 && t.services.publicContent.heard() === null; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(t.services.publicContent.heard()).not.toBeNull()
    const settings = await t.services.settings.get()
    try {
      const headers = { 'accept-encoding': 'br, gzip', 'x-forwarded-for': '203.0.113.91' }
      await hono.request('/services', { headers })
      await fetch(`${base}/services`, { headers })
      const viaHono = await hono.request('/services', { headers })
      const readsBefore = settingsReads
      const direct = await fetch(`${base}/services`, { headers })
      expect(settingsReads).toBe(readsBefore)
      expect(direct.status).toBe(200)
      expect(headersOf(direct)).toEqual(headersOf(viaHono))
      expect(direct.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)

      await t.services.settings.update({ ...settings, maintenanceMode: true })
      await t.services.settings.get()
      const closed = await fetch(`${base}/services`, { headers })
      expect(closed.status).toBe(503)
    } finally {
      await t.services.settings.update({ ...settings, maintenanceMode: false })
      server.close()
    }
  })
})
