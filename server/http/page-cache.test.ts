import { createHash } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import type { AppSettings } from '#common/settings.ts'
import type { Services } from '#server/services.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'
import type { AppEnv } from './app-env.ts'
import { withScriptHashes } from './kept-page-scripts.ts'
import { pageCache } from './page-cache.ts'
import { preferredEncoding } from './page-encodings.ts'
import { readAfterArrival } from './read-after-arrival.ts'
import { securityHeaderList, securityHeaders } from './security-headers.ts'
import { cspDirectives } from '#server/testing/csp-directives.ts'

const PUBLIC = 'public, max-age=60, s-maxage=300'
const HEADER_OPTIONS = { isProduction: true }

/** What a post's text could smuggle in: markup of its own, which must never run. */
const INJECTED = '<script>alert("injected")</script>'

/**
 * A stand-in for the React Router pages, in the order of server/app.ts (serve, then the security
 * headers with their nonce, then keep around the renderer). It counts renders and puts the
 * request's nonce where React Router does: on inline scripts and links, and in the loader data.
 */
function setup(options: { maxAgeMs?: number; maxEntries?: number; readVersion?: () => Promise<string | null> } = {}) {
  let version: string | null = 'v1'
  /** The version heard from the database's announcements; null: not listening, read it. */
  let heard: string | null = null
  let renders = 0
  let versionReads = 0
  let maintenance = false
  const answer: {
    status: number
    cacheControl: string
    setCookie?: string
    contentType: string
    extra: string
    /** Held until it settles: a render that takes its time. */
    delay?: Promise<unknown>
  } = {
    status: 200,
    cacheControl: PUBLIC,
    contentType: 'text/html; charset=utf-8',
    extra: '',
  }
  const app = new Hono<AppEnv>()
  const readVersion =
    options.readVersion ??
    (async () => {
      versionReads++
      return version
    })
  const cache = pageCache({
    readVersion,
    heardVersion: () => heard,
    securityHeaders: (sources) => securityHeaderList(HEADER_OPTIONS, sources),
    maintenance: async () => maintenance,
    maxAgeMs: options.maxAgeMs,
    maxEntries: options.maxEntries,
  })
  app.use(cache.serve)
  app.use(securityHeaders(HEADER_OPTIONS))
  app.use(async (c, next) => {
    // As in the app: pages know their caller from the session cookie only (credentials.ts).
    const signedIn = c.req.header('cookie')?.includes('auth_session=')
    c.set('user', signedIn ? ({ id: 'u1' } as AppEnv['Variables']['user']) : null)
    await next()
  })
  app.all('*', cache.keep, async (c) => {
    const render = ++renders
    if (answer.delay) await answer.delay
    const nonce = c.get('cspNonce')
    const headers: Record<string, string> = { 'Cache-Control': answer.cacheControl, 'Content-Type': answer.contentType, Vary: 'Cookie' }
    if (answer.setCookie) headers['Set-Cookie'] = answer.setCookie
    const html =
      `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/entry.js" nonce="${nonce}"/>` +
      `<link nonce="${nonce}" rel="stylesheet" href="/assets/app.css"/></head><body>` +
      `<p>render ${render} of ${c.req.path}</p>${answer.extra}` +
      `<script type="application/ld+json" nonce="${nonce}">{"@type":"Organization"}</script>` +
      `<script nonce="${nonce}">window.__ctx = {"cspNonce":"${nonce}"}</script>` +
      `<script nonce="${nonce}" type="module" async="">import "/assets/entry.js";</script>` +
      `</body></html>`
    return new Response(html, { status: answer.status, headers })
  })
  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await app.request(path, { headers })
    return { response, body: await response.text() }
  }
  async function getBytes(path: string, headers: Record<string, string> = {}) {
    const response = await app.request(path, { headers })
    return { response, bytes: Buffer.from(await response.arrayBuffer()) }
  }
  return {
    app,
    get,
    getBytes,
    answer,
    renders: () => renders,
    versionReads: () => versionReads,
    setVersion: (next: string | null) => (version = next),
    setHeard: (next: string | null) => (heard = next),
    setMaintenance: (on: boolean) => (maintenance = on),
  }
}

/** The inline scripts of a page (JSON-LD data blocks too), each as its CSP hash. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((match) => !/\ssrc=/.test(match[1] ?? ''))
    .map(
      (match) =>
        `'sha256-${createHash('sha256')
          .update(match[2] ?? '')
          .digest('base64')}'`,
    )
}

const withoutNonce = (html: string, nonce: string) => html.replaceAll(` nonce="${nonce}"`, '').replaceAll(nonce, '')
const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]

describe('the page cache', () => {
  it('renders a shareable page once, then answers from memory with no nonce: the CSP lists the hashes of exactly its scripts', async () => {
    const s = setup()
    s.answer.extra = INJECTED
    const first = await s.get('/blog')
    const second = await s.get('/blog')
    const third = await s.get('/blog')
    expect(s.renders()).toBe(1)
    // The first answer is the render itself, with its nonce.
    const nonce = nonceOf(first.response)
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/)
    expect(first.body).toContain(` nonce="${nonce}"`)
    // The kept page: the same page without the nonce, in its attributes and in the loader data.
    expect(second.body).toBe(withoutNonce(first.body, nonce!))
    expect(second.body).not.toMatch(/\snonce=/i)
    expect(second.body).not.toContain(nonce)
    expect(second.body).toContain('window.__ctx = {"cspNonce":""}')
    expect(third.body).toBe(second.body)
    const script = cspDirectives(second.response.headers.get('content-security-policy')).get('script-src') ?? []
    expect(script.filter((source) => source.startsWith("'nonce-"))).toEqual([])
    expect(script).not.toContain("'unsafe-inline'")
    // Exactly the three scripts the render signed (the JSON-LD block too); not the injected one.
    const injected = `'sha256-${createHash('sha256').update('alert("injected")').digest('base64')}'`
    const hashes = script.filter((source) => source.startsWith("'sha256-"))
    expect(hashes).toHaveLength(3)
    expect(new Set(hashes)).toEqual(new Set(inlineScriptHashes(second.body).filter((hash) => hash !== injected)))
    expect(hashes).not.toContain(injected)
    expect(script).toEqual(["'self'", ...hashes])
    expect(second.response.headers.get('content-security-policy')).toBe(third.response.headers.get('content-security-policy'))
  })

  it('answers with the same headers as the render, but for the script sources and the encoding', async () => {
    const s = setup()
    const first = await s.get('/about')
    const second = await s.get('/about')
    expect(s.renders()).toBe(1)
    const headersOf = (response: Response) => {
      const all = Object.fromEntries(response.headers)
      const csp = cspDirectives(all['content-security-policy'] ?? null)
      csp.set(
        'script-src',
        (csp.get('script-src') ?? []).filter((source) => !/^'(nonce|sha256)-/.test(source)),
      )
      const { 'content-security-policy': _csp, 'content-length': _length, etag: _etag, vary, ...rest } = all
      return { ...rest, vary: vary?.replace(/, Accept-Encoding$/, ''), csp: [...csp] }
    }
    expect(headersOf(second.response)).toEqual(headersOf(first.response))
    for (const name of [
      'strict-transport-security',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'permissions-policy',
    ]) {
      expect(second.response.headers.get(name), name).toBe(first.response.headers.get(name))
    }
    expect(second.response.headers.get('cache-control')).toBe(PUBLIC)
    expect(second.response.headers.get('vary')).toBe('Cookie, Accept-Encoding')
  })

  it('keeps the page gzipped and brotli-compressed, chosen by Accept-Encoding, each decoding to the same HTML', async () => {
    const s = setup()
    const plain = await s.get('/services')
    expect(s.renders()).toBe(1)
    const identity = await s.getBytes('/services')
    expect(identity.response.headers.get('content-encoding')).toBeNull()
    expect(identity.response.headers.get('content-length')).toBe(String(identity.bytes.length))
    const html = identity.bytes.toString('utf8')
    expect(html).toBe(withoutNonce(plain.body, nonceOf(plain.response)!))

    const gzipped = await s.getBytes('/services', { 'accept-encoding': 'gzip, deflate' })
    expect(gzipped.response.headers.get('content-encoding')).toBe('gzip')
    expect(gzipped.response.headers.get('content-length')).toBe(String(gzipped.bytes.length))
    expect(gunzipSync(gzipped.bytes).toString('utf8')).toBe(html)

    // Brotli is made on the first hit that asks for it; gzip answers until it is ready.
    let brotli = await s.getBytes('/services', { 'accept-encoding': 'gzip, deflate, br' })
    for (let i = 0; i < 50 && brotli.response.headers.get('content-encoding') !== 'br'; i++) {
      expect(brotli.response.headers.get('content-encoding')).toBe('gzip')
      await new Promise((resolve) => setTimeout(resolve, 10))
      brotli = await s.getBytes('/services', { 'accept-encoding': 'gzip, deflate, br' })
    }
    expect(brotli.response.headers.get('content-encoding')).toBe('br')
    expect(brotli.response.headers.get('content-length')).toBe(String(brotli.bytes.length))
    expect(brotliDecompressSync(brotli.bytes).toString('utf8')).toBe(html)
    expect(brotli.bytes.length).toBeLessThan(identity.bytes.length)

    // One representation per encoding, each with its own validator; the same CSP on all.
    const etags = [identity, gzipped, brotli].map((variant) => variant.response.headers.get('etag'))
    expect(new Set(etags).size).toBe(3)
    const csps = [identity, gzipped, brotli].map((variant) => variant.response.headers.get('content-security-policy'))
    expect(new Set(csps).size).toBe(1)
    for (const variant of [identity, gzipped, brotli]) expect(variant.response.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(s.renders()).toBe(1)
  })

  it('answers 304 to a request that has the same representation, with the same headers', async () => {
    const s = setup()
    await s.get('/pricing')
    const gzipped = await s.getBytes('/pricing', { 'accept-encoding': 'gzip' })
    const etag = gzipped.response.headers.get('etag')!
    const again = await s.get('/pricing', { 'accept-encoding': 'gzip', 'if-none-match': `W/"other", ${etag}` })
    expect(again.response.status).toBe(304)
    expect(again.body).toBe('')
    expect(again.response.headers.get('etag')).toBe(etag)
    expect(again.response.headers.get('content-security-policy')).toBe(gzipped.response.headers.get('content-security-policy'))
    // Another representation's tag does not match.
    expect((await s.get('/pricing', { 'if-none-match': etag })).response.status).toBe(200)
  })

  it('reads Accept-Encoding with its weights', () => {
    expect(preferredEncoding(undefined)).toBe('identity')
    expect(preferredEncoding('gzip, deflate, br')).toBe('br')
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(preferredEncoding('gzip')).toBe('gzip')
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip')
    expect(preferredEncoding('BR;Q=0.1')).toBe('br')
    expect(preferredEncoding('*')).toBe('br')
    expect(preferredEncoding('*;q=0, gzip')).toBe('gzip')
    expect(preferredEncoding('identity')).toBe('identity')
    expect(preferredEncoding('gzip;q=0')).toBe('identity')
  })

  it('keeps pages apart by address, query included', async () => {
    const s = setup()
    await s.get('/blog')
    await s.get('/blog?page=2')
    await s.get('/services')
    await s.get('/blog?page=2')
    expect(s.renders()).toBe(3)
    expect((await s.get('/blog?page=2')).body).toContain('render 2 of /blog')
  })

  it('keys by path and query only: another Host header gets the same page', async () => {
    const s = setup()
    await s.get('http://aether.test/pricing')
    const other = await s.get('http://evil.example/pricing', { host: 'evil.example' })
    expect(s.renders()).toBe(1)
    expect(other.body).toContain('render 1 of /pricing')
  })

  it('leaves data requests, the route manifest, files and the API alone, without reading the version', async () => {
    const s = setup()
    for (const path of ['/blog.data', '/__manifest?p=%2Fblog', '/blog/rss.xml', '/og.png', '/robots.txt', '/api/blog', '/api']) {
      await s.get(path)
      await s.get(path)
    }
    expect(s.renders()).toBe(14)
    expect(s.versionReads()).toBe(0)
  })

  it('renders again when the public content changed', async () => {
    const s = setup()
    await s.get('/')
    s.setVersion('v2')
    expect((await s.get('/')).body).toContain('render 2')
    expect((await s.get('/')).body).toContain('render 2')
    expect(s.renders()).toBe(2)
  })

  it('takes the version it heard of without reading it, and reads it while it hears nothing', async () => {
    const s = setup()
    s.setHeard('heard:1')
    await s.get('/')
    expect((await s.get('/')).body).toContain('render 1')
    expect(s.versionReads()).toBe(0)
    s.setHeard('heard:2')
    expect((await s.get('/')).body).toContain('render 2')
    expect((await s.get('/')).body).toContain('render 2')
    expect(s.versionReads()).toBe(0)
    // Nobody listens (the connection was lost): every hit reads the version again.
    s.setHeard(null)
    expect((await s.get('/')).body).toContain('render 3')
    expect((await s.get('/')).body).toContain('render 3')
    expect(s.versionReads()).toBe(2)
    expect(s.renders()).toBe(3)
  })

  it('renders again once a page is older than its maximum age', async () => {
    const s = setup({ maxAgeMs: 30 })
    await s.get('/about')
    await new Promise((resolve) => setTimeout(resolve, 40))
    await s.get('/about')
    expect(s.renders()).toBe(2)
  })

  it('never serves a kept page to a signed-in caller, a request with cookies or a bearer token: those render with their own nonce', async () => {
    const s = setup()
    await s.get('/')
    const callers: Record<string, string>[] = [
      { cookie: 'auth_session=abc.def' },
      { cookie: 'aether_theme=light' },
      { authorization: 'Bearer abc' },
    ]
    for (const headers of callers) {
      const { response, body } = await s.get('/', headers)
      const nonce = nonceOf(response)
      expect(nonce, JSON.stringify(headers)).toMatch(/^[A-Za-z0-9+/=]{20,}$/)
      expect(body).toContain(`<script nonce="${nonce}">window.__ctx = {"cspNonce":"${nonce}"}</script>`)
      expect(response.headers.get('content-security-policy')).not.toContain("'sha256-")
    }
    expect(s.renders()).toBe(4)
    // Nor is anything they were answered kept for others.
    expect((await s.get('/')).body).toContain('render 1 of /')
  })

  it('keeps nothing the page did not mark public, nor errors, cookies or non-HTML answers', async () => {
    const s = setup()
    for (const change of [
      { cacheControl: 'private, no-store' },
      { status: 404 },
      { setCookie: 'aether_flash=; Max-Age=0' },
      { contentType: 'application/json' },
    ]) {
      Object.assign(s.answer, { status: 200, cacheControl: PUBLIC, setCookie: undefined, contentType: 'text/html' }, change)
      const before = s.renders()
      await s.get(`/case-${before}`)
      await s.get(`/case-${before}`)
      expect(s.renders(), JSON.stringify(change)).toBe(before + 2)
    }
  })

  it('keeps nothing while the version cannot be read, and a failed read is no error', async () => {
    const s = setup()
    s.setVersion(null)
    await s.get('/')
    await s.get('/')
    expect(s.renders()).toBe(2)
    const failing = setup({ readVersion: () => Promise.reject(new Error('database unavailable')) })
    expect((await failing.get('/')).response.status).toBe(200)
    expect((await failing.get('/')).response.status).toBe(200)
    expect(failing.renders()).toBe(2)
  })

  it('serves nothing kept during maintenance: the request goes down the chain to the maintenance page', async () => {
    const s = setup()
    await s.get('/')
    s.setMaintenance(true)
    expect((await s.get('/')).body).toContain('render 2')
    expect(s.versionReads()).toBe(1)
    s.setMaintenance(false)
    expect((await s.get('/')).body).toContain('render 1')
  })

  it('lets requests for a page being rendered under the same version wait for that render, instead of rendering it again', async () => {
    const s = setup()
    let release = () => {}
    s.answer.delay = new Promise<void>((resolve) => (release = resolve))
    const answers = Array.from({ length: 5 }, () => s.get('/blog'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(s.renders()).toBe(1)
    release()
    const [first, ...others] = await Promise.all(answers)
    expect(s.renders()).toBe(1)
    const kept = withoutNonce(first!.body, nonceOf(first!.response)!)
    for (const other of others) {
      expect(other.body).toBe(kept)
      expect(other.response.headers.get('content-security-policy')).toContain("'sha256-")
    }
  })

  it('lets the waiting requests render for themselves when the page they waited for was not kept', async () => {
    const s = setup()
    let release = () => {}
    s.answer.delay = new Promise<void>((resolve) => (release = resolve))
    s.answer.status = 404
    const answers = Array.from({ length: 3 }, () => s.get('/gone'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(s.renders()).toBe(1)
    release()
    for (const { response } of await Promise.all(answers)) expect(response.status).toBe(404)
    expect(s.renders()).toBe(3)
  })

  it('does not let a request wait for a render under an older version', async () => {
    const s = setup()
    let release = () => {}
    s.answer.delay = new Promise<void>((resolve) => (release = resolve))
    const first = s.get('/news')
    await new Promise((resolve) => setTimeout(resolve, 20))
    s.setVersion('v2')
    const second = s.get('/news')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(s.renders()).toBe(2)
    release()
    const answers = await Promise.all([first, second])
    expect(answers.map((answer) => /render (\d)/.exec(answer.body)?.[1]).sort()).toEqual(['1', '2'])
    // The page rendered under v2 is the one kept.
    expect((await s.get('/news')).body).toMatch(/render 2/)
  })

  it('holds at most maxEntries pages, dropping the least recently used', async () => {
    const s = setup({ maxEntries: 2 })
    await s.get('/a')
    await s.get('/b')
    await s.get('/a')
    await s.get('/c')
    expect(s.renders()).toBe(3)
    await s.get('/a')
    expect(s.renders()).toBe(3)
    await s.get('/b')
    expect(s.renders()).toBe(4)
  })

  it('shows a change committed before a request arrived, although a version read that began earlier is still running', async () => {
    // The database: a version, and reads that answer what was committed when they began, held
    // until the test lets them finish.
    let committed = 'v1'
    const reads: { sawVersion: string; finish: () => void }[] = []
    const readVersion = () =>
      new Promise<string>((resolve) => {
        const sawVersion = committed
        reads.push({ sawVersion, finish: () => resolve(sawVersion) })
      })
    const s = setup({ readVersion })
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    }
    const drain = async (request: Promise<unknown>) => {
      let done = false
      void request.then(() => (done = true))
      for (let i = 0; i < 50 && !done; i++) {
        await settle()
        for (const read of reads.splice(0)) read.finish()
      }
      return request
    }
    await drain(s.get('/'))
    expect(s.renders()).toBe(1)
    await drain(s.get('/'))
    expect(s.renders()).toBe(1)

    // A arrives: its read begins and sees v1. Then a change commits, then B arrives.
    const a = s.get('/')
    await settle()
    expect(reads.map((read) => read.sawVersion)).toEqual(['v1'])
    committed = 'v2'
    const b = s.get('/')
    const c = s.get('/')
    await settle()
    // B and C wait for a read of their own, which begins only when A's ends: one read for both.
    expect(reads).toHaveLength(1)
    reads.shift()!.finish()
    await settle()
    expect(reads.map((read) => read.sawVersion)).toEqual(['v2'])
    reads.shift()!.finish()
    const [answerA, answerB, answerC] = await Promise.all([a, b, c])
    // A may have the kept page (it arrived before the change); B and C must not.
    expect(answerA.body).toContain('render 1')
    expect(answerB.body).toContain('render 2')
    expect(answerC.body).toMatch(/render [23]/)
  })
})

describe('readAfterArrival', () => {
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  }
  /** A read that sees `value` when it begins and answers when the test lets it. */
  function controlled() {
    const state = { value: 0, started: [] as number[], pending: [] as (() => void)[] }
    const read = readAfterArrival(
      () =>
        new Promise<number>((resolve) => {
          const seen = state.value
          state.started.push(seen)
          state.pending.push(() => resolve(seen))
        }),
    )
    return { state, read }
  }

  it('gives the callers of one turn of the event loop one read, begun after they called', async () => {
    const { state, read } = controlled()
    const together = Array.from({ length: 10 }, () => read())
    expect(state.started).toEqual([])
    await settle()
    expect(state.started).toEqual([0])
    state.pending.shift()!()
    expect(await Promise.all(together)).toEqual(Array(10).fill(0))
  })

  it('never gives a caller a read that began before its call: it waits for the next one, shared with the others waiting', async () => {
    const { state, read } = controlled()
    const first = read()
    await settle()
    expect(state.started).toEqual([0])
    state.value = 1
    const waiting = Array.from({ length: 10 }, () => read())
    await settle()
    // The next read begins only when the running one ended.
    expect(state.started).toEqual([0])
    state.pending.shift()!()
    expect(await first).toBe(0)
    await settle()
    expect(state.started).toEqual([0, 1])
    state.value = 2
    const later = read()
    await settle()
    expect(state.started).toEqual([0, 1])
    state.pending.shift()!()
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(1))
    await settle()
    expect(state.started).toEqual([0, 1, 2])
    state.pending.shift()!()
    expect(await later).toBe(2)
  })

  it('passes a failed read to its callers, and reads again for the next ones', async () => {
    let fail = true
    const read = readAfterArrival(async () => {
      if (fail) throw new Error('unavailable')
      return 'v1'
    })
    await expect(read()).rejects.toThrow('unavailable')
    fail = false
    expect(await read()).toBe('v1')
  })
})

describe('withScriptHashes', () => {
  const nonce = 'bm9uY2Utb2YtdGhpcy1yZW5kZXI='

  it('hashes the nonced inline scripts as the browser reads them (CR LF as LF)', () => {
    const page = withScriptHashes(`<script nonce="${nonce}">a();\r\nb();\rc()</script>`, nonce)
    expect(page?.html).toBe('<script>a();\r\nb();\rc()</script>')
    expect(page?.scriptHashes).toEqual([`'sha256-${createHash('sha256').update('a();\nb();\nc()').digest('base64')}'`])
  })

  it('keeps no page whose nonce another origin’s script or stylesheet needs, or that has it anywhere else', () => {
    expect(withScriptHashes(`<script nonce="${nonce}" src="https://cdn.example/x.js"></script>`, nonce)).toBeNull()
    expect(withScriptHashes(`<script nonce="${nonce}" src="//cdn.example/x.js"></script>`, nonce)).toBeNull()
    expect(withScriptHashes(`<link nonce="${nonce}" rel="stylesheet" href="https://cdn.example/x.css"/>`, nonce)).toBeNull()
    expect(withScriptHashes(`<style nonce="${nonce}">p{}</style>`, nonce)).toBeNull()
    expect(withScriptHashes(`<p>${nonce}</p>`, nonce)).toBeNull()
    expect(withScriptHashes('<p>no scripts</p>', undefined)).toBeNull()
    expect(withScriptHashes(`<script nonce="${nonce}" src="/assets/a.js"></script>`, nonce)).toEqual({
      html: '<script src="/assets/a.js"></script>',
      scriptHashes: [],
    })
  })

  it('leaves scripts without the nonce as they are, unhashed', () => {
    const page = withScriptHashes(`<script>evil()</script><script nonce="${nonce}">good()</script>`, nonce)
    expect(page?.html).toBe('<script>evil()</script><script>good()</script>')
    expect(page?.scriptHashes).toEqual([`'sha256-${createHash('sha256').update('good()').digest('base64')}'`])
  })
})

describe('the page cache in the production app, on the database', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  /**
   * Changes the settings and waits until this process has heard of it (when it listens), so that
   * no announcement is still on its way when the next test keeps a page.
   */
  async function changeSettings(next: AppSettings) {
    const before = t.services.publicContent.heard()
    await t.services.settings.update(next)
    for (let i = 0; i < 200 && before !== null && t.services.publicContent.heard() === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** The whole production chain (server/app.ts) with a page that shows the site's name, as the root loader does. */
  function production(services: Services = t.services) {
    let renders = 0
    const pages = createMiddleware<AppEnv>(async (c) => {
      renders++
      const { siteName } = await services.settings.get()
      const nonce = c.get('cspNonce')
      const shared = !c.get('user') && !c.req.header('cookie')
      const html = `<!DOCTYPE html><html><body><h1>${siteName}</h1><p>render ${renders}</p><script nonce="${nonce}">window.__ctx={"cspNonce":"${nonce}"}</script></body></html>`
      return new Response(html, {
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': shared ? PUBLIC : 'private, no-store', Vary: 'Cookie' },
      })
    })
    const app = createApp({
      env: testEnv({ isProduction: true }),
      logger: pino({ level: 'silent' }),
      database: t.database,
      services,
      pages,
    })
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await app.request(path, { headers: { 'x-forwarded-for': '203.0.113.90', ...headers } })
      const bytes = Buffer.from(await response.arrayBuffer())
      const encoding = response.headers.get('content-encoding')
      const body = (encoding === 'gzip' ? gunzipSync(bytes) : encoding === 'br' ? brotliDecompressSync(bytes) : bytes).toString('utf8')
      return { response, body }
    }
    return { get, renders: () => renders }
  }

  it('answers a kept page before the rest of the chain, compressed once, with the same security headers and a request id', async () => {
    const p = production()
    const miss = await p.get('/', { 'accept-encoding': 'gzip' })
    const hit = await p.get('/', { 'accept-encoding': 'gzip' })
    expect(p.renders()).toBe(1)
    // compress() gzipped the render; the kept page is gzipped already and not gzipped again.
    expect(miss.response.headers.get('content-encoding')).toBe('gzip')
    expect(hit.response.headers.get('content-encoding')).toBe('gzip')
    expect(hit.body).toBe(withoutNonce(miss.body, nonceOf(miss.response)!))
    for (const name of [
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
      'cache-control',
      'content-type',
      'vary',
    ]) {
      expect(hit.response.headers.get(name), name).toBe(miss.response.headers.get(name))
    }
    const cspWithout = (response: Response) => response.headers.get('content-security-policy')?.replace(/ '(nonce|sha256)-[^']+'/g, '')
    expect(cspWithout(hit.response)).toBe(cspWithout(miss.response))
    expect(cspDirectives(hit.response.headers.get('content-security-policy')).get('script-src')).toEqual([
      "'self'",
      ...inlineScriptHashes(hit.body),
    ])
    expect(hit.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(hit.response.headers.get('x-request-id')).not.toBe(miss.response.headers.get('x-request-id'))
  })

  it('shows a change committed before a request arrived, though an earlier version read was still running', async () => {
    // Version reads that hold their answer until the test lets them go.
    const gates: (() => void)[] = []
    const version = async () => {
      const seen = await t.services.publicContent.version()
      await new Promise<void>((resolve) => gates.push(resolve))
      return seen
    }
    const p = production({ ...t.services, publicContent: { version, heard: () => null } })
    const release = async () => {
      for (let i = 0; i < 200 && gates.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5))
      gates.shift()?.()
    }
    const settings = await t.services.settings.get()
    const first = p.get('/about')
    await release()
    expect((await first).body).toContain(`<h1>${settings.siteName}</h1>`)
    const kept = p.get('/about')
    await release()
    expect((await kept).body).toContain('render 1')

    // A arrives and its version read begins; the change commits; B arrives while A's read runs.
    const a = p.get('/about')
    for (let i = 0; i < 200 && gates.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    await changeSettings({ ...settings, siteName: 'Renamed Before B' })
    // Settings read again (the cache check for maintenance mode then takes no query), B arrives
    // and reaches the version read while A's is still held.
    await t.services.settings.get()
    const b = p.get('/about')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(gates).toHaveLength(1)
    await release()
    await release()
    const [answerA, answerB] = await Promise.all([a, b])
    expect(answerA.body).toContain(`<h1>${settings.siteName}</h1>`)
    expect(answerB.body).toContain('<h1>Renamed Before B</h1>')
    await changeSettings(settings)
  })

  it('shows a change this process committed to the next request, without reading the version for any hit', async () => {
    let reads = 0
    const version = () => {
      reads++
      return t.services.publicContent.version()
    }
    // PostgreSQL: the connection that hears other processes' changes starts beside the pool.
    for (let i = 0; i < 100 && t.services.publicContent.heard() === null; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    const p = production({ ...t.services, publicContent: { version, heard: t.services.publicContent.heard } })
    const settings = await t.services.settings.get()
    expect((await p.get('/pricing')).body).toContain(`<h1>${settings.siteName}</h1>`)
    expect((await p.get('/pricing')).body).toContain('render 1')
    await changeSettings({ ...settings, siteName: 'Renamed Just Now' })
    try {
      await t.services.settings.get()
      expect((await p.get('/pricing')).body).toContain('<h1>Renamed Just Now</h1>')
      expect(reads).toBe(0)
    } finally {
      await changeSettings(settings)
    }
  })

  it('leaves requests with a session or other cookies to the whole chain: rendered, with their own nonce', async () => {
    const p = production()
    const member = await t.signUp()
    await p.get('/contact')
    for (const cookie of [member.cookie, 'aether_theme=light']) {
      const { response, body } = await p.get('/contact', { cookie })
      const nonce = nonceOf(response)
      expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/)
      expect(body).toContain(`<script nonce="${nonce}">`)
      expect(response.headers.get('cache-control')).toBe('private, no-store')
    }
    expect(p.renders()).toBe(3)
  })

  it('answers the maintenance page, not a kept page, while maintenance mode is on', async () => {
    const p = production()
    const settings = await t.services.settings.get()
    await p.get('/careers')
    expect((await p.get('/careers')).response.status).toBe(200)
    expect(p.renders()).toBe(1)
    await changeSettings({ ...settings, maintenanceMode: true })
    try {
      const { response } = await p.get('/careers')
      expect(response.status).toBe(503)
      expect(response.headers.get('content-security-policy')).toMatch(/'nonce-/)
    } finally {
      await changeSettings({ ...settings, maintenanceMode: false })
    }
  })
})
