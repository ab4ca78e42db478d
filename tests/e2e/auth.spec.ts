import { BASE_URL, expect, gotoHydrated, MEMBER, signIn, test, uniqueEmail } from './fixtures.ts'

test.describe('/auth', () => {
  test('a visitor signs up, signs in, sees the dashboard and signs out', async ({ page }) => {
    const visitor = { email: uniqueEmail(), password: 'correct-horse-battery' }

    await gotoHydrated(page, '/auth')
    await expect(page.getByRole('heading', { name: 'Sign in to Aether' })).toBeVisible()
    await page.getByRole('link', { name: 'Create one' }).click()
    await expect(page).toHaveURL('/auth?mode=signup')
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()

    await page.getByLabel('Email').fill(visitor.email)
    await page.getByLabel('Password').fill(visitor.password)
    await page.getByRole('button', { name: 'Create Account' }).click()

    await expect(page.getByText('Account created successfully!')).toBeVisible()
    // Back in sign-in mode, with a message to log in.
    await expect(page.getByRole('heading', { name: 'Sign in to Aether' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: 'Please log in with your email and password.' })).toBeVisible()

    await page.getByLabel('Email').fill(visitor.email)
    await page.getByLabel('Password').fill(visitor.password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()

    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByText('Welcome back!')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()
    const summary = page.getByRole('region', { name: 'Account summary' })
    await expect(summary).toContainText('Current plan')
    await expect(summary).toContainText('Free')
    // A new member starts with the System Settings' default credits (5 in the spec).
    await expect(summary).toContainText(/Credits remaining\s*5\b/)

    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page).toHaveURL('/')
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: 'Log In' })).toBeVisible()
    await expect(header.getByRole('link', { name: 'Sign Up Free' })).toBeVisible()
    await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveCount(0)

    await page.goto('/dashboard')
    await expect(page).toHaveURL('/auth')
    await expect(page.getByRole('heading', { name: 'Sign in to Aether' })).toBeVisible()
  })

  test('create-account mode opens from the link and from ?mode=signup, and toggles back', async ({ page }) => {
    await gotoHydrated(page, '/auth?mode=signup')
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible()
    await page.getByRole('link', { name: 'Sign in' }).click()
    await expect(page).toHaveURL('/auth')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible()
  })

  test('a wrong password shows the Authentication error toast and stays on /auth', async ({ page, consoleErrors }) => {
    // Chromium itself logs the refused request (HTTP 401); that is the expected outcome here.
    consoleErrors.allowHttpStatus(401, '/auth.data')

    await gotoHydrated(page, '/auth')
    await page.getByLabel('Email').fill(MEMBER.email)
    await page.getByLabel('Password').fill('not-the-right-password')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()

    await expect(page.getByText('Authentication error')).toBeVisible()
    await expect(page).toHaveURL('/auth')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled()
  })

  test('the submit button shows "Please wait" while the sign-in is in flight', async ({ page }) => {
    // Hold the form submission until the busy state has been seen, then let it through.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route(
      (url) => url.pathname.startsWith('/auth'),
      async (route) => {
        if (route.request().method() === 'POST') await released
        await route.continue()
      },
    )

    await gotoHydrated(page, '/auth')
    await page.getByLabel('Email').fill(MEMBER.email)
    await page.getByLabel('Password').fill(MEMBER.password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()

    const busy = page.getByRole('button', { name: 'Please wait' })
    await expect(busy).toBeVisible()
    await expect(busy).toBeDisabled()
    release()

    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByText('Welcome back!')).toBeVisible()
  })

  test('the Google button shows the Coming Soon notice', async ({ page }) => {
    await gotoHydrated(page, '/auth')
    await page.getByRole('button', { name: 'Continue with Google' }).click()
    await expect(page.getByText('Coming Soon', { exact: true })).toBeVisible()
    await expect(page).toHaveURL('/auth')
  })

  test('/auth has the canonical, Open Graph and Twitter tags of a public page, and is not indexed', async ({ page, request }) => {
    for (const path of ['/auth', '/auth?mode=signup']) {
      const html = await (await request.get(path)).text()
      expect(html, path).toContain(`<link rel="canonical" href="${BASE_URL}/auth"/>`)
      expect(html, path).toMatch(/<meta name="robots" content="noindex,follow"\/>/)
    }
    await page.goto('/auth?mode=signup')
    await expect(page).toHaveTitle('Log In or Sign Up | Aether')
    for (const property of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type', 'og:site_name']) {
      await expect(page.locator(`meta[property="${property}"]`), property).toHaveAttribute('content', /.+/)
    }
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', `${BASE_URL}/auth`)
    for (const name of ['twitter:card', 'twitter:title', 'twitter:description', 'twitter:image', 'description']) {
      await expect(page.locator(`meta[name="${name}"]`), name).toHaveAttribute('content', /.+/)
    }
  })

  test('a signed-in member who opens /auth goes to the dashboard', async ({ page }) => {
    await signIn(page, MEMBER)
    await page.goto('/auth')
    await expect(page).toHaveURL('/dashboard')
  })
})
