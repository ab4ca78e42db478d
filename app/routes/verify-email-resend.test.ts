import { and, count, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { mailOutbox } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { loader as layoutLoader } from './member-layout.tsx'
import { action } from './verify-email-resend.tsx'

// The verification banner's "Resend" (issue 27, item 12): a plain form post from any member page
// that sends a new link, limited like every resend, and comes back to the page with what happened.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Flash = { type: string; title: string; description?: string; inline?: boolean }

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})

const contextOf = (account: Account) => t.pageContext(account)

async function resend(account: Account, returnTo: string): Promise<Response> {
  const request = new Request(`${TEST_PUBLIC_URL}/verify-email/resend`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ returnTo }),
  })
  return (await action({ request, params: {}, context: await contextOf(account) } as unknown as Parameters<typeof action>[0])) as Response
}

function flashCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('aether_flash='))
  if (!cookie) throw new Error('no flash cookie')
  return cookie.split(';')[0] ?? ''
}
function flashOf(response: Response): Flash {
  const value = decodeURIComponent(flashCookie(response).slice('aether_flash='.length))
  return JSON.parse(decodeURIComponent(escape(atob(value)))) as Flash
}

/** The member layout's banner, on the page the post came back to (with its cookie). */
async function bannerAfter(account: Account, response: Response) {
  const request = new Request(`${TEST_PUBLIC_URL}${response.headers.get('location') ?? '/'}`, {
    headers: { cookie: flashCookie(response) },
  })
  const layout = await layoutLoader({ request, params: {}, context: await contextOf(account) } as unknown as Parameters<
    typeof layoutLoader
  >[0])
  return layout.verification
}

const verificationMails = async (to: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, to), eq(mailOutbox.subject, 'Verify your e-mail address for Aether')))
  )[0]?.n ?? 0

describe('POST /verify-email/resend', () => {
  it('sends a new link and goes back to the page, whose banner confirms it', async () => {
    const account = await t.signUp({ verified: false })
    expect(await verificationMails(account.email)).toBe(1)
    const response = await resend(account, '/workspace/webhooks?tab=log')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/workspace/webhooks?tab=log')
    expect(await verificationMails(account.email)).toBe(2)
    expect(await bannerAfter(account, response)).toEqual({
      email: account.email,
      freeRuns: 5,
      notice: { ok: true, text: `We sent a new link to ${account.email}. It works for 24 hours.` },
    })
  })

  it('is limited like the resend on Settings was (3 an hour), and the banner says so', async () => {
    const account = await t.signUp({ verified: false })
    for (let i = 0; i < 3; i++) expect(flashOf(await resend(account, '/dashboard')).type).toBe('success')
    const refused = await resend(account, '/billing')
    expect(refused.headers.get('location')).toBe('/billing')
    expect((await bannerAfter(account, refused))?.notice).toEqual({
      ok: false,
      text: 'We already sent several verification e-mails. Please check your inbox, or try again in an hour.',
    })
    expect(await verificationMails(account.email)).toBe(4)
  })

  it('goes back only to a page of this site', async () => {
    const account = await t.signUp({ verified: false })
    for (const elsewhere of ['https://evil.example/', '//evil.example/path', '/\\evil.example', '']) {
      expect((await resend(account, elsewhere)).headers.get('location')).toBe('/dashboard')
    }
  })

  it('tells a verified account that there is nothing to do, and shows it no banner', async () => {
    const account = await t.signUp()
    const response = await resend(account, '/settings')
    expect(flashOf(response)).toMatchObject({ type: 'error', description: 'Your e-mail address is already verified.' })
    expect(flashOf(response).inline).toBeFalsy()
    expect(await bannerAfter(account, response)).toBeNull()
  })
})
