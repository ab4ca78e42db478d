import { createAccount, latestMail, linkIn } from './accounts.ts'
import { ADMIN, BASE_URL, expect, expectNoAxeViolations, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'

test.describe('settings', () => {
  test('validates the name and e-mail, then saves the name', async ({ page, request }) => {
    const account = await createAccount(request, 'settings')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible()
    const name = page.getByLabel('Full Name')
    const email = page.getByLabel('Email Address')
    await expect(email).toHaveValue(account.email)

    await name.fill('A')
    await name.blur()
    await expect(page.getByText('Name must be at least 2 characters.')).toBeVisible()
    await email.fill('not-an-email')
    await email.blur()
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible()
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('Name must be at least 2 characters.')).toBeVisible()

    await email.fill(account.email)
    await name.fill('Grace Hopper')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('Settings updated')).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Full Name')).toHaveValue('Grace Hopper')
    await expectNoAxeViolations(page)
  })

  test('the server refuses a one-letter name even without the browser checks', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 400/)
    const account = await createAccount(request, 'settings-server')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await page.locator('form#account-settings').evaluate((form) => form.setAttribute('novalidate', ''))
    await page.getByLabel('Full Name').evaluate((input: HTMLInputElement) => {
      input.removeAttribute('minlength')
      input.value = 'Z'
    })
    await page.locator('form#account-settings').evaluate((form: HTMLFormElement) => HTMLFormElement.prototype.submit.call(form))
    await expect(page.getByText('Name must be at least 2 characters.')).toBeVisible()
    await gotoHydrated(page, '/settings')
    await expect(page.getByLabel('Full Name')).toHaveValue('Test Member')
  })

  test('Reset Password e-mails a one-time link that sets a new password', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 400 .*\/reset-password\.data/)
    const account = await createAccount(request, 'reset')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await expect(toasts(page).getByText('Password reset email sent')).toBeVisible()

    const mail = await latestMail(account.email, 'Reset your Aether password')
    const link = linkIn(mail.text, '/reset-password')
    // Signed out without a member page open: its live run stream would reconnect, cookie-less, and get a 401.
    await page.goto('about:blank')
    await page.context().clearCookies()
    await gotoHydrated(page, link)
    await page.getByLabel('New Password', { exact: true }).fill('my-new-secret-123')
    await page.getByLabel('Repeat New Password').fill('my-new-secret-123')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await expect(page).toHaveURL('/auth')
    await expect(toasts(page).getByText('Password changed')).toBeVisible()

    await signIn(page, { email: account.email, password: 'my-new-secret-123' })
    // The link worked once.
    await page.goto('about:blank')
    await page.context().clearCookies()
    await gotoHydrated(page, link)
    await page.getByLabel('New Password', { exact: true }).fill('another-secret-456')
    await page.getByLabel('Repeat New Password').fill('another-secret-456')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await expect(page.getByText('This reset link has expired or was already used.')).toBeVisible()
  })

  test('Forgot your password? on the sign-in page answers the same for any address', async ({ page }) => {
    await gotoHydrated(page, '/auth')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page).toHaveURL('/forgot-password')
    await page.getByLabel('Email').fill('nobody-at-all@example.com')
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(toasts(page).getByText('Check your inbox')).toBeVisible()
  })

  test('a new e-mail address is used only after its link is followed', async ({ page, request }) => {
    const account = await createAccount(request, 'move')
    const newEmail = account.email.replace('move-', 'moved-')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await page.getByLabel('Email Address').fill(newEmail)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText(`We sent a confirmation link to ${newEmail}.`, { exact: false })).toBeVisible()
    await expect(page.getByLabel('Email Address')).toHaveValue(account.email)

    const mail = await latestMail(newEmail, 'Confirm your new e-mail address for Aether')
    await gotoHydrated(page, linkIn(mail.text, '/confirm-email'))
    await page.getByRole('button', { name: 'Confirm Change' }).click()
    // The change ended every session: the member signs in again, with the new address.
    await expect(page).toHaveURL('/auth')
    await expect(toasts(page).getByText('E-mail address changed')).toBeVisible()
    await signIn(page, { email: newEmail, password: account.password })
    await gotoHydrated(page, '/settings')
    await expect(page.getByLabel('Email Address')).toHaveValue(newEmail)
  })

  test('a new account is asked to verify its address, and the link from the sign-up e-mail does it', async ({ page, request }) => {
    const account = await createAccount(request, 'verify', BASE_URL, { verified: false })
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await expect(page.getByText(`Please verify ${account.email}`)).toBeVisible()
    const mail = await latestMail(account.email, 'Verify your e-mail address for Aether')
    await gotoHydrated(page, linkIn(mail.text, '/verify-email'))
    await expect(page.getByRole('heading', { name: 'E-mail address verified' })).toBeVisible()
    await gotoHydrated(page, '/settings')
    await expect(page.getByText(`Please verify ${account.email}`)).toBeHidden()
  })

  test('the side menu has Account, Billing and Security', async ({ page }) => {
    await signIn(page, MEMBER)
    await gotoHydrated(page, '/settings')
    const menu = page.getByRole('navigation', { name: 'Account' })
    await expect(menu.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/settings')
    await expect(menu.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/billing')
    await expect(menu.getByRole('link', { name: 'Security' })).toHaveAttribute('href', '/settings#security')
  })
})

test.describe('diagnostics', () => {
  test('an admin sees the Billing Page Diagnostics panels, without secrets', async ({ page }) => {
    await signIn(page, ADMIN)
    await gotoHydrated(page, '/diagnostics')
    await expect(page.getByRole('heading', { name: 'Billing Page Diagnostics' })).toBeVisible()
    for (const panel of ['Authentication session', 'User profile', 'Profiles table', 'Backend connection', 'Errors']) {
      await expect(page.getByRole('heading', { name: panel })).toBeVisible()
    }
    await expect(page.getByText(ADMIN.email).first()).toBeVisible()
    await expect(page.getByText('PGlite (embedded PostgreSQL)')).toBeVisible()
    await page.getByRole('button', { name: 'Run again' }).click()
    await expect(page.getByRole('heading', { name: 'Backend connection' })).toBeVisible()
  })

  test('a member is sent to the dashboard', async ({ page }) => {
    await signIn(page, MEMBER)
    await page.goto('/diagnostics')
    await expect(page).toHaveURL('/dashboard')
  })
})
