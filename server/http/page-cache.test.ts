import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from './app-env.ts'
import { pageCache } from './page-cache.ts'

const PUBLIC = 'public, max-age=60, s-maxage=300'

/** A stand-in for the React Router pages: counts renders and puts the request's nonce where pages do. */
function setup(options: { maxAgeMs?: number; maxEntries?: number } = {}) {
  let version: string | null = 'v1'
  let renders = 0
  let versionReads = 0
  const answer: { status: number; cacheControl: string; setCookie?: string; contentType: string } = {
    status: 200,
    cacheControl: PUBLIC,
    contentType: 'text/html; charset=utf-8',
  }
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('cspNonce', randomBytes(16).toString('base64'))
    c.set('user', c.req.header('x-test-user') ? ({ id: 'u1' } as AppEnv['Variables']['user']) : null)
    await next()
  })
  const readVersion = async () => {
    versionReads++
    return version
  }
  app.all('*', pageCache({ readVersion, ...options }), (c) => {
    renders++
    const nonce = c.get('cspNonce')
    const headers: Record<string, string> = { 'Cache-Control': answer.cacheControl, 'Content-Type': answer.contentType }
    if (answer.setCookie) headers['Set-Cookie'] = answer.setCookie
    const html = `<html><script nonce="${nonce}">ctx={"cspNonce":"${nonce}"}</script><p>render ${renders} of ${c.req.path}</p></html>`
    return new Response(html, { status: answer.status, headers })
  })
  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await app.request(path, { headers })
    return { response, body: await response.text() }
  }
  return {
    get,
    answer,
    renders: () => renders,
    versionReads: () => versionReads,
    setVersion: (next: string | null) => (version = next),
  }
}

const noncesIn = (body: string) => [...body.matchAll(/nonce="([^"]+)"|"cspNonce":"([^"]+)"/g)].map((match) => match[1] ?? match[2])

describe('the page cache', () => {
  it('renders a shareable page once, then answers from memory with each request’s own nonce', async () => {
    const s = setup()
    const first = await s.get('/blog')
    const second = await s.get('/blog')
    expect(s.renders()).toBe(1)
    expect(s.versionReads()).toBe(2)
    expect(second.body.replace(/nonce="[^"]+"|"cspNonce":"[^"]+"/g, '')).toBe(first.body.replace(/nonce="[^"]+"|"cspNonce":"[^"]+"/g, ''))
    const [a1, a2] = noncesIn(first.body)
    const [b1, b2] = noncesIn(second.body)
    expect(a1).toBe(a2)
    expect(b1).toBe(b2)
    expect(b1).not.toBe(a1)
    expect(second.response.headers.get('cache-control')).toBe(PUBLIC)
    expect(second.response.headers.get('content-type')).toMatch(/text\/html/)
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

  it('leaves data requests, the route manifest and files alone, without reading the version', async () => {
    const s = setup()
    for (const path of ['/blog.data', '/__manifest?p=%2Fblog', '/blog/rss.xml', '/og.png', '/robots.txt']) {
      await s.get(path)
      await s.get(path)
    }
    expect(s.renders()).toBe(10)
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

  it('renders again once a page is older than its maximum age', async () => {
    const s = setup({ maxAgeMs: 30 })
    await s.get('/about')
    await new Promise((resolve) => setTimeout(resolve, 40))
    await s.get('/about')
    expect(s.renders()).toBe(2)
  })

  it('never serves a kept page to a signed-in caller, a request with cookies or a bearer token', async () => {
    const s = setup()
    await s.get('/')
    await s.get('/', { 'x-test-user': '1' })
    await s.get('/', { cookie: 'aether_theme=light' })
    await s.get('/', { authorization: 'Bearer abc' })
    expect(s.renders()).toBe(4)
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

  it('keeps nothing while the version cannot be read', async () => {
    const s = setup()
    s.setVersion(null)
    await s.get('/')
    await s.get('/')
    expect(s.renders()).toBe(2)
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
})
