import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from './app-env.ts'
import { sameOriginGuard } from './same-origin.ts'

function guarded(publicUrl: string) {
  const app = new Hono<AppEnv>()
  app.use(sameOriginGuard(publicUrl))
  app.all('*', (c) => c.json({ ok: true }))
  // Browsers attach our cookies to cross-site requests: that is the case the guard exists for.
  return (method: string, origin?: string, cookie: string | null = 'auth_session=abc', url = 'http://app.internal/api/thing') =>
    app.request(url, { method, headers: { ...(origin === undefined ? {} : { origin }), ...(cookie ? { cookie } : {}) } })
}

describe('sameOriginGuard (requests carrying cookies)', () => {
  const request = guarded('https://aether.example.com/')

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s from another site with 403 JSON', async (method) => {
    const response = await request(method, 'https://evil.example')
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ message: expect.any(String) })
  })

  it('accepts the public origin, and the origin the request was addressed to', async () => {
    expect((await request('POST', 'https://aether.example.com')).status).toBe(200)
    expect((await request('POST', 'http://app.internal')).status).toBe(200)
  })

  it('refuses look-alike origins', async () => {
    for (const origin of [
      'https://aether.example.com.evil.example',
      'http://aether.example.com',
      'https://aether.example.com:8443',
      'https://sub.aether.example.com',
      'null',
    ]) {
      expect((await request('POST', origin)).status, origin).toBe(403)
    }
  })

  it('lets requests without an Origin header through (API clients)', async () => {
    expect((await request('POST')).status).toBe(200)
  })

  it('guards any cookie, not only the session cookie', async () => {
    expect((await request('POST', 'https://evil.example', 'theme=dark')).status).toBe(403)
  })

  it('lets cross-origin requests without cookies through (bearer-token clients cannot ride on a browser session)', async () => {
    expect((await request('POST', 'https://evil.example', null)).status).toBe(200)
    expect((await request('PUT', 'chrome-extension://abcdef', null)).status).toBe(200)
  })

  it('lets safe methods through from any origin', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect((await request(method, 'https://evil.example')).status, method).toBe(200)
  })
})

describe('sameOriginGuard (page form posts)', () => {
  const request = guarded('https://aether.example.com/')
  const page = 'http://app.internal/preferences'

  it('refuses a form posted from another site even without cookies (it could set consent or theme and redirect)', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const response = await request('POST', origin, null, page)
      expect(response.status, origin).toBe(403)
      expect(await response.text()).toBe('Cross-origin form submission refused.')
    }
  })

  it('refuses a post the browser marks as started by another site, whatever Origin says', async () => {
    const app = new Hono<AppEnv>().use(sameOriginGuard('https://aether.example.com/')).all('*', (c) => c.text('ok'))
    for (const site of ['cross-site', 'same-site']) {
      const response = await app.request(page, { method: 'POST', headers: { 'sec-fetch-site': site } })
      expect(response.status, site).toBe(403)
    }
    expect((await app.request(page, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200)
  })

  it('accepts our own pages, and posts without Origin (scripts, old clients)', async () => {
    expect((await request('POST', 'https://aether.example.com', null, page)).status).toBe(200)
    expect((await request('POST', undefined, null, page)).status).toBe(200)
  })
})
