import { createAccount } from './accounts.ts'
import { SANDBOX_URL } from './credentials.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// The members' billing portal (issue 33) on the server with the local payment sandbox: "Manage
// payment method and invoices" opens the sandbox's customer portal, as it opens Paddle's, and the
// billing history links each paid payment's invoice through our server.
test.use({ baseURL: SANDBOX_URL })

test.describe('the billing portal in the payment sandbox', () => {
  // A whole journey: sign-in, checkout, the trial's end, the portal, the invoice.
  test.describe.configure({ timeout: 90_000 })

  test('a subscriber manages the card in the portal and opens an invoice from the history; nobody else gets it', async ({
    page,
    request,
    browser,
  }) => {
    const account = await createAccount(request, 'portal', SANDBOX_URL)
    await signIn(page, account)
    const manage = page.getByRole('button', { name: 'Manage payment method and invoices' })
    // No customer yet: nothing to manage.
    await gotoHydrated(page, '/billing')
    await expect(page.getByText('Credits remaining')).toBeVisible()
    await expect(manage).toBeHidden()

    // A trial, then its end: the first $29.00 charge, the first invoice.
    await gotoHydrated(page, '/billing/checkout?plan=pro')
    await page.getByRole('button', { name: 'Start free trial' }).click()
    await expect(page).toHaveURL('/dashboard')
    await gotoHydrated(page, '/billing')
    await page.getByRole('button', { name: 'End the billing period now' }).click()
    await expect(toasts(page).getByText('Trial ended')).toBeVisible()

    await manage.click()
    await expect(page).toHaveURL('/billing/portal')
    await expect(page.getByRole('heading', { name: 'Customer portal', level: 1 })).toBeVisible()
    await expect(page.getByText(/^Payment sandbox: this page stands in for Paddle's customer portal\./)).toBeVisible()
    await expect(page.getByText('Aether Pro', { exact: true })).toBeVisible()
    await expect(page.getByText('visa •••• 4242')).toBeVisible()
    const invoices = page.getByRole('table', { name: 'Invoices' })
    await expect(invoices.getByRole('row')).toHaveCount(2)
    await expect(invoices).toContainText('$29.00')
    await expectNoAxeViolations(page)

    // Another test card, saved as Paddle saves one: through a signed $0 transaction.
    await page.getByRole('radio', { name: /Mastercard 5555 5555 5555 4444/ }).check()
    await page.getByRole('button', { name: 'Update payment method' }).click()
    await expect(toasts(page).getByText('Payment method updated')).toBeVisible()
    await expect(page.getByText('mastercard •••• 4444')).toBeVisible()
    await gotoHydrated(page, '/billing')
    await expect(page.getByText('Mastercard ending 4444')).toBeVisible()

    // The history: an invoice for the $29.00 payment, none for the $0.00 ones.
    await gotoHydrated(page, '/billing/history')
    const history = page.getByRole('table', { name: /All payments \(3\)/ })
    await expect(history.getByRole('link', { name: /^Invoice/ })).toHaveCount(1)
    const link = history
      .getByRole('row')
      .filter({ hasText: '$29.00' })
      .getByRole('link', { name: /^Invoice/ })
    const href = await link.getAttribute('href')
    expect(href).toMatch(/^\/billing\/invoices\/[0-9a-f-]{36}$/)
    await link.click()
    await expect(page).toHaveURL(/\/billing\/portal\/invoices\/txn_sandbox_[0-9a-f]+$/)
    await expect(page.getByRole('heading', { name: 'Invoice', level: 1 })).toBeVisible()
    await expect(page.getByText('Payment sandbox: a test invoice. No real payment was taken.')).toBeVisible()
    await expect(page.getByText(account.email)).toBeVisible()
    await expect(page.getByRole('row', { name: /Aether Pro plan, monthly/ })).toContainText('$29.00')
    await expect(page.getByRole('row', { name: /Total paid/ })).toContainText('$29.00')
    await expectNoAxeViolations(page)

    // Another member, signed in on their own browser, gets neither our link nor the sandbox's page.
    const stranger = await createAccount(request, 'portal-stranger', SANDBOX_URL)
    const context = await browser.newContext({ baseURL: SANDBOX_URL })
    try {
      const other = await context.newPage()
      await signIn(other, stranger)
      for (const path of [href ?? '', new URL(page.url()).pathname]) {
        const response = await other.goto(path)
        expect(response?.status(), path).toBe(404)
        await expect(other.getByText(account.email)).toBeHidden()
      }
    } finally {
      await context.close()
    }
  })
})
