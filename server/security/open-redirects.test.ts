/**
 * Every parameter that chooses where the browser goes next, against an open-redirect corpus: our
 * own `returnTo` (/preferences: the theme switch and the consent banner) may only stay on our site,
 * and Better Auth's `callbackURL` (Google sign-in) only our origin. A path with odd characters stays
 * a path on our site and never breaks the Location header.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { action as preferencesAction } from '#app/routes/preferences.tsx'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

/** Ways to say "another site" that browsers, URL parsers or naive checks read differently. */
export const OPEN_REDIRECT_CORPUS = [
  'https://evil.example',
  'http://evil.example/landing',
  '//evil.example',
  '///evil.example',
  '////evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '/%09/evil.example/landing',
  '/\t/evil.example/landing',
  '/\n/evil.example',
  '/\r/evil.example',
  '\t//evil.example',
  ' //evil.example',
  '//evil.example@localhost',
  '//localhost@evil.example',
  '/@evil.example',
  'https:evil.example',
  'http:/\\evil.example',
  '//evil%2eexample',
  '//%65vil.example',
  '/%2F%2Fevil.example',
  '/%5C%5Cevil.example',
  '//evil.example%23.localhost',
  '//evil.example?.localhost',
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//ⓔvil.example',
  '//evil。example',
  '/.evil.example',
  '//[::1]',
  '//127.0.0.1:22',
  '/ /evil.example',
]

const t: TestApp = await createTestApp({ googleEnabled: true })
afterAll(async () => {
  await t.close()
})

async function preferences(returnTo: string): Promise<Response> {
  const request = new Request(`${TEST_PUBLIC_URL}/preferences`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ theme: 'dark', returnTo }),
  })
  return (await preferencesAction({ request, params: {}, context: {} } as unknown as Parameters<typeof preferencesAction>[0])) as Response
}

describe('returnTo (/preferences)', () => {
  it.each(OPEN_REDIRECT_CORPUS)('%j stays on our site', async (returnTo) => {
    const response = await preferences(returnTo)
    expect(response.status).toBe(302)
    const location = response.headers.get('location') ?? ''
    expect(location.startsWith('/')).toBe(true)
    expect(location.startsWith('//')).toBe(false)
    expect(new URL(location, TEST_PUBLIC_URL).origin).toBe(TEST_PUBLIC_URL)
  })

  it('keeps a real path, its query and fragment', async () => {
    expect((await preferences('/blog/post?page=2#top')).headers.get('location')).toBe('/blog/post?page=2#top')
  })
})

describe("callbackURL (Google sign-in, Better Auth's handler)", () => {
  it.each(OPEN_REDIRECT_CORPUS.filter((target) => !target.startsWith('/') || target.startsWith('//')))(
    '%j is refused',
    async (callbackURL) => {
      const response = await t.request('/api/identity/sign-in/social', {
        body: { provider: 'google', callbackURL },
        headers: { origin: TEST_PUBLIC_URL },
        ip: t.freshIp(),
      })
      const text = await response.text()
      expect(response.status, text).toBe(403)
      expect(text).not.toContain('accounts.google.com')
    },
  )

  it('accepts a path of ours', async () => {
    const response = await t.request('/api/identity/sign-in/social', {
      body: { provider: 'google', callbackURL: '/dashboard' },
      headers: { origin: TEST_PUBLIC_URL },
      ip: t.freshIp(),
    })
    expect(response.status).toBe(200)
  })
})
