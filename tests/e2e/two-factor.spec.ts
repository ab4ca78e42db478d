import type { Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { createAccount } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts, type Credentials } from './fixtures.ts'

// Two-factor sign-in and passkeys (docs/decisions/023), as a person does them: set up an
// authenticator app from Settings and sign in with its code (computed here, as the app would),
// lose the phone and use a recovery code, and add a passkey with Chromium's virtual authenticator
// (the DevTools WebAuthn domain) and sign in with it.

/** The app's code now, or `steps` 30-second steps later (a code works once: the next one is the next step's). */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })

/** The password step on /auth, which now asks for a second factor. */
async function passwordStep(page: Page, account: Credentials) {
  // Leave the page first: the dashboard's live stream, cut off from its session, would log a 401.
  await page.goto('about:blank')
  await page.context().clearCookies()
  await gotoHydrated(page, '/auth')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL('/auth?step=two-factor')
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible()
}

test.describe('two-factor sign-in', () => {
  test('set up from Settings, then sign in with a code, and with a recovery code once', async ({ page, request, consoleErrors }) => {
    test.slow()
    // Wrong codes are refused with 401 on purpose; Chromium logs those answers.
    consoleErrors.allowHttpStatus(401, '/auth.data?step=two-factor')
    consoleErrors.allowHttpStatus(401, '/auth.data?step=two-factor&method=recovery')
    consoleErrors.allowHttpStatus(400, '/settings.data')
    const account = await createAccount(request, 'two-factor')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    const card = page.locator('#two-factor')
    await expect(card.getByRole('heading', { name: /Two-factor sign-in/ })).toContainText('Off')

    await card.getByLabel('Password').fill(account.password)
    await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
    await expect(card.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible()
    const secret = ((await card.getByLabel('Secret key').textContent()) ?? '').replace(/\s+/g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/)

    // A wrong code is refused; the newest one confirms.
    await card.getByLabel('Code from the app').fill('000000')
    await card.getByRole('button', { name: 'Confirm' }).click()
    await expect(card.getByText('That code is not right.', { exact: false })).toBeVisible()

    const firstCode = codeFor(secret)
    await card.getByLabel('Code from the app').fill(firstCode)
    await card.getByRole('button', { name: 'Confirm' }).click()
    const codes = card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
    await expect(codes).toHaveCount(10)
    const recoveryCodes = await codes.allTextContents()
    await expectNoAxeViolations(page)
    // The page still works with the session Better Auth replaced; the codes are gone after a reload.
    await page.reload()
    await expect(card.getByRole('heading', { name: /Two-factor sign-in/ })).toContainText('On')
    await expect(card.getByText('10 recovery codes are left.')).toBeVisible()
    await expect(card.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0)
    // A code works once: the one that turned it on does not turn it off.
    await card.getByLabel('Or code from the app').fill(firstCode)
    await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click()
    await expect(card.locator('#disable-error')).toContainText('This code was already used.')
    await expect(card.getByRole('heading', { name: /Two-factor sign-in/ })).toContainText('On')

    // The password alone no longer signs in: a wrong code is refused, the app's next code signs in.
    await passwordStep(page, account)
    await page.getByLabel('Authentication code').fill('000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.locator('#second-factor-error')).toContainText('Invalid two-factor code')
    await page.getByLabel('Authentication code').fill(codeFor(secret, 1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()

    // The phone is lost: a recovery code signs in, once.
    await passwordStep(page, account)
    await page.getByRole('link', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL('/dashboard')

    await passwordStep(page, account)
    await page.getByRole('link', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.locator('#second-factor-error')).toContainText('Invalid recovery code')
    await expect(page).toHaveURL(/\/auth/)
  })

  test('the second step works without JavaScript', async ({ browser, request }) => {
    const account = await createAccount(request, 'two-factor-nojs')
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': '10.250.1.2' } })
    const page = await context.newPage()
    // Set two-factor up over the API (the form flow is tested above), then sign in with plain forms.
    const login = await request.post('/api/auth/login', { data: account, headers: { 'X-Forwarded-For': '10.250.1.3' } })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    const headers = { Authorization: `Bearer ${token}`, 'X-Forwarded-For': '10.250.1.3' }
    const setup = await request.post('/api/auth/two-factor/setup', { data: { password: account.password }, headers })
    const { secret } = ((await setup.json()) as { data: { secret: string } }).data
    expect((await request.post('/api/auth/two-factor/confirm', { data: { code: codeFor(secret) }, headers })).status()).toBe(200)

    await page.goto('/auth')
    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Password').fill(account.password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page).toHaveURL('/auth?step=two-factor')
    await page.getByLabel('Authentication code').fill(codeFor(secret, 1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL('/dashboard')
    await context.close()
  })
})

test.describe('passkeys', () => {
  test('added from Settings with the virtual authenticator, then signing in with it', async ({ page, request }) => {
    test.slow()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })

    const account = await createAccount(request, 'passkey')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    const card = page.locator('#passkeys')
    await expect(card.getByText('You have no passkeys yet.')).toBeVisible()
    await card.getByLabel('Passkey name').fill('Test laptop')
    await card.getByLabel('Password').fill(account.password)
    await card.getByRole('button', { name: 'Add passkey' }).click()
    await expect(toasts(page).getByText('Passkey added')).toBeVisible()
    await expect(card.getByRole('list', { name: 'Your passkeys' }).getByText('Test laptop')).toBeVisible()
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.isResidentCredential).toBe(true)

    // Signed out, the passkey alone signs in: no password, no code.
    await page.context().clearCookies()
    await gotoHydrated(page, '/auth')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()

    // Deleted, it no longer appears.
    await gotoHydrated(page, '/settings')
    await card.getByRole('button', { name: 'Delete passkey Test laptop' }).click()
    await page.getByRole('button', { name: 'Delete Passkey' }).click()
    await expect(toasts(page).getByText('Passkey deleted')).toBeVisible()
    await expect(card.getByText('You have no passkeys yet.')).toBeVisible()
  })
})
