import { randomBytes } from 'node:crypto'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apiClient,
  createScratchDatabase,
  ensureFreshBuild,
  postgresReachable,
  SEEDED_ADMIN,
  SEEDED_MEMBER,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '#server/testing/server-process.ts'

// Two real server processes (the production build) on one fresh PostgreSQL database, as behind a
// load balancer: one AUTH_SECRET, one public address, TRUST_PROXY so each request names its client
// in X-Forwarded-For. A session made on one works on the other, the rate limits are one budget,
// and live events cross from one process to the other (LISTEN/NOTIFY). Skipped, and says so,
// without PostgreSQL. It builds (under the shared build lock) when the build is out of date.

const postgres = await postgresReachable('two-processes.test.ts')
const AUTH_SECRET = randomBytes(32).toString('base64url')
/** The address users open; both processes answer for it. */
const PUBLIC_URL = 'http://aether.test'
const EVENT_WAIT_MS = 5_000

/** A client address of its own per test, so no limit carries over from another one. */
let lastOctet = 10
const newClientIp = () => `203.0.113.${lastOctet++}`

interface Call {
  method?: string
  body?: unknown
  ip: string
  cookie?: string
  token?: string
  origin?: string
}

async function call(server: ServerProcess, route: string, init: Call) {
  return fetch(`${server.url}${route}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'x-forwarded-for': init.ip,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.origin ? { origin: init.origin } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

/** `auth_session=<value>` from a response's Set-Cookie headers ('' when it sets none). */
function sessionCookie(response: Response): string {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0] ?? ''
    if (pair.startsWith('auth_session=')) return pair
  }
  return ''
}

interface SseEvent {
  event: string
  data: string
}

/** Follows a server-sent event stream with fetch and a reader; `next` waits for a matching event. */
async function openEventStream(server: ServerProcess, route: string, init: Omit<Call, 'body' | 'method'>) {
  const controller = new AbortController()
  const response = await fetch(`${server.url}${route}`, {
    headers: {
      accept: 'text/event-stream',
      'x-forwarded-for': init.ip,
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    signal: controller.signal,
  })
  const received: SseEvent[] = []
  const waiters = new Set<() => void>()
  let ended = false
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    void (async () => {
      let buffer = ''
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value.replace(/\r\n?/g, '\n')
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            let event = 'message'
            const data: string[] = []
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim()
              else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
            }
            // A block of comments only (the heartbeat) is not an event.
            if (data.length) received.push({ event, data: data.join('\n') })
          }
          for (const wake of waiters) wake()
        }
      } catch {
        // Aborted by close().
      } finally {
        ended = true
        for (const wake of waiters) wake()
      }
    })()
  }
  return {
    response,
    received,
    /** The first event (from `from` on) that `match` accepts, or a failure after `timeoutMs`. */
    async next(match: (event: SseEvent) => boolean, { from = 0, timeoutMs = EVENT_WAIT_MS } = {}): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = received.slice(from).find(match)
        if (found) return found
        const left = deadline - Date.now()
        if (left <= 0 || ended) {
          throw new Error(`no matching event within ${timeoutMs} ms on ${route}; received: ${JSON.stringify(received)}`)
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer)
            waiters.delete(wake)
            resolve()
          }
          const timer = setTimeout(wake, left)
          waiters.add(wake)
        })
      }
    },
    close: () => controller.abort(),
  }
}

describe.skipIf(!postgres)('two server processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
  let a: ServerProcess | undefined
  let b: ServerProcess | undefined
  const streams: { close(): void }[] = []

  const servers = () => {
    if (!a || !b) throw new Error('set-up failed')
    return { a, b, logs: `\nprocess A:\n${a.output()}\nprocess B:\n${b.output()}` }
  }

  beforeAll(async () => {
    ensureFreshBuild()
    database = await createScratchDatabase('aether_two_processes')
    const options = {
      databaseUrl: database.url,
      authSecret: AUTH_SECRET,
      // No cloud worker: the runs here are reported by a client, and no Chromium is needed.
      env: { TRUST_PROXY: 'true', PUBLIC_URL, RUN_WORKER: 'false' },
    }
    // One after the other: the first applies the migrations and seeds, the second finds them done.
    a = await startServerProcess(options)
    b = await startServerProcess(options)
  }, 1_500_000)

  afterAll(async () => {
    for (const stream of streams) stream.close()
    await Promise.all([stopServerProcess(a), stopServerProcess(b)])
    await database?.drop()
  }, 60_000)

  describe('sessions', () => {
    it('accepts on B the cookie A set, and signing out on B ends it on A', async () => {
      const { a, b, logs } = servers()
      const ip = newClientIp()
      const login = await call(a, '/api/auth/login', { body: SEEDED_MEMBER, ip })
      expect(login.status, logs).toBe(200)
      const cookie = sessionCookie(login)
      expect(cookie).toMatch(/^auth_session=.+/)

      const me = await call(b, '/api/auth/me', { cookie, ip })
      expect(me.status, logs).toBe(200)
      expect(((await me.json()) as { data: { email: string } }).data.email).toBe(SEEDED_MEMBER.email)

      // A cookie-bearing POST from another site is refused on B as it would be on A (CSRF)…
      const crossSite = await call(b, '/api/auth/logout', { method: 'POST', cookie, ip, origin: 'http://evil.test' })
      expect(crossSite.status).toBe(403)
      expect((await call(a, '/api/auth/me', { cookie, ip })).status).toBe(200)

      // …and from the public address it signs out, clearing the cookie.
      const logout = await call(b, '/api/auth/logout', { method: 'POST', cookie, ip, origin: PUBLIC_URL })
      expect(logout.status, logs).toBe(200)
      expect(logout.headers.getSetCookie().join('\n')).toMatch(/auth_session=;.*Max-Age=0/i)

      // The session is gone for both processes, not only the one that ended it.
      expect((await call(a, '/api/auth/me', { cookie, ip })).status).toBe(401)
      expect((await call(b, '/api/auth/me', { cookie, ip })).status).toBe(401)
    })

    it('accepts on B the bearer token A issued, and signing out on B ends it on A', async () => {
      const { a, b, logs } = servers()
      const ip = newClientIp()
      const login = await call(a, '/api/auth/login', { body: SEEDED_ADMIN, ip })
      expect(login.status, logs).toBe(200)
      const { token } = ((await login.json()) as { data: { token: string } }).data
      expect(token).toBeTruthy()

      const me = await call(b, '/api/auth/me', { token, ip })
      expect(me.status, logs).toBe(200)
      const user = ((await me.json()) as { data: { email: string; profile: { role: string } } }).data
      expect(user).toMatchObject({ email: SEEDED_ADMIN.email, profile: { role: 'admin' } })
      // An admin on A is an admin on B.
      expect((await call(b, '/api/contact', { token, ip })).status).toBe(200)

      expect((await call(b, '/api/auth/logout', { method: 'POST', token, ip })).status).toBe(200)
      expect((await call(a, '/api/auth/me', { token, ip })).status).toBe(401)
      expect((await call(b, '/api/auth/me', { token, ip })).status).toBe(401)
    })
  })

  describe('rate limits', () => {
    const inquiry = (i: number) => ({
      name: `Visitor ${i}`,
      email: `visitor${i}@example.com`,
      projectType: 'data-scraping',
      message: `Please scrape catalogue ${i}.`,
    })

    it('counts inquiries from one address against one budget of 5, whichever process takes them', async () => {
      const { a, b, logs } = servers()
      const ip = newClientIp()
      // A, B, A, B, A: five accepted, the sixth refused on B as it would be on one process.
      for (let i = 1; i <= 5; i++) {
        const response = await call(i % 2 ? a : b, '/api/contact', { body: inquiry(i), ip })
        expect(response.status, `inquiry ${i}${logs}`).toBe(201)
      }
      const refused = await call(b, '/api/contact', { body: inquiry(6), ip })
      expect(refused.status).toBe(429)
      const body = (await refused.json()) as { message: string; code: string }
      expect(body.message).toBe('You have sent several messages in a short time. Please wait 10 minutes before sending another.')
      // Retry-After is the inquiry window's; the RateLimit-* headers on every /api answer describe the
      // general API limit (next test), not this one.
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(600)
      // Also refused on A: the window is shared, not per process.
      expect((await call(a, '/api/contact', { body: inquiry(7), ip })).status).toBe(429)
      // Another client still gets through.
      expect((await call(a, '/api/contact', { body: inquiry(8), ip: newClientIp() })).status).toBe(201)
    })

    it('counts the general API limit (60 a minute) across both processes, in its RateLimit headers', async () => {
      const { a, b } = servers()
      const ip = newClientIp()
      const limit = 60
      for (let i = 1; i <= limit; i++) {
        const response = await call(i % 2 ? a : b, '/api/auth/me', { ip })
        expect(response.status, `request ${i}`).toBe(401)
        expect(response.headers.get('ratelimit-limit')).toBe(String(limit))
        // One countdown over both processes: A's requests use up what B reports, and back.
        expect(response.headers.get('ratelimit-remaining'), `request ${i}`).toBe(String(limit - i))
        expect(response.headers.get('ratelimit-policy')).toBe(`${limit};w=60`)
      }
      for (const server of [b, a]) {
        const refused = await call(server, '/api/auth/me', { ip })
        expect(refused.status).toBe(429)
        const body = (await refused.json()) as { message: string; code: string }
        expect(body.message).toMatch(/^Too many requests: the limit is 60 per minute\. Please retry in \d+ seconds\.$/)
        expect(refused.headers.get('ratelimit-remaining')).toBe('0')
        expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThan(0)
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      }
    })
  })

  describe('live events', () => {
    it("shows an inquiry posted to A in an admin's inquiry stream on B within seconds", async () => {
      const { a, b, logs } = servers()
      const ip = newClientIp()
      const login = await call(a, '/api/auth/login', { body: SEEDED_ADMIN, ip })
      expect(login.status, logs).toBe(200)
      const cookie = sessionCookie(login)

      const stream = await openEventStream(b, '/api/events/inquiries', { cookie, ip })
      streams.push(stream)
      expect(stream.response.status, logs).toBe(200)
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      await stream.next((event) => event.event === 'ready')

      const started = Date.now()
      const posted = await call(a, '/api/contact', {
        body: { name: 'Live Visitor', email: 'live@example.com', projectType: 'custom-tools', message: 'Live across processes.' },
        ip: newClientIp(),
      })
      expect(posted.status, logs).toBe(201)
      const { id } = ((await posted.json()) as { data: { id: string } }).data

      const created = await stream.next((event) => event.event === 'inquiry' && (JSON.parse(event.data) as { id: string }).id === id)
      expect(JSON.parse(created.data)).toEqual({ type: 'created', id, name: 'Live Visitor' })
      expect(Date.now() - started).toBeLessThan(EVENT_WAIT_MS)

      // An admin's change on A reaches B too.
      const from = stream.received.length
      const marked = await call(a, '/api/contact/' + id, { method: 'PUT', body: { processed: true }, cookie, ip, origin: PUBLIC_URL })
      expect(marked.status, logs).toBe(200)
      const updated = await stream.next((event) => event.event === 'inquiry', { from })
      expect(JSON.parse(updated.data)).toEqual({ type: 'updated', id })

      // The stream is for admins: a member's session is refused on either process.
      const member = await apiClient(a.url).login(SEEDED_MEMBER)
      const refused = await call(b, '/api/events/inquiries', { token: member.token, ip })
      expect(refused.status).toBe(403)
      stream.close()
    })

    it('shows an inquiry posted to A live in the admin page open on B, in Chromium', async () => {
      const { a, b, logs } = servers()
      const login = await call(a, '/api/auth/login', { body: SEEDED_ADMIN, ip: newClientIp() })
      expect(login.status, logs).toBe(200)
      const [name, value] = sessionCookie(login).split('=') as [string, string]
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' })
      try {
        const context = await browser.newContext()
        await context.addCookies([{ name, value, url: b.url }])
        const page = await context.newPage()
        const streamOpen = page.waitForResponse((response) => response.url().endsWith('/api/events/inquiries'))
        await page.goto(`${b.url}/admin/inquiries`)
        expect((await streamOpen).status(), logs).toBe(200)

        const visitor = `Cross Process ${Date.now().toString(36)}`
        const posted = await call(a, '/api/contact', {
          body: { name: visitor, email: 'cross@example.com', projectType: 'data-scraping', message: 'Seen on the other process?' },
          ip: newClientIp(),
        })
        expect(posted.status, logs).toBe(201)
        // The toast comes only from a live event (a re-read after connecting shows none), and the
        // row arrives with the page's revalidation, both without a reload.
        await page.getByText(`From ${visitor}`).waitFor({ timeout: EVENT_WAIT_MS })
        await page.getByRole('row').filter({ hasText: visitor }).waitFor({ timeout: EVENT_WAIT_MS })
      } finally {
        await browser.close()
      }
    })

    it("shows a member's run changed on A in their run stream on B", async () => {
      const { a, b, logs } = servers()
      const ip = newClientIp()
      const member = await apiClient(a.url).login(SEEDED_MEMBER)
      const stream = await openEventStream(b, '/api/runs/events', { token: member.token, ip })
      streams.push(stream)
      expect(stream.response.status, logs).toBe(200)
      await stream.next((event) => event.event === 'ready')

      const { api } = apiClient(a.url)
      const automation = await api('/api/automations', {
        token: member.token,
        body: { name: 'Live runs', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      })
      // Run by the member's extension: no credits, no cloud worker.
      const run = await api(`/api/automations/${automation.id}/runs`, {
        token: member.token,
        body: { where: 'client', trigger: 'extension' },
      })
      const started = await stream.next((event) => event.event === 'run' && (JSON.parse(event.data) as { id: string }).id === run.id)
      expect(JSON.parse(started.data)).toEqual({ id: run.id, status: 'running', automationId: automation.id })

      const from = stream.received.length
      await api(`/api/runs/${run.id}/finish`, { token: member.token, body: { status: 'succeeded', actionsPerformed: 1 } })
      const finished = await stream.next(
        (event) => event.event === 'run' && (JSON.parse(event.data) as { status: string }).status === 'succeeded',
        { from },
      )
      expect(JSON.parse(finished.data)).toEqual({ id: run.id, status: 'succeeded', automationId: automation.id })
      stream.close()
    })
  })
})
