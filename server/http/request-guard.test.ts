import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { FORM_TYPE_MESSAGE, MALFORMED_FORM_MESSAGE, NUL_MESSAGE, SURROGATE_MESSAGE } from './request-guard.ts'

describe('request guard', () => {
  let t: TestApp
  /** The same app with stand-in pages: /admin refuses visitors before reading anything; others read their form. */
  let pages: TestApp
  const pageAnswers: Record<string, unknown>[] = []
  let admin: Awaited<ReturnType<TestApp['signUp']>>
  beforeAll(async () => {
    t = await createTestApp()
    pages = await createTestApp({
      pages: async (c) => {
        if (c.req.path === '/admin' && !c.get('user')) return c.text('sign in first', 401)
        const form = Object.fromEntries(await c.req.raw.formData())
        pageAnswers.push(form)
        return c.text('saved', 200)
      },
    })
    admin = await t.signUp({ role: 'admin' })
  })
  afterAll(async () => {
    await t.close()
    await pages.close()
  })

  async function inquiryCount() {
    const response = await t.request('/api/contact?pageSize=1', { token: admin.token })
    return ((await response.json()) as { total: number }).total
  }

  it('refuses a NUL character in the address with 400 JSON, before the database sees it', async () => {
    for (const path of ['/api/blog?tag=%00', '/api/blog/a%00b', `/api/users/a%00b`]) {
      const response = await t.request(path, { token: admin.token })
      expect(response.status, path).toBe(400)
      expect(await response.json()).toEqual({ message: NUL_MESSAGE, code: 'INVALID_TEXT' })
    }
  })

  it('refuses a NUL character in a JSON body and stores nothing; an escaped backslash before u0000 is plain text', async () => {
    const before = await inquiryCount()
    const refused = await t.request('/api/contact', {
      body: { name: 'Ada\u0000', email: 'ada@example.com', message: 'Please help' },
      ip: t.freshIp(),
    })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ message: NUL_MESSAGE, code: 'INVALID_TEXT' })
    expect(await inquiryCount()).toBe(before)

    const accepted = await t.request('/api/contact', {
      body: { name: 'Ada', email: 'ada@example.com', message: 'A path like C:\\u0000 is just text' },
      ip: t.freshIp(),
    })
    expect(accepted.status).toBe(201)
    expect(await inquiryCount()).toBe(before + 1)
  })

  it('refuses half a surrogate pair in JSON text (PostgreSQL cannot store it) and accepts whole ones', async () => {
    const before = await inquiryCount()
    for (const name of ['x\\udfffy', 'x\\ud83d', '\\ud83d\\ud83d']) {
      const raw = `{"name":"${name}","email":"ada@example.com","message":"Please help"}`
      const refused = await t.request('/api/contact', { body: raw, ip: t.freshIp() })
      expect(refused.status, raw).toBe(400)
      expect(await refused.json()).toEqual({ message: SURROGATE_MESSAGE, code: 'INVALID_TEXT' })
    }
    // In a key, or deep inside, too (System Settings keep the before and after of a change as JSON).
    const settings = await t.request('/api/settings', {
      method: 'PUT',
      body: '{"siteName":"Aether","nested":{"\\udfff":["a"]}}',
      token: admin.token,
    })
    expect(settings.status).toBe(400)
    expect(await inquiryCount()).toBe(before)
    // However deep the nesting: read from the text, nothing recurses.
    const deep = `${'{"a":'.repeat(20_000)}"\\udfff"${'}'.repeat(20_000)}`
    const nested = await t.request('/api/contact', { body: deep, ip: t.freshIp() })
    expect(nested.status).toBe(400)
    expect(await nested.json()).toEqual({ message: SURROGATE_MESSAGE, code: 'INVALID_TEXT' })
    // An escaped backslash before u makes plain text, not an escape.
    const plain = await t.request('/api/contact', {
      body: '{"name":"Ada","email":"ada@example.com","message":"C:\\\\udfff is a path"}',
      ip: t.freshIp(),
    })
    expect(plain.status).toBe(201)

    const emoji = await t.request('/api/contact', {
      body: '{"name":"Ada \\ud83d\\ude00","email":"ada@example.com","message":"A smile: \\ud83d\\ude00 and 😀"}',
      ip: t.freshIp(),
    })
    expect(emoji.status).toBe(201)
    expect(await inquiryCount()).toBe(before + 2)
  })

  it('leaves bodies over its reading limit to the body limits, which still refuse them', async () => {
    const oversized = JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: 'x'.repeat(3 * 1024 * 1024) })
    const response = await t.request('/api/contact', { body: oversized, ip: t.freshIp() })
    expect(response.status).toBe(413)
  })

  it('refuses page submissions that are not forms with 415, and unreadable forms or forms carrying NUL with 400, when the page reads them', async () => {
    const json = await pages.app.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    })
    expect(json.status).toBe(415)
    expect(await json.text()).toBe(FORM_TYPE_MESSAGE)
    expect((await pages.app.request('/contact', { method: 'POST', body: 'name=Ada' })).status).toBe(415)

    const encoded = await pages.app.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada%00&email=ada%40example.com',
    })
    expect(encoded.status).toBe(400)
    expect(await encoded.text()).toBe(NUL_MESSAGE)

    const unreadable = await pages.app.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'name=Ada',
    })
    expect(unreadable.status).toBe(400)
    expect(await unreadable.text()).toBe(MALFORMED_FORM_MESSAGE)

    const multipart = new FormData()
    multipart.set('name', 'Ada\u0000')
    expect((await pages.app.request('/contact', { method: 'POST', body: multipart })).status).toBe(400)
    expect(pageAnswers).toEqual([])
  })

  it('checks NUL in the whole of a page form, not only its first megabyte', async () => {
    const body = `message=${'a'.repeat(1_500_000)}&name=Ada%00`
    const response = await pages.app.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toBe(NUL_MESSAGE)
  })

  it('lets a page refuse the caller first: an action that answers without reading the body is not overruled', async () => {
    const response = await pages.app.request('/admin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"\\u0000"}',
    })
    expect(response.status).toBe(401)
    expect(await response.text()).toBe('sign in first')
  })

  it('lets ordinary forms through to the pages', async () => {
    pageAnswers.length = 0
    const form = new FormData()
    form.set('name', 'Ada')
    expect((await pages.app.request('/contact', { method: 'POST', body: form })).status).toBe(200)
    const encoded = await pages.app.request('/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada&email=ada%40example.com',
    })
    expect(encoded.status).toBe(200)
    expect(pageAnswers).toEqual([{ name: 'Ada' }, { name: 'Ada', email: 'ada@example.com' }])
  })
})
