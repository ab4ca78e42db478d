/**
 * Every parameter that chooses where the browser goes next, against an open-redirect corpus: our
 * own `returnTo` (/preferences: the theme switch and the consent banner; /auth: back to /connect
 * after signing in) may only stay on our site,
 * and Better Auth's `callbackURL` (Google sign-in) only our origin. A path with odd characters stays
 * a path on our site and never breaks the Location header.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { action as preferencesAction } from '#app/routes/preferences.tsx'
import { action as authAction, loader as authLoader } from '#app/routes/auth.tsx'
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

const signedIn = await t.signUp()
const user = (await t.services.sessions.resolve({ kind: 'bearer', token: signedIn.token })).user

describe('returnTo (/auth, after signing in)', () => {
  const context = (who: typeof user) => ({ services: t.services, user: who, clientIp: t.freshIp(), credential: null })
  type LoaderArgs = Parameters<typeof authLoader>[0]
  type ActionArgs = Parameters<typeof authAction>[0]

  async function location(run: () => unknown): Promise<string> {
    try {
      const answer = await run()
      throw new Error(`no redirect: ${JSON.stringify(answer)}`)
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown
      expect(thrown.status).toBe(302)
      return thrown.headers.get('location') ?? ''
    }
  }

  it.each(OPEN_REDIRECT_CORPUS)('%j stays on our site', async (returnTo) => {
    const request = new Request(`${TEST_PUBLIC_URL}/auth?returnTo=${encodeURIComponent(returnTo)}`)
    const where = await location(() => authLoader({ request, params: {}, context: context(user) } as unknown as LoaderArgs))
    expect(where.startsWith('/')).toBe(true)
    expect(where.startsWith('//')).toBe(false)
    expect(new URL(where, TEST_PUBLIC_URL).origin).toBe(TEST_PUBLIC_URL)
  })

  it('signs in and goes back to the page that asked, or to the dashboard', async () => {
    const post = (query: string) =>
      authAction({
        request: new Request(`${TEST_PUBLIC_URL}/auth${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ intent: 'signin', email: signedIn.email, password: signedIn.password }),
        }),
        params: {},
        context: context(null),
      } as unknown as ActionArgs) as Promise<Response>
    expect((await post(`?returnTo=${encodeURIComponent('/connect?code=ABCD-2345')}`)).headers.get('location')).toBe(
      '/connect?code=ABCD-2345',
    )
    expect((await post('?returnTo=%2F%2Fevil.example')).headers.get('location')).toBe('/dashboard')
    expect((await post('')).headers.get('location')).toBe('/dashboard')
  })
})

describe("callbackURL, errorCallbackURL, newUserCallbackURL (Google sign-in, Better Auth's handler)", () => {
  const offSite = OPEN_REDIRECT_CORPUS.filter((target) => !target.startsWith('/') || target.startsWith('//'))
  it.each(['callbackURL', 'errorCallbackURL', 'newUserCallbackURL'].flatMap((field) => offSite.map((target) => [field, target] as const)))(
    '%s %j is refused',
    async (field, target) => {
      const response = await t.request('/api/identity/sign-in/social', {
        body: { provider: 'google', callbackURL: '/dashboard', [field]: target },
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
