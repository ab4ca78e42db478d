import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action } from './auth.tsx'

// The /auth form's sign-in, posted as a browser without JavaScript posts it.

type ActionArgs = Parameters<typeof action>[0]
type Answer = { data: { result?: { error?: Record<string, string[] | null> }; error: string | null }; init: { status?: number } | null }

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})

async function signIn(fields: Record<string, string>): Promise<Answer | Response> {
  const context = await t.pageContext(null)
  const request = new Request(`${TEST_PUBLIC_URL}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'signin', ...fields }),
  })
  return (await action({ request, params: {}, context } as unknown as ActionArgs)) as Answer | Response
}

describe('the sign-in form (issue 27, item 14)', () => {
  it("answers an empty e-mail or password with the spec's message, from the server", async () => {
    const forms: Record<string, string>[] = [
      { email: '', password: '' },
      { email: 'someone@example.com', password: '' },
      { email: '', password: 'a-password' },
      {},
    ]
    for (const fields of forms) {
      const answer = await signIn(fields)
      if (answer instanceof Response) throw new Error(`a redirect for ${JSON.stringify(fields)}`)
      expect(answer.init?.status).toBe(400)
      expect(answer.data.result?.error?.['']).toEqual(['You must provide either an email or phone number and a password'])
    }
  })

  it('still signs in with both', async () => {
    const account = await t.signUp()
    const answer = await signIn({ email: account.email, password: account.password })
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).headers.get('location')).toBe('/dashboard')
  })
})
