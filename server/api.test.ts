import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
let token: string
beforeAll(async () => {
  t = await createTestApp()
  token = (await t.signUp({ password: 'validation-password' })).token
})
afterAll(async () => {
  await t.close()
})

type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }

async function expectJsonError(response: Response, status: number): Promise<ErrorBody> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as ErrorBody
  expect(body.message).toEqual(expect.any(String))
  expect(body.message.length).toBeGreaterThan(0)
  return body
}

/** 400 whose message starts with the field's name, and whose issues list names it too. */
async function expectFieldError(response: Response, field: string, text?: string) {
  const body = await expectJsonError(response, 400)
  expect(body.message.startsWith(`${field}: `), body.message).toBe(true)
  if (text) expect(body.message).toContain(text)
  expect(body.issues?.some((issue) => issue.path === field)).toBe(true)
  return body
}

describe('validation on every /api/auth route: 400 naming the field', () => {
  it('POST /api/auth/register', async () => {
    const register = (body: unknown) => t.request('/api/auth/register', { body, ip: t.freshIp() })
    await expectFieldError(await register({}), 'email', 'Email is required')
    await expectFieldError(await register({ email: 'not-an-email', password: 'long-enough-pw' }), 'email', 'valid email')
    await expectFieldError(await register({ email: 42, password: 'long-enough-pw' }), 'email')
    await expectFieldError(await register({ email: 'v1@example.com' }), 'password', 'Password is required')
    await expectFieldError(await register({ email: 'v1@example.com', password: 'short' }), 'password', 'at least 8')
    await expectFieldError(
      await register({ email: 'v1@example.com', password: 'long-enough-pw', fullName: 'A' }),
      'fullName',
      'Name must be at least 2 characters.',
    )
  })

  it('POST /api/auth/login', async () => {
    const login = (body: unknown) => t.request('/api/auth/login', { body, ip: t.freshIp() })
    // Without an e-mail address or a password: the spec's one message (section 5), no field named.
    for (const body of [{}, { email: 'v@example.com' }, { email: 'v@example.com', password: '' }, { password: 'x' }]) {
      const missing = await expectJsonError(await login(body), 400)
      expect(missing.message).toBe('You must provide either an email or phone number and a password')
    }
    await expectFieldError(await login({ email: 'nope', password: 'x' }), 'email')
    await expectFieldError(await login({ email: 'v@example.com', password: 'a'.repeat(129) }), 'password')
  })

  it('PUT /api/auth/profile', async () => {
    const update = (body: unknown) => t.request('/api/auth/profile', { method: 'PUT', body, token })
    await expectFieldError(await update({ fullName: 'A' }), 'fullName', 'Name must be at least 2 characters.')
    await expectFieldError(await update({ avatarUrl: 'javascript:alert(1)' }), 'avatarUrl', 'http or https')
    await expectFieldError(await update({ fullName: 7 }), 'fullName')
    const empty = await expectJsonError(await update({}), 400)
    expect(empty.message).toMatch(/fullName|avatarUrl/)
  })

  it('PUT /api/auth/change-password', async () => {
    const change = (body: unknown) => t.request('/api/auth/change-password', { method: 'PUT', body, token })
    await expectFieldError(await change({ newPassword: 'long-enough-pw' }), 'currentPassword')
    await expectFieldError(await change({ currentPassword: 'validation-password' }), 'newPassword')
    await expectFieldError(await change({ currentPassword: 'validation-password', newPassword: 'short' }), 'newPassword', 'at least 8')
    await expectFieldError(
      await change({ currentPassword: 'validation-password', newPassword: 'a'.repeat(129) }),
      'newPassword',
      'at most 128',
    )
    await expectFieldError(await change({ currentPassword: 'validation-password', newPassword: 'validation-password' }), 'newPassword')
    await expectFieldError(await change({ currentPassword: 'not-the-password', newPassword: 'another-password' }), 'currentPassword')
    // None of these changed the password.
    expect((await t.request('/api/auth/me', { token })).status).toBe(200)
  })

  it('a JSON body that is not an object is a 400 too', async () => {
    for (const body of ['null', '[]', '"text"', '42']) {
      const response = await t.request('/api/auth/login', { body, ip: t.freshIp() })
      await expectJsonError(response, 400)
    }
  })
})

describe('password length 8..128 at registration', () => {
  const register = (email: string, password: string) => t.request('/api/auth/register', { body: { email, password }, ip: t.freshIp() })

  it('refuses 7 and 129 characters', async () => {
    await expectFieldError(await register('len7@example.com', 'a'.repeat(7)), 'password', 'Password must be at least 8 characters.')
    await expectFieldError(await register('len129@example.com', 'a'.repeat(129)), 'password', 'Password must be at most 128 characters.')
  })

  it('accepts 8 and 128 characters, and the 128-character password signs in', async () => {
    expect((await register('len8@example.com', 'b'.repeat(8))).status).toBe(201)
    expect((await register('len128@example.com', 'c'.repeat(128))).status).toBe(201)
    const login = await t.request('/api/auth/login', { body: { email: 'len128@example.com', password: 'c'.repeat(128) }, ip: t.freshIp() })
    expect(login.status).toBe(200)
  })
})

describe('request bodies', () => {
  it('malformed JSON is a 400 JSON error', async () => {
    for (const path of ['/api/auth/login', '/api/auth/register']) {
      const response = await t.request(path, { body: '{"email": "a@example.com", ', ip: t.freshIp() })
      const body = await expectJsonError(response, 400)
      expect(body.message).toMatch(/json/i)
    }
    const put = await t.request('/api/auth/profile', { method: 'PUT', body: '{fullName: nope}', token })
    await expectJsonError(put, 400)
  })

  it('a body that is not JSON is a 415 JSON error with a message', async () => {
    const plain = await t.request('/api/auth/login', {
      body: JSON.stringify({ email: 'a@example.com', password: 'whatever-pw' }),
      headers: { 'content-type': 'text/plain' },
      ip: t.freshIp(),
    })
    const body = await expectJsonError(plain, 415)
    expect(body.message).toMatch(/json/i)

    const form = await t.request('/api/auth/register', {
      body: 'email=a%40example.com&password=whatever-pw',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: t.freshIp(),
    })
    await expectJsonError(form, 415)

    const profile = await t.request('/api/auth/profile', {
      method: 'PUT',
      body: '<fullName>Al</fullName>',
      headers: { 'content-type': 'application/xml' },
      token,
    })
    await expectJsonError(profile, 415)
  })

  it('accepts JSON with a charset parameter', async () => {
    const response = await t.request('/api/auth/login', {
      body: JSON.stringify({ email: 'nobody-charset@example.com', password: 'whatever-pw' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      ip: t.freshIp(),
    })
    expect(response.status).toBe(401)
  })

  it('a body over 1 MB is a 413 JSON error', async () => {
    const big = JSON.stringify({ email: 'big@example.com', password: 'long-enough-pw', fullName: 'x'.repeat(1024 * 1024 + 10) })
    const streamed = await t.request('/api/auth/register', { body: big, ip: t.freshIp() })
    const body = await expectJsonError(streamed, 413)
    expect(body.message).toMatch(/large|1 MB/i)

    const declared = await t.request('/api/auth/register', {
      body: big,
      headers: { 'content-length': String(Buffer.byteLength(big)) },
      ip: t.freshIp(),
    })
    await expectJsonError(declared, 413)

    // Nothing was created.
    const login = await t.request('/api/auth/login', { body: { email: 'big@example.com', password: 'long-enough-pw' }, ip: t.freshIp() })
    expect(login.status).toBe(401)
  })

  it('a body just under 1 MB is read (and then validated)', async () => {
    const body = JSON.stringify({ email: 'almost@example.com', password: 'long-enough-pw', fullName: 'x'.repeat(1000 * 1000) })
    const response = await t.request('/api/auth/register', { body, ip: t.freshIp() })
    await expectFieldError(response, 'fullName', 'at most 100')
  })
})

describe('unknown routes under /api', () => {
  it.each(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'])('%s /api/does-not-exist is 404 JSON, not HTML', async (method) => {
    const response = await t.request('/api/does-not-exist', {
      method,
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: { any: 'thing' } }),
    })
    const body = await expectJsonError(response, 404)
    expect(body.message).toContain('/api/does-not-exist')
  })

  it('404 JSON for unknown nested paths, wrong methods on known paths and /api itself', async () => {
    await expectJsonError(await t.request('/api/auth/nope'), 404)
    await expectJsonError(await t.request('/api/auth/nope', { body: {} }), 404)
    await expectJsonError(await t.request('/api/v2/users/1'), 404)
    await expectJsonError(await t.request('/api'), 404)
    await expectJsonError(await t.request('/api/'), 404)
    const wrongMethod = await t.request('/api/auth/me', { method: 'DELETE' })
    expect([404, 405]).toContain(wrongMethod.status)
    expect(wrongMethod.headers.get('content-type')).toMatch(/^application\/json/)
  })
})

describe('bearer tokens', () => {
  it('Authorization: Bearer works for /me', async () => {
    const response = await t.request('/api/auth/me', { token })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { data: { id: string; email: string; profile: { role: string } } }
    expect(body.data).toMatchObject({ id: expect.any(String), email: expect.any(String), profile: { role: 'user' } })
  })

  it('a garbage, empty or tampered token is 401 JSON', async () => {
    for (const value of [
      'Bearer garbage',
      'Bearer ',
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -2)}`,
      'Bearer a.b.c',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
    ]) {
      const response = await t.request('/api/auth/me', { headers: { authorization: value } })
      await expectJsonError(response, 401)
    }
  })

  it('a garbage session cookie is 401 JSON, not a crash', async () => {
    await expectJsonError(await t.request('/api/auth/me', { cookie: 'auth_session=garbage' }), 401)
    await expectJsonError(await t.request('/api/auth/me', { cookie: 'auth_session=' }), 401)
  })

  it('the token from a register response is not a session (registration does not sign in)', async () => {
    const response = await t.request('/api/auth/register', {
      body: { email: 'noauto@example.com', password: 'long-enough-pw' },
      ip: t.freshIp(),
    })
    expect(response.status).toBe(201)
    expect(response.headers.getSetCookie().some((value) => value.startsWith('auth_session=') && !/max-age=0/i.test(value))).toBe(false)
  })
})

describe('cross-site request guard (CSRF)', () => {
  // A browser attaches our cookies to a cross-site request; that is what the guard refuses.
  const attempt = (headers: Record<string, string>, cookie = 'auth_session=some-session') =>
    t.request('/api/auth/login', { body: { email: 'csrf@example.com', password: 'whatever-pw' }, headers, cookie, ip: t.freshIp() })

  it('refuses a POST with cookies and the Origin of another site with 403 JSON', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost:3000.evil.example',
      'http://localhost:3001',
      'https://localhost:3000',
      'null',
    ]) {
      const body = await expectJsonError(await attempt({ origin }), 403)
      expect(body.message).toMatch(/cross-origin/i)
    }
  })

  it('lets same-origin requests and requests without Origin through', async () => {
    expect((await attempt({ origin: TEST_PUBLIC_URL })).status).toBe(401)
    expect((await attempt({})).status).toBe(401)
  })

  it('protects PUT with a session cookie: the profile is not changed', async () => {
    const user = await t.signUp({ fullName: 'Original Name' })
    const forged = await t.request('/api/auth/profile', {
      method: 'PUT',
      body: { fullName: 'Hacked' },
      cookie: user.cookie,
      headers: { origin: 'https://evil.example' },
    })
    expect(forged.status).toBe(403)
    const me = (await (await t.request('/api/auth/me', { cookie: user.cookie })).json()) as { data: { profile: { fullName: string } } }
    expect(me.data.profile.fullName).toBe('Original Name')

    const same = await t.request('/api/auth/profile', {
      method: 'PUT',
      body: { fullName: 'Same Site' },
      cookie: user.cookie,
      headers: { origin: TEST_PUBLIC_URL },
    })
    expect(same.status).toBe(200)
  })

  it('protects logout with a session cookie: the session survives a forged sign-out', async () => {
    const user = await t.signUp()
    const forged = await t.request('/api/auth/logout', { method: 'POST', cookie: user.cookie, headers: { origin: 'https://evil.example' } })
    expect(forged.status).toBe(403)
    expect((await t.request('/api/auth/me', { cookie: user.cookie })).status).toBe(200)
  })

  it('lets a bearer-token client without cookies through from another origin (browser extension)', async () => {
    const user = await t.signUp()
    const response = await t.request('/api/auth/profile', {
      method: 'PUT',
      body: { fullName: 'Extension User' },
      token: user.token,
      headers: { origin: 'chrome-extension://abcdefghijklmnop' },
    })
    expect(response.status).toBe(200)
  })

  it('lets safe methods through from any origin', async () => {
    expect((await t.request('/api/auth/me', { headers: { origin: 'https://evil.example' }, cookie: 'auth_session=x' })).status).toBe(401)
  })
})

describe('OpenAPI document and docs', () => {
  type Operation = { security?: Record<string, string[]>[]; requestBody?: unknown; responses?: Record<string, unknown> }
  type Doc = {
    openapi: string
    info: { title: string; version: string }
    servers?: { url: string }[]
    paths: Record<string, Record<string, Operation>>
    components: {
      securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>
      schemas: Record<string, unknown>
    }
  }
  let doc: Doc
  beforeAll(async () => {
    const response = await t.request('/api/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    doc = (await response.json()) as Doc
  })

  const AUTH_ROUTES: [string, string][] = [
    ['/auth/register', 'post'],
    ['/auth/login', 'post'],
    ['/auth/logout', 'post'],
    ['/auth/me', 'get'],
    ['/auth/profile', 'put'],
    ['/auth/change-password', 'put'],
  ]

  it('is OpenAPI 3.1 with info and the /api server', () => {
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.info.title).toEqual(expect.any(String))
    expect(doc.info.version).toEqual(expect.any(String))
    expect(doc.servers?.[0]?.url).toBe('/api')
  })

  it.each(AUTH_ROUTES)('lists %s with method %s', (path, method) => {
    expect(Object.keys(doc.paths[path] ?? {})).toContain(method)
    expect(doc.paths[path]?.[method]?.responses).toBeDefined()
  })

  it('lists the health route', () => {
    expect(doc.paths['/health']?.get).toBeDefined()
  })

  it('declares the bearerAuth scheme and uses it on signed-in routes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' })
    for (const [path, method] of [
      ['/auth/me', 'get'],
      ['/auth/profile', 'put'],
      ['/auth/change-password', 'put'],
    ] as const) {
      expect(
        doc.paths[path]?.[method]?.security?.some((requirement) => 'bearerAuth' in requirement),
        path,
      ).toBe(true)
    }
  })

  it('documents request bodies from the shared schemas (password 8..128)', () => {
    const text = JSON.stringify(doc)
    const register = doc.paths['/auth/register']?.post
    expect(register?.requestBody).toBeDefined()
    const body = JSON.stringify(register?.requestBody)
    expect(body).toContain('email')
    expect(body).toContain('password')
    expect(text).toContain('"minLength":8')
    expect(text).toContain('"maxLength":128')
    expect(Object.keys(register?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '409', '429']))
  })

  it('/api/docs is an HTML page naming every route', async () => {
    const response = await t.request('/api/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await response.text()
    expect(html).toMatch(/^<!doctype html>/i)
    for (const [path, method] of AUTH_ROUTES) {
      expect(html).toContain(`/api${path}`)
      expect(html).toContain(method.toUpperCase())
    }
    expect(html).toContain('/api/health')
    expect(html).toContain('/api/openapi.json')
    expect(html).toContain('href="/downloads/aether-sdk.tgz"')
  })
})
