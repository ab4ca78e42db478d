import { request as playwrightRequest, type APIRequestContext } from '@playwright/test'
import { ADMIN, BASE_URL } from './credentials.ts'
import { expect, uniqueEmail, type Credentials } from './fixtures.ts'

// Accounts and e-mail through the API, for tests about what comes after sign-up. The e2e servers
// trust X-Forwarded-For (TRUST_PROXY), so each helper call acts as a client of its own and the
// per-address limits on sign-ups and sign-ins never fill up across the suite.

let clients = 0
const asNewClient = () => ({ 'X-Forwarded-For': `198.51.100.${(clients++ % 250) + 1}` })

/**
 * A new account. Its address is verified through the link of its sign-up e-mail, as most members'
 * are, unless `verified` is false: what an unverified account may not do waits for it (invitations,
 * webhooks, trigger URLs, purchases, cloud runs beyond the Free plan's).
 */
export async function createAccount(
  request: APIRequestContext,
  prefix = 'member',
  baseUrl = BASE_URL,
  options: { verified?: boolean } = {},
): Promise<Credentials> {
  const account = { email: uniqueEmail(prefix), password: `pw-${Math.random().toString(36).slice(2, 12)}` }
  const response = await request.post(`${baseUrl}/api/auth/register`, {
    data: { ...account, fullName: 'Test Member' },
    headers: asNewClient(),
  })
  expect(response.status(), await response.text()).toBe(201)
  if (options.verified !== false) await verifyEmail(request, account.email, baseUrl)
  return account
}

/** Follows the link of the account's "Verify your e-mail" mail, as its owner would. */
export async function verifyEmail(request: APIRequestContext, email: string, baseUrl = BASE_URL) {
  const mail = await latestMail(email, 'Verify your e-mail address for Aether', baseUrl)
  const page = await request.get(`${baseUrl}${linkIn(mail.text, '/verify-email')}`)
  expect(await page.text()).toContain('E-mail address verified')
}

export async function apiToken(request: APIRequestContext, account: Credentials, baseUrl = BASE_URL): Promise<string> {
  const response = await request.post(`${baseUrl}/api/auth/login`, { data: account, headers: asNewClient() })
  expect(response.status(), await response.text()).toBe(200)
  return ((await response.json()) as { data: { token: string } }).data.token
}

/**
 * The newest e-mail to an address, read from the outbox as the admin would, in a request context of
 * its own: the admin's sign-in cookie must not ride along with the test's own requests.
 */
export async function latestMail(to: string, subject: string, baseUrl = BASE_URL) {
  const admin = await playwrightRequest.newContext()
  try {
    const token = await apiToken(admin, ADMIN, baseUrl)
    let found: { subject: string; text: string } | undefined
    await expect(async () => {
      const response = await admin.get(`${baseUrl}/api/mail/outbox?to=${encodeURIComponent(to)}&limit=20`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      expect(response.status()).toBe(200)
      const { data } = (await response.json()) as { data: { subject: string; text: string }[] }
      found = data.find((mail) => mail.subject === subject)
      expect(found, `an e-mail "${subject}" to ${to}`).toBeTruthy()
    }).toPass({ timeout: 5_000 })
    return found as { subject: string; text: string }
  } finally {
    await admin.dispose()
  }
}

/** The link to one of our pages inside an e-mail's text, as a path the test can open. */
export function linkIn(text: string, pathname: string): string {
  const match = text.match(new RegExp(`https?://[^\\s]+${pathname}\\?token=[^\\s]+`))
  if (!match) throw new Error(`no ${pathname} link in:\n${text}`)
  const url = new URL(match[0])
  return `${url.pathname}${url.search}`
}

/** The admin's bearer header for the own API. */
export async function adminHeaders(request: APIRequestContext, baseUrl = BASE_URL) {
  return { Authorization: `Bearer ${await apiToken(request, ADMIN, baseUrl)}` }
}

// Inquiries are limited to 5 per address; each one posted here comes from an address of its own
// (TEST-NET-3, from a random start, so a retried test does not reuse its earlier addresses).
let inquiryClients = Math.floor(Math.random() * 250)
const asNewInquiryClient = () => ({ 'X-Forwarded-For': `203.0.113.${(inquiryClients++ % 250) + 1}` })

/** A service inquiry as a visitor sends it (POST /api/contact); answers its id. */
export async function postInquiry(
  request: APIRequestContext,
  fields: { name: string; email?: string; projectType?: string; message?: string },
  baseUrl = BASE_URL,
): Promise<string> {
  const response = await request.post(`${baseUrl}/api/contact`, {
    data: { email: 'client@example.com', projectType: 'other', message: 'Please get in touch.', ...fields },
    headers: asNewInquiryClient(),
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

// Automations and runs through the API, as the extension and desktop apps use it.

/** A member's automation (POST /api/automations); answers its id. */
export async function createAutomation(
  request: APIRequestContext,
  token: string,
  automation: { name: string; steps: unknown[]; description?: string; schedule?: string | Record<string, unknown> | null },
  baseUrl = BASE_URL,
): Promise<string> {
  const response = await request.post(`${baseUrl}/api/automations`, { data: automation, headers: { Authorization: `Bearer ${token}` } })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

/** A run the member's own machine executes (where=client: no credits, counted against the month); answers its id. */
export async function startClientRun(request: APIRequestContext, token: string, automationId: string, baseUrl = BASE_URL): Promise<string> {
  const response = await request.post(`${baseUrl}/api/automations/${automationId}/runs`, {
    data: { where: 'client' },
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

/** A client's report on a run: progress, or with `status` how it ended (POST /api/runs/:id/progress or /finish). */
export async function reportRun(
  request: APIRequestContext,
  token: string,
  runId: string,
  report: {
    status?: 'succeeded' | 'failed' | 'cancelled'
    error?: string
    actionsPerformed?: number
    log?: { level?: 'info' | 'warn' | 'error'; message: string }[]
    extracted?: Record<string, string | null>[]
  },
  baseUrl = BASE_URL,
) {
  const path = report.status ? 'finish' : 'progress'
  const response = await request.post(`${baseUrl}/api/runs/${runId}/${path}`, {
    data: report,
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(response.status(), await response.text()).toBe(200)
}
