import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action as authAction } from './auth.tsx'
import { loader as downloadLoader } from './settings-data-export.ts'
import { action, loader } from './settings.tsx'

// Settings' "Download my data" and danger zone, and the sign-in that cancels a deletion
// (docs/decisions/065), posted as a browser without JavaScript posts them.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Args = Parameters<typeof action>[0]
type Answer = {
  data: { result?: { error?: Record<string, string[] | null> } | null; error: string | null }
  init: { status?: number } | null
}

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})

const form = (path: string, fields: Record<string, string>) =>
  new Request(`${TEST_PUBLIC_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })

async function settingsAction(account: Account, fields: Record<string, string>) {
  const context = await t.pageContext(account)
  return (await action({ request: form('/settings', fields), params: {}, context } as unknown as Args)) as Answer | Response
}

function flashOf(response: Response): { type: string; title: string; description?: string } {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('aether_flash='))
  if (!cookie) throw new Error('no flash cookie')
  const value = decodeURIComponent(cookie.split(';')[0]!.slice('aether_flash='.length))
  return JSON.parse(decodeURIComponent(escape(atob(value)))) as { type: string; title: string; description?: string }
}

/** Whatever a loader threw or returned, as a Response. */
async function outcome(run: () => Promise<unknown>): Promise<Response> {
  try {
    return (await run()) as Response
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

describe('Settings: your data', () => {
  it('asks for an export, and says a link will come by e-mail', async () => {
    const account = await t.signUp()
    const answer = await settingsAction(account, { intent: 'request-data-export' })
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).headers.get('location')).toBe('/settings#data-export')
    expect(flashOf(answer as Response)).toMatchObject({ title: 'Data export requested' })
    const context = await t.pageContext(account)
    const view = (await loader({ request: new Request(`${TEST_PUBLIC_URL}/settings`), params: {}, context } as never)) as {
      dataExport: { status: string } | null
      deletion: { hasPassword: boolean }
    }
    expect(view.dataExport?.status).toBe('queued')
    expect(view.deletion.hasPassword).toBe(true)
  })

  it('the e-mailed link sends a visitor to sign in and back, and a wrong one to Settings with the reason', async () => {
    const account = await t.signUp()
    const request = new Request(`${TEST_PUBLIC_URL}/settings/data-export/0f8fad5b-d9cb-469f-a165-70867728950e?expires=1&token=x`)
    const nobody = await t.pageContext(null)
    const visitor = await outcome(() =>
      downloadLoader({ request, params: { exportId: '0f8fad5b-d9cb-469f-a165-70867728950e' }, context: nobody } as never),
    )
    expect(visitor.headers.get('location')).toBe(
      `/auth?returnTo=${encodeURIComponent('/settings/data-export/0f8fad5b-d9cb-469f-a165-70867728950e?expires=1&token=x')}`,
    )
    const context = await t.pageContext(account)
    const wrong = await outcome(() =>
      downloadLoader({ request, params: { exportId: '0f8fad5b-d9cb-469f-a165-70867728950e' }, context } as never),
    )
    expect(wrong.headers.get('location')).toBe('/settings#data-export')
    expect(flashOf(wrong)).toMatchObject({ type: 'error', title: 'Download not available' })
  })

  it('deletes the account with the password: a wrong one is a field error; the right one signs out, and signing in cancels it', async () => {
    const account = await t.signUp()
    const wrong = (await settingsAction(account, { intent: 'delete-account', password: 'not-it', code: '' })) as Answer
    expect(wrong.init?.status).toBe(400)
    expect(wrong.data.result?.error?.password).toEqual(['Password is incorrect.'])

    const done = (await settingsAction(account, { intent: 'delete-account', password: account.password, code: '' })) as Response
    expect(done.headers.get('location')).toBe('/auth')
    expect(flashOf(done).title).toMatch(/^Your account will be deleted on \w+ \d+, \d{4}$/)
    expect(done.headers.getSetCookie().some((cookie) => cookie.startsWith('auth_session=;'))).toBe(true)
    expect((await t.services.sessions.resolve({ kind: 'bearer', token: account.token })).user).toBeNull()

    const context = await t.pageContext(null)
    const back = (await authAction({
      request: form('/auth', { intent: 'signin', email: account.email, password: account.password }),
      params: {},
      context,
    } as never)) as Response
    expect(back.headers.get('location')).toBe('/dashboard')
    expect(flashOf(back)).toMatchObject({ type: 'success', title: 'Account deletion cancelled' })
  })
})
