import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The general API limit: the admin's apiRateLimit setting, per minute, per client (user, else address).
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ apiRateLimit: 5 })
})
afterAll(async () => {
  await t.close()
})

const get = (path: string, init: { ip: string; token?: string; headers?: Record<string, string> }) => t.request(path, init)

describe('general API rate limit', () => {
  it('serves 5 requests a minute to one address, then answers 429 JSON with Retry-After', async () => {
    const ip = '203.0.113.101'
    for (let i = 1; i <= 5; i++) {
      const response = await get('/api/auth/me', { ip })
      expect(response.status, `request ${i}`).toBe(401)
      expect(response.headers.get('x-ratelimit-limit')).toBe('5')
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(5 - i))
    }
    const refused = await get('/api/auth/me', { ip })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toMatch(/application\/json/)
    const body = (await refused.json()) as { message: string }
    expect(body.message).toMatch(/too many requests/i)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')

    // Another client is still served.
    expect((await get('/api/auth/me', { ip: '203.0.113.102' })).status).toBe(401)
  })

  it('limits every route under /api, including unknown ones and the docs', async () => {
    const ip = '203.0.113.103'
    const paths = ['/api/openapi.json', '/api/nope', '/api/docs', '/api/auth/me', '/api/nope']
    for (const path of paths) expect((await get(path, { ip })).status).not.toBe(429)
    expect((await get('/api/openapi.json', { ip })).status).toBe(429)
    expect((await get('/api/nope', { ip })).status).toBe(429)
  })

  it('counts a signed-in user by user id, whatever address they come from', async () => {
    const user = await t.signUp()
    for (let i = 1; i <= 5; i++) {
      const response = await get('/api/auth/me', { ip: `203.0.113.${110 + i}`, token: user.token })
      expect(response.status, `request ${i}`).toBe(200)
    }
    const refused = await get('/api/auth/me', { ip: '203.0.113.120', token: user.token })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBeTruthy()

    // The addresses the user came from were not charged: anonymous callers there are still served.
    expect((await get('/api/auth/me', { ip: '203.0.113.111' })).status).toBe(401)
    // And another signed-in user has their own budget.
    const other = await t.signUp()
    expect((await get('/api/auth/me', { ip: '203.0.113.120', token: other.token })).status).toBe(200)
  })

  it('counts IPv6 clients per /64', async () => {
    // Two addresses in 2001:db8:5:6::/64 share one budget.
    for (let i = 1; i <= 3; i++) expect((await get('/api/nope', { ip: `2001:db8:5:6::${i}` })).status).toBe(404)
    for (let i = 1; i <= 2; i++) expect((await get('/api/nope', { ip: `2001:db8:5:6:ffff:0:0:${i}` })).status).toBe(404)
    expect((await get('/api/nope', { ip: '2001:db8:5:6:1234:5678:9abc:def0' })).status).toBe(429)
    // The neighbouring /64 is another client.
    expect((await get('/api/nope', { ip: '2001:db8:5:7::1' })).status).toBe(404)
  })

  it('counts an IPv4-mapped IPv6 address as the IPv4 client', async () => {
    for (let i = 0; i < 3; i++) expect((await get('/api/nope', { ip: '203.0.113.140' })).status).toBe(404)
    for (let i = 0; i < 2; i++) expect((await get('/api/nope', { ip: '::ffff:203.0.113.140' })).status).toBe(404)
    expect((await get('/api/nope', { ip: '203.0.113.140' })).status).toBe(429)
  })

  it('reads the limit from the settings (an admin change applies)', async () => {
    const settings = await t.services.settings.get()
    await t.services.settings.update({ ...settings, apiRateLimit: 2 })
    try {
      const ip = '203.0.113.150'
      expect((await get('/api/nope', { ip })).headers.get('x-ratelimit-limit')).toBe('2')
      expect((await get('/api/nope', { ip })).status).toBe(404)
      expect((await get('/api/nope', { ip })).status).toBe(429)
    } finally {
      await t.services.settings.update({ ...settings, apiRateLimit: 5 })
    }
  })

  it('sends the IETF RateLimit headers next to the X- ones, and Retry-After with the 429', async () => {
    const ip = '203.0.113.170'
    for (let i = 1; i <= 5; i++) {
      const response = await get(i % 2 ? '/api/auth/me' : '/api/nope', { ip })
      expect(response.status, `request ${i}`).not.toBe(429)
      expect(response.headers.get('ratelimit-limit')).toBe('5')
      expect(response.headers.get('ratelimit-remaining')).toBe(String(5 - i))
      expect(response.headers.get('ratelimit-policy')).toBe('5;w=60')
      const reset = Number(response.headers.get('ratelimit-reset'))
      expect(reset).toBeGreaterThan(0)
      expect(reset).toBeLessThanOrEqual(60)
      expect(response.headers.get('x-ratelimit-limit')).toBe('5')
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(5 - i))
    }
    const refused = await get('/api/auth/me', { ip })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('ratelimit-policy')).toBe('5;w=60')
    const retryAfter = refused.headers.get('retry-after')
    expect(Number(retryAfter)).toBeGreaterThan(0)
    expect(refused.headers.get('ratelimit-reset')).toBe(retryAfter)
  })

  it('limits image uploads too (they have their own body limit, not their own budget)', async () => {
    const ip = '203.0.113.180'
    const upload = () => {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(16)], { type: 'image/png' }), 'cover.png')
      return t.app.request('/api/uploads/covers', { method: 'POST', body: form, headers: { 'x-forwarded-for': ip } })
    }
    for (let i = 1; i <= 5; i++) {
      const response = await upload()
      expect(response.status, `upload ${i}`).toBe(401)
      expect(response.headers.get('ratelimit-remaining')).toBe(String(5 - i))
    }
    const refused = await upload()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBeTruthy()
    // The budget is the one the rest of the API uses.
    expect((await get('/api/nope', { ip })).status).toBe(429)
  })

  it('does not limit the health check (monitoring polls it)', async () => {
    const ip = '203.0.113.160'
    for (let i = 0; i < 8; i++) expect((await get('/api/health', { ip })).status).toBe(200)
  })
})
