import net from 'node:net'
import pino from 'pino'
import { sql } from 'drizzle-orm'
import type { ServerBuild } from 'react-router'
import { createServer as createViteServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import type { InquiryEvent } from '#server/features/events/event-bus.ts'
import { DATABASE_UNAVAILABLE_MESSAGE } from '#server/http/error-handler.ts'
import { pages } from '#server/http/pages.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'

// The database goes away under a running app and comes back (issue 7): requests answer 503 (JSON
// under /api, a page elsewhere), health says so, nothing crashes, and everything works again
// without a restart, live events included. A TCP proxy between the app and PostgreSQL plays the
// outage, so the shared server keeps running. Needs PostgreSQL: skipped without TEST_DATABASE_URL.

const serverUrl = process.env.TEST_DATABASE_URL
const RECOVERY_LIMIT_MS = 15_000

/** A TCP proxy to PostgreSQL that can cut every connection (and refuse new ones) and restore. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | null = null
  let port = 0

  async function listen() {
    const next = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('error', () => {})
        socket.on('close', () => sockets.delete(socket))
      }
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => resolve())
    })
    port = (next.address() as net.AddressInfo).port
    server = next
  }

  await listen()
  return {
    get host() {
      return `127.0.0.1:${port}`
    },
    async cut() {
      const closing = server
      server = null
      const closed = new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    restore: listen,
    close() {
      return this.cut()
    },
  }
}

async function within<T>(ms: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const result = await attempt()
    if (result !== undefined) return result
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(!serverUrl)('a database outage (PostgreSQL through a proxy)', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>
  let t: TestApp
  let vite: ViteDevServer
  let app: ReturnType<typeof createApp>
  let token: string

  const request = (path: string, init: { token?: string } = {}) =>
    app.request(path, {
      headers: { 'x-forwarded-for': '203.0.113.10', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    })

  beforeAll(async () => {
    proxy = await startProxy(new URL(serverUrl as string))
    t = await createTestApp({ databaseHost: proxy.host })
    // The real pages, compiled by Vite as in development (the React Router plugin's server build).
    vite = await createViteServer({ server: { middlewareMode: true, hmr: false }, appType: 'custom', logLevel: 'silent' })
    const logger = pino({ level: 'silent' })
    app = createApp({
      env: testEnv(),
      logger,
      database: t.database,
      services: t.services,
      pages: pages({
        getBuild: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
        mode: 'development',
        services: t.services,
        publicUrl: testEnv().PUBLIC_URL,
      }),
    })
    token = (await t.signUp()).token
    // Everything works before the outage (and the page modules are compiled).
    expect((await request('/api/blog')).status).toBe(200)
    expect((await request('/blog')).status).toBe(200)
  }, 120_000)

  afterAll(async () => {
    // Each step is bounded, so a slow clean-up on a busy machine cannot fail the file.
    const bounded = (step: Promise<unknown> | undefined) => Promise.race([step, new Promise((resolve) => setTimeout(resolve, 20_000))])
    await bounded(vite?.close())
    await bounded(t?.close())
    await bounded(proxy?.close())
  }, 90_000)

  it('answers 503 while the database is away, and works again by itself when it is back', { timeout: 60_000 }, async () => {
    const logger = pino({ level: 'silent' })
    // Background work keeps going through the outage: it must log and retry, not crash or spin.
    const scheduler = createScheduler({ db: t.db, runs: t.services.runs, logger })
    scheduler.start(200)
    const worker = createCloudWorker({
      runQueue: t.services.runQueue,
      runFiles: t.services.runFiles,
      events: t.services.events,
      logger,
      config: {
        concurrency: 1,
        chromiumPath: '/nonexistent/chromium',
        stepTimeoutMs: 1_000,
        timeLimitMs: 5_000,
        maxActions: 10,
        privateTargets: 'none',
        pollMs: 100,
        recoverMs: 200,
      },
    })
    worker.start()

    // System Settings are cached for 2 s: fresh now, the first requests below reach the page
    // loaders and API services themselves; later ones fail earlier, in the maintenance check.
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    expect((await request('/api/health')).status).toBe(200)

    // A transaction holds a connection, idle between two statements, when the database goes.
    let cutDone!: () => void
    const cutHappened = new Promise<void>((resolve) => (cutDone = resolve))
    let inTransaction!: () => void
    const transactionStarted = new Promise<void>((resolve) => (inTransaction = resolve))
    const interrupted = t.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      inTransaction()
      await cutHappened
      await tx.execute(sql`select 1`)
    })
    await transactionStarted

    expect(t.database.contentChanges.seen()).not.toBeNull()
    await proxy.cut()
    cutDone()
    await expect(interrupted).rejects.toThrow()
    // No connection listens: a change made meanwhile could go unheard, so kept pages read the version again.
    await within(RECOVERY_LIMIT_MS, async () => (t.database.contentChanges.seen() === null ? true : undefined))

    // A page whose loader fails: the 503 page, not the generic error screen.
    const page = await request('/blog')
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('retry-after')).toBe('5')
    const html = await page.text()
    expect(html).toContain(DATABASE_UNAVAILABLE_MESSAGE)
    expect(html).not.toContain('ECONNREFUSED')
    // A client-side navigation's data request: the browser's error boundary shows the 503.
    expect((await request('/blog.data')).status).toBe(503)

    const api = await request('/api/blog')
    expect(api.status).toBe(503)
    expect(api.headers.get('retry-after')).toBe('5')
    expect(await api.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' })

    // A signed-in caller is not silently signed out: the session lookup fails with 503 too.
    const me = await request('/api/auth/me', { token })
    expect(me.status).toBe(503)
    expect(await me.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' })

    const started = performance.now()
    const health = await request('/api/health')
    expect(performance.now() - started).toBeLessThan(4_000)
    expect(health.status).toBe(503)
    expect(await health.json()).toMatchObject({
      status: 'degraded',
      database: { kind: 'postgres', ok: false },
      message: expect.stringMatching(/database is unreachable/),
    })

    // A while into the outage (the settings cache has expired): still 503, and the process is fine.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect((await request('/api/blog')).status).toBe(503)
    expect((await request('/blog')).status).toBe(503)

    await proxy.restore()
    const restored = performance.now()
    await within(RECOVERY_LIMIT_MS, async () => ((await request('/api/blog')).status === 200 ? true : undefined))
    const apiBackMs = performance.now() - restored
    expect((await request('/api/health')).status).toBe(200)
    expect((await request('/blog')).status).toBe(200)
    expect((await request('/api/auth/me', { token })).status).toBe(200)

    // Live events travel through LISTEN/NOTIFY: the listening connection is back and listens again.
    const heard: InquiryEvent[] = []
    const stop = t.services.events.subscribe('inquiry', (event) => heard.push(event))
    try {
      await within(RECOVERY_LIMIT_MS, async () => {
        t.services.events.publish('inquiry', { type: 'updated', id: 'outage-test' })
        await new Promise((resolve) => setTimeout(resolve, 200))
        return heard.some((event) => event.id === 'outage-test') ? true : undefined
      })
    } finally {
      stop()
    }
    const eventsBackMs = performance.now() - restored
    // And the page cache trusts what it hears again.
    await within(RECOVERY_LIMIT_MS, async () => (t.database.contentChanges.seen() !== null ? true : undefined))
    expect(apiBackMs).toBeLessThan(RECOVERY_LIMIT_MS)
    expect(eventsBackMs).toBeLessThan(RECOVERY_LIMIT_MS)

    await scheduler.stop()
    await worker.stop(1_000)
  })
})
