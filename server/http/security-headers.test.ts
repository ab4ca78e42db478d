import { Hono } from 'hono'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { createServices } from '#server/services.ts'
import { createTestApp, testEnv, type TestApp } from '#server/testing/create-test-app.ts'
import type { AppEnv } from './app-env.ts'
import { nextNonce, securityHeaders } from './security-headers.ts'
import { cspDirectives } from '#server/testing/csp-directives.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

function expectBaseHeaders(response: Response) {
  const csp = cspDirectives(response.headers.get('content-security-policy'))
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(csp.get('default-src')).toEqual(["'self'"])
  expect(csp.get('object-src')).toEqual(["'none'"])
  expect(csp.get('base-uri')).toEqual(["'self'"])
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
  expect(csp.get('script-src')).toContain("'self'")
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  expect(response.headers.get('x-frame-options')).toBe('DENY')
}

describe('security headers (development build: isProduction false)', () => {
  it('are on an API response', async () => {
    const response = await t.request('/api/auth/me')
    expect(response.status).toBe(401)
    expectBaseHeaders(response)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })

  it('are on the health route', async () => {
    const response = await t.request('/api/health')
    expect(response.status).toBe(200)
    expectBaseHeaders(response)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })

  it('are on error responses too (404, 400, 403, 413)', async () => {
    expectBaseHeaders(await t.request('/api/nope'))
    expectBaseHeaders(await t.request('/api/auth/login', { body: {} }))
    expectBaseHeaders(await t.request('/api/auth/login', { body: {}, headers: { origin: 'https://evil.example' } }))
    expectBaseHeaders(await t.request('/api/auth/login', { body: 'x'.repeat(1024 * 1024 + 1) }))
  })

  it('are on paths outside /api', async () => {
    const response = await t.request('/no-such-page')
    expectBaseHeaders(response)
  })

  it('carry a fresh script nonce on every response', async () => {
    const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    const first = nonceOf(await t.request('/api/health'))
    const second = nonceOf(await t.request('/api/health'))
    expect(first).toMatch(/^[A-Za-z0-9+/=]{20,}$/)
    expect(second).toBeDefined()
    expect(first).not.toBe(second)
  })
})

describe('security headers in production', () => {
  const production = () =>
    createApp({
      env: testEnv({ isProduction: true }),
      logger: pino({ level: 'silent' }),
      database: t.database,
      services: t.services,
    })

  it('add HSTS and drop the development allowances from the CSP', async () => {
    const app = production()
    for (const path of ['/api/health', '/api/auth/me', '/api/nope']) {
      const response = await app.request(path, { headers: { 'x-forwarded-for': '203.0.113.200' } })
      expectBaseHeaders(response)
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=(\d+)/)
      const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('strict-transport-security') ?? '')?.[1])
      expect(maxAge).toBeGreaterThanOrEqual(15_552_000)
      const csp = cspDirectives(response.headers.get('content-security-policy'))
      expect(csp.get('script-src')).not.toContain("'unsafe-eval'")
      expect(csp.get('connect-src')).toEqual(["'self'"])
    }
  })

  it('mark the session cookie Secure, HttpOnly and SameSite=Lax in production', async () => {
    // The Secure attribute comes from the auth configuration, so build production services on the same database.
    const services = createServices({
      database: t.database,
      env: testEnv({ isProduction: true }),
      logger: pino({ level: 'silent' }),
      authSecret: 'another-test-secret-that-is-long-enough-0123',
    })
    const app = createApp({ env: testEnv({ isProduction: true }), logger: pino({ level: 'silent' }), database: t.database, services })
    const user = await t.signUp({ password: 'production-cookie' })
    const login = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.201' },
      body: JSON.stringify({ email: user.email, password: 'production-cookie' }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().find((value) => value.startsWith('auth_session='))
    expect(cookie).toMatch(/;\s*Secure/i)
    expect(cookie).toMatch(/;\s*HttpOnly/i)
    expect(cookie).toMatch(/;\s*SameSite=Lax/i)
  })
})

describe('securityHeaders middleware alone', () => {
  it('sets the nonce for the page renderer and the headers after the handler', async () => {
    const app = new Hono<AppEnv>()
    app.use(securityHeaders({ isProduction: false }))
    app.get('/', (c) => c.text(c.get('cspNonce')))
    const response = await app.request('/')
    const nonce = await response.text()
    expect(nonce.length).toBeGreaterThan(10)
    expect(response.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })
})

describe('Paddle checkout allowances', () => {
  async function headersWith(paddle: boolean) {
    const app = new Hono<AppEnv>()
    app.use(securityHeaders({ isProduction: true, paddle }))
    app.get('/', (c) => c.text('ok'))
    return (await app.request('/')).headers
  }

  it('without Paddle: no third-party scripts or frames, no payment API', async () => {
    const headers = await headersWith(false)
    const csp = cspDirectives(headers.get('content-security-policy'))
    expect(csp.get('script-src')?.join(' ')).not.toContain('paddle')
    expect(csp.get('frame-src')).toEqual(["'none'"])
    expect(csp.get('form-action')).toEqual(["'self'"])
    expect(headers.get('permissions-policy')).toContain('payment=()')
  })

  it('with Paddle: Paddle.js from its CDN, the checkout frame and the customer portal, nothing else', async () => {
    const headers = await headersWith(true)
    const csp = cspDirectives(headers.get('content-security-policy'))
    expect(csp.get('script-src')).toContain('https://cdn.paddle.com')
    expect(csp.get('frame-src')).toEqual(['https://*.paddle.com'])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    // The Billing page's form post that opens the customer portal ends there.
    expect(csp.get('form-action')).toEqual(["'self'", 'https://customer-portal.paddle.com', 'https://sandbox-customer-portal.paddle.com'])
    expect(headers.get('permissions-policy')).toContain('payment=(self "https://buy.paddle.com" "https://sandbox-buy.paddle.com")')
  })
})

describe('nextNonce', () => {
  it('hands out 16 random bytes each time, never the same twice, across refills of its pool', () => {
    const nonces = Array.from({ length: 1000 }, () => nextNonce())
    expect(new Set(nonces).size).toBe(nonces.length)
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
  })
})
