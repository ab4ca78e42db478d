import type { Page } from '@playwright/test'
import { apiToken, createAccount, createAutomation, latestMail, linkIn, startClientRun, verifyEmail } from './accounts.ts'
import { ADMIN, expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// An unverified account (issue 27, item 12): a banner with "Resend" on every member page, which
// works without JavaScript too and says that a link was sent; gone once the address is verified.
// And the admin's Users table with the profile's phone number (item 13).

const banner = (page: Page) => page.getByRole('region', { name: /^Please verify / })

test.describe('the verification banner', () => {
  test('shows on every member page of an unverified account, and Resend sends a new link', async ({ page, request }) => {
    test.slow() // twelve pages, each loaded and hydrated
    const account = await createAccount(request, 'unverified', undefined, { verified: false })
    const token = await apiToken(request, account)
    const automationId = await createAutomation(request, token, {
      name: 'Look around',
      steps: [{ type: 'navigate', url: 'https://example.com/' }],
    })
    const runId = await startClientRun(request, token, automationId)
    await signIn(page, account)

    const pages = [
      '/dashboard',
      '/dashboard/templates',
      '/dashboard/automations/new',
      `/dashboard/automations/${automationId}`,
      `/dashboard/runs/${runId}`,
      '/settings',
      '/billing',
      '/billing/history',
      '/workspace',
      '/workspace/activity',
      '/workspace/webhooks',
      '/workspace/vault',
    ]
    for (const path of pages) {
      await gotoHydrated(page, path)
      await expect(banner(page), path).toBeVisible()
      await expect(banner(page)).toContainText(`Please verify ${account.email}`)
      await expect(banner(page)).toContainText('Until then you cannot invite people, add webhooks or trigger URLs, buy a plan')
    }
    await expectNoAxeViolations(page)

    const before = await mailCount(request, account.email)
    await banner(page).getByRole('button', { name: 'Resend' }).click()
    await expect(banner(page).getByRole('status')).toHaveText(`We sent a new link to ${account.email}. It works for 24 hours.`)
    await expect(page).toHaveURL('/workspace/vault')
    await expect.poll(() => mailCount(request, account.email)).toBe(before + 1)
    // The banner says it; no toast repeats it.
    await expect(toasts(page).getByText('Verification email sent')).toHaveCount(0)

    // The newest link verifies the address: the banner is gone from every page.
    const mail = await latestMail(account.email, 'Verify your e-mail address for Aether')
    await gotoHydrated(page, linkIn(mail.text, '/verify-email'))
    await expect(page.getByRole('heading', { name: 'E-mail address verified' })).toBeVisible()
    for (const path of ['/dashboard', '/settings', '/workspace/webhooks']) {
      await gotoHydrated(page, path)
      await expect(page.getByRole('main')).toBeVisible()
      await expect(banner(page)).toHaveCount(0)
    }
  })

  test('Resend works without JavaScript, as a form post back to the page', async ({ browser, request }) => {
    const account = await createAccount(request, 'unverified-nojs', undefined, { verified: false })
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'X-Forwarded-For': `10.${rnd()}.${rnd()}.${rnd()}` },
    })
    const page = await context.newPage()
    await page.goto('/auth')
    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Password').fill(account.password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page).toHaveURL('/dashboard')
    await page.goto('/workspace/webhooks')
    const before = await mailCount(request, account.email)
    await banner(page).getByRole('button', { name: 'Resend' }).click()
    await expect(page).toHaveURL('/workspace/webhooks')
    await expect(banner(page).getByRole('status')).toHaveText(`We sent a new link to ${account.email}. It works for 24 hours.`)
    expect(await mailCount(request, account.email)).toBe(before + 1)
    // Shown once: the next page load has no message.
    await page.reload()
    await expect(banner(page)).toBeVisible()
    await expect(banner(page).getByRole('status')).toHaveCount(0)

    await verifyEmail(request, account.email)
    await page.goto('/dashboard')
    await expect(banner(page)).toHaveCount(0)
    await context.close()
  })

  test('a verified member never sees it', async ({ page, request }) => {
    await signIn(page, await createAccount(request, 'verified'))
    await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()
    await expect(banner(page)).toHaveCount(0)
  })
})

test.describe('phone numbers', () => {
  test("a member's phone number from Settings shows in the admin's Users table, and the admin can change it", async ({ page, request }) => {
    const account = await createAccount(request, 'phone')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    const phone = page.getByLabel('Phone Number (optional)')
    await phone.fill('4155550123')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('Enter the phone number in international format', { exact: false })).toBeVisible()
    await phone.fill('+1 415 555 0123')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('Settings updated')).toBeVisible()
    await expect(phone).toHaveValue('+14155550123')

    await page.context().clearCookies()
    await signIn(page, ADMIN)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(account.email)}`)
    const table = page.getByRole('table', { name: 'Users' })
    const line = table.getByRole('row').filter({ hasText: account.email })
    // The phone sits under the e-mail address.
    await expect(line.getByRole('cell').nth(1)).toContainText(`${account.email}Phone +14155550123`)

    await line.getByRole('button', { name: `Edit User ${account.email}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await dialog.getByLabel('Phone Number').fill('+44 20 7183 8750')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('User updated')).toBeVisible()
    await expect(line).toContainText('+442071838750')
  })
})

const rnd = () => Math.floor(Math.random() * 254) + 1

/** How many "Verify your e-mail" mails the address got, read from the outbox as the admin. */
async function mailCount(request: Parameters<typeof apiToken>[0], to: string): Promise<number> {
  const token = await apiToken(request, ADMIN)
  const response = await request.get(`/api/mail/outbox?to=${encodeURIComponent(to)}&limit=50`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  const { data } = (await response.json()) as { data: { subject: string }[] }
  return data.filter((mail) => mail.subject === 'Verify your e-mail address for Aether').length
}
