import { describe, expect, it } from 'vitest'
import { action } from './preferences.tsx'

function post(fields: Record<string, string>, cookie?: string) {
  const body = new URLSearchParams(fields)
  const request = new Request('http://localhost:3000/preferences', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
  })
  return action({ request, params: {}, context: {} } as unknown as Parameters<typeof action>[0])
}

async function asResponse(result: unknown): Promise<Response> {
  if (result instanceof Response) return result
  const init = (result as { init?: ResponseInit | null }).init
  return new Response(JSON.stringify((result as { data: unknown }).data), { status: init?.status ?? 200 })
}

describe('POST /preferences', () => {
  it('remembers the colour scheme for a year and goes back to the page', async () => {
    const response = await asResponse(await post({ theme: 'light', returnTo: '/blog?page=2' }))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/blog?page=2')
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('aether_theme='))
    expect(cookie).toMatch(/Max-Age=31536000/)
    expect(cookie).toMatch(/HttpOnly/)
  })

  it('refuses an unknown theme and never redirects off-site', async () => {
    expect((await asResponse(await post({ theme: 'neon' }))).status).toBe(400)
    for (const returnTo of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/%09/evil.example/landing',
      '/\t/evil.example/landing',
      '/\n/evil.example',
      '/\\/evil.example',
      'javascript:alert(1)',
      '\t//evil.example',
    ]) {
      const response = await asResponse(await post({ theme: 'dark', returnTo }))
      const location = response.headers.get('location') ?? ''
      expect(new URL(location, 'http://localhost:3000').origin, returnTo).toBe('http://localhost:3000')
    }
  })

  it('keeps a path with odd characters on our site, encoded so the header holds (no 500)', async () => {
    for (const [returnTo, expected] of [
      ['/blog\r\nSet-Cookie: x=1', '/blogSet-Cookie:%20x=1'],
      ['/blog/é?q=日本', '/blog/%C3%A9?q=%E6%97%A5%E6%9C%AC'],
      ['/a b', '/a%20b'],
    ] as const) {
      const response = await asResponse(await post({ theme: 'dark', returnTo }))
      expect(response.status, returnTo).toBe(302)
      expect(response.headers.get('location')).toBe(expected)
    }
  })

  it('records consent, and a rejection expires the analytics cookies', async () => {
    const accepted = await asResponse(await post({ consent: 'accepted' }))
    expect(accepted.headers.getSetCookie().some((value) => value.startsWith('aether_consent='))).toBe(true)
    const rejected = await asResponse(await post({ consent: 'rejected' }, '_ga=GA1.1.1; _gid=GA1.1.2; other=1'))
    const cookies = rejected.headers.getSetCookie()
    expect(cookies.filter((value) => value.startsWith('_ga=') && /Max-Age=0/.test(value)).length).toBeGreaterThan(0)
    expect(cookies.filter((value) => value.startsWith('_gid=') && /Max-Age=0/.test(value)).length).toBeGreaterThan(0)
    expect(cookies.some((value) => value.startsWith('other='))).toBe(false)
    expect((await asResponse(await post({ consent: 'maybe' }))).status).toBe(400)
  })

  it('refuses an empty form', async () => {
    expect((await asResponse(await post({}))).status).toBe(400)
  })
})
