import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, gotoHydrated, MEMBER, signIn, test, toasts, uniqueEmail } from './fixtures.ts'
import { startIsolatedServer } from './isolated-server.ts'

const planCard = (page: Page, name: string) =>
  page.locator('#pricing article').filter({ has: page.getByRole('heading', { name, exact: true }) })

async function useLightTheme(page: Page) {
  await page.getByRole('button', { name: 'Light theme' }).first().click()
  await expect(page.locator('html')).toHaveClass(/light/)
}

test.describe('home page', () => {
  test('renders the hero, the three cards, six numbered features, four steps and the closing banner', async ({ page }) => {
    await gotoHydrated(page, '/')
    await expect(page).toHaveTitle('Aether — AI-powered browser and desktop automation')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Automate everything, from web browsing to business workflows')
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    const start = page.getByRole('link', { name: 'Start Automating Now' })
    await expect(start).toHaveAttribute('href', '/auth?mode=signup')
    await expect(page.getByRole('button', { name: 'Watch Demo' })).toBeVisible()

    for (const name of ['Chrome Extensions & Desktop Apps', 'Smart Workflows', 'Full SaaS Control']) {
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()
    }

    const features = page.locator('#features li')
    const featureNames = [
      'Browser Automation',
      'AI Task Handler',
      'Desktop App Integration',
      'Custom Scripting Support',
      'Cloud Sync & Session Restore',
      'User-Friendly Dashboard',
    ]
    await expect(features).toHaveCount(6)
    for (const [index, name] of featureNames.entries()) {
      await expect(features.nth(index)).toContainText(`0${index + 1}`)
      await expect(features.nth(index).getByRole('heading', { level: 3 })).toHaveText(name)
    }

    const steps = page.locator('#how-it-works li')
    await expect(steps).toHaveCount(4)
    for (const [index, name] of ['Record Your Actions', 'AI Enhancement', 'Save & Schedule', 'Run & Monitor'].entries()) {
      await expect(steps.nth(index)).toContainText(String(index + 1))
      await expect(steps.nth(index).getByRole('heading', { level: 3 })).toHaveText(name)
    }
    await expect(page.locator('#how-it-works').getByRole('link', { name: 'Start Your First Automation' })).toHaveAttribute(
      'href',
      '/auth?mode=signup',
    )

    await expect(page.getByRole('heading', { level: 2, name: 'Start Automating Now' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Get Started for Free' })).toHaveAttribute('href', '/auth?mode=signup')

    // Footer: every page and anchor of the spec, and the contact address.
    const footer = page.locator('footer')
    for (const href of [
      '/about',
      '/blog',
      '/careers',
      '/contact',
      '/legal',
      '/privacy',
      '/terms',
      '/cookies',
      '/acceptable-use',
      '/#features',
      '/#pricing',
    ]) {
      await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1)
    }
    await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1)
  })

  test('an interrupted request (AbortError) nobody awaits is no page error; any other unhandled rejection still is', async ({
    page,
    consoleErrors,
  }) => {
    consoleErrors.allow(/a real bug/)
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // A page that is used: React's entry (which tells the two apart) loads after the first paint.
    await gotoHydrated(page, '/services')
    await page.evaluate(() => {
      void Promise.reject(new DOMException('signal is aborted without reason', 'AbortError'))
      void Promise.reject(Object.assign(new Error('a revalidation was cut short'), { name: 'AbortError' }))
    })
    await page.waitForTimeout(200)
    expect(errors).toEqual([])
    await page.evaluate(() => void Promise.reject(new Error('a real bug')))
    await expect.poll(() => errors).toEqual(['a real bug'])
  })

  test('pricing comes from the plans table: Most Popular on Pro, /month only on paid plans, Contact Sales', async ({ page }) => {
    await gotoHydrated(page, '/')
    await expect(page.locator('#pricing article')).toHaveCount(3)
    const free = planCard(page, 'Free')
    const pro = planCard(page, 'Pro')
    const business = planCard(page, 'Business')
    await expect(free).toContainText('Free')
    await expect(free).not.toContainText('/month')
    await expect(free).toContainText('5 automations per month')
    await expect(pro).toContainText('$29/month')
    await expect(pro).toContainText('Cloud sync across 3 devices')
    await expect(business).toContainText('$79/month')
    await expect(business).toContainText('Unlimited devices')
    await expect(pro.getByText('Most Popular')).toBeVisible()
    await expect(page.locator('#pricing').getByText('Most Popular')).toHaveCount(1)
    await expect(page.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/contact')
  })

  test('Watch Demo opens the walkthrough dialog; Escape closes it and focus returns', async ({ page }) => {
    // A whole walkthrough plus an axe-core scan: more than 30 s on a loaded 2-core machine.
    test.slow()
    await gotoHydrated(page, '/')
    const watch = page.getByRole('button', { name: 'Watch Demo' })
    await watch.click()
    const dialog = page.getByRole('dialog', { name: 'See Aether in action' })
    await expect(dialog).toBeVisible()
    const steps = dialog.getByRole('list', { name: 'Walkthrough steps' })
    await expect(dialog.getByText('Recording', { exact: true })).toBeVisible()
    // One step open at a time.
    await steps.getByText('Step 2: AI Enhancement').click()
    await expect(dialog.getByText('Wait until the table has loaded')).toBeVisible()
    await expect(dialog.getByText('Recording', { exact: true })).toBeHidden()
    await steps.getByText('Step 4: Run & Monitor').click()
    await expect(dialog.getByText('Running…')).toBeVisible()
    await expect(dialog.getByText('Wait until the table has loaded')).toBeHidden()
    await expectNoAxeViolations(page)

    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(watch).toBeFocused()

    // By keyboard: Enter opens it, the close button closes it.
    await page.keyboard.press('Enter')
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await expect(watch).toBeFocused()

    // A click outside it closes it.
    await watch.click()
    await expect(dialog).toBeVisible()
    await page.mouse.click(5, 5)
    await expect(dialog).toBeHidden()
  })

  test("a visitor's plan button goes to /auth", async ({ page }) => {
    await gotoHydrated(page, '/')
    await planCard(page, 'Pro').getByRole('link', { name: 'Choose Pro' }).click()
    await expect(page).toHaveURL('/auth')
  })

  test('carries Organization JSON-LD and is cacheable for visitors only', async ({ page, request }) => {
    const response = await request.get('/')
    expect(response.headers()['cache-control']).toBe('public, max-age=60, s-maxage=300')
    expect(response.headers()['vary']).toMatch(/Cookie/)

    await page.goto('/')
    const jsonLd = await page.locator('script[type="application/ld+json"]').textContent()
    expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({ '@context': 'https://schema.org', '@type': 'Organization', name: 'Aether' })

    await signIn(page, MEMBER)
    const signedIn = await page.request.get('/')
    expect(signedIn.headers()['cache-control']).toBe('private, no-store')
    const services = await page.request.get('/services')
    expect(services.headers()['cache-control']).toBe('private, no-store')
  })

  test("the member's Free button goes to the dashboard; a paid plan says checkout is not available yet", async ({ page }) => {
    await signIn(page, MEMBER)
    await gotoHydrated(page, '/')
    await expect(page.getByRole('link', { name: 'Start Automating Now' })).toHaveAttribute('href', '/dashboard')

    await planCard(page, 'Free').getByRole('button', { name: 'Get Started' }).click()
    await expect(page).toHaveURL('/dashboard')
    await expect(toasts(page).getByText('Free Plan Selected')).toBeVisible()

    await gotoHydrated(page, '/')
    await planCard(page, 'Business').getByRole('button', { name: 'Choose Business' }).click()
    await expect(toasts(page).getByText('Checkout Not Available')).toBeVisible()
    await expect(toasts(page).getByText('Our payment system is currently being set up. Please try again later.')).toBeVisible()
    await expect(page).toHaveURL('/')
  })
})

test.describe('services page', () => {
  test('renders the hero, Why Automate?, About Me and the pricing card', async ({ page, request }) => {
    const response = await request.get('/services')
    expect(response.status()).toBe(200)
    expect(response.headers()['cache-control']).toBe('public, max-age=60, s-maxage=300')

    await gotoHydrated(page, '/services')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Custom Automation Services')
    await expect(page.getByRole('heading', { level: 2, name: 'Why Automate?' })).toBeVisible()
    for (const name of ['Save Time', 'Reduce Costs', 'Scale Your Business', 'Reduce Errors']) {
      await expect(page.getByRole('heading', { level: 3, name, exact: true })).toBeVisible()
    }
    const about = page.locator('section').filter({ has: page.getByRole('heading', { name: 'About Me' }) })
    await expect(about).toContainText('over 140 satisfied clients')
    await expect(about).toContainText('4.8/5')
    await expect(about).toContainText('from 148 reviews')
    for (const name of [/Freelancer profile/, /Scraper store/]) {
      const link = about.getByRole('link', { name })
      await expect(link).toHaveAttribute('target', '_blank')
      await expect(link).toHaveAttribute('rel', /noopener/)
    }
    const pricing = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Pricing' }) })
    await expect(pricing).toContainText('$35/hour')
    await expect(pricing).toContainText('fixed price based on project scope')
    await expect(page.getByRole('heading', { name: "Let's Discuss Your Project" })).toBeVisible()
  })

  test('the tabs switch and set the project type', async ({ page }) => {
    await gotoHydrated(page, '/services', 'form#service-inquiry')
    const projectType = page.getByLabel('Project Type')
    await expect(projectType).toHaveValue('data-scraping')
    await expect(projectType.locator('option')).toHaveText(['Data Scraping', 'Process Automation', 'Custom Tools', 'Other'])
    await expect(page.getByRole('tab', { name: 'Data Scraping' })).toHaveAttribute('aria-selected', 'true')
    for (const name of ['Web Scraping', 'Data Monitoring', 'API Integration'])
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()

    await page.getByRole('tab', { name: 'Process Automation' }).click()
    await expect(page.getByRole('tab', { name: 'Process Automation' })).toHaveAttribute('aria-selected', 'true')
    for (const name of ['Workflow Automation', 'System Integration', 'Data Processing'])
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Web Scraping', exact: true })).toBeHidden()
    await expect(projectType).toHaveValue('process-automation')

    await page.getByRole('tab', { name: 'Custom Tools' }).click()
    for (const name of ['Custom Scripts', 'Browser Extensions', 'Chat & Process Bots'])
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
    await expect(projectType).toHaveValue('custom-tools')

    // The arrow keys move between tabs too.
    await page.keyboard.press('ArrowLeft')
    await expect(page.getByRole('tab', { name: 'Process Automation' })).toBeFocused()
    await expect(projectType).toHaveValue('process-automation')
  })

  test('the inquiry form shows field errors for empty and invalid input and sends nothing', async ({ page }) => {
    // The form's code arrives after the page's (a lazy chunk): wait until the form itself is live.
    await gotoHydrated(page, '/services', 'form#service-inquiry')
    let posted = false
    page.on('request', (request) => {
      if (request.method() === 'POST') posted = true
    })
    await page.getByRole('button', { name: 'Send Inquiry' }).click()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expect(page.getByText('Email is required')).toBeVisible()
    await expect(page.getByText('Project details are required')).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')

    await page.getByLabel('Email', { exact: true }).fill('not-an-email')
    await page.getByLabel('Email', { exact: true }).blur()
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible()
    await expect(page.getByLabel('Project Details')).toHaveAttribute('rows', '5')
    const honeypot = page.locator('input[name="website"]')
    await expect(honeypot).toHaveAttribute('tabindex', '-1')
    await expect(honeypot).toHaveAttribute('autocomplete', 'off')
    expect(posted).toBe(false)
  })

  test("an inquiry is sent: 'Sending...', 'Inquiry sent!', fields cleared and project type back to Data Scraping", async ({ page }) => {
    await gotoHydrated(page, '/services', 'form#service-inquiry')
    await page.getByRole('tab', { name: 'Custom Tools' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Playwright Client')
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('services'))
    await page.getByLabel('Project Details').fill('Please build a Chrome extension that fills our order form.')
    await expect(page.getByLabel('Project Type')).toHaveValue('custom-tools')
    // Hold the request back a moment so the busy state can be seen.
    await page.route('**/services.data', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      await route.continue()
    })
    await page.getByRole('button', { name: 'Send Inquiry' }).click()
    await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled()

    await expect(toasts(page).getByText('Inquiry sent!')).toBeVisible()
    await expect(toasts(page).getByText("I'll get back to you within 24 hours.")).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Project Details')).toHaveValue('')
    await expect(page.getByLabel('Project Type')).toHaveValue('data-scraping')
    await expect(page.getByRole('button', { name: 'Send Inquiry' })).toBeEnabled()
  })
})

test.describe('accessibility of / and /services', () => {
  for (const pathname of ['/', '/services']) {
    test(`${pathname} has no axe violations in the dark and light themes`, async ({ page }) => {
      await gotoHydrated(page, pathname)
      await expectNoAxeViolations(page)
      await useLightTheme(page)
      await gotoHydrated(page, pathname)
      await expectNoAxeViolations(page)
    })
  }

  test.describe('at 360px', () => {
    test.use({ viewport: { width: 360, height: 740 } })
    for (const pathname of ['/', '/services']) {
      test(`${pathname} fits a small screen`, async ({ page }) => {
        await gotoHydrated(page, pathname)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow).toBeLessThanOrEqual(0)
        await expectNoAxeViolations(page)
      })
    }
  })
})

/**
 * The inquiry rate limit counts per client address, and every test of the suite reaches the shared
 * server from the same address. Filling that allowance would break other specs' forms for ten
 * minutes, so this test runs against a server of its own (same build, fresh database).
 */
test.describe('the inquiry form on a server of its own', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  let server: { url: string; stop: () => Promise<void> }

  test.beforeAll(async () => {
    // Starting a second server on a busy 2-core machine can take longer than a test's 30 s.
    test.setTimeout(90_000)
    server = await startIsolatedServer()
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('the form works before hydration (without JavaScript): field errors, then a stored inquiry', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${server.url}/services`)
    await page.getByRole('button', { name: 'Send Inquiry' }).click()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expect(page.getByText('Project details are required')).toBeVisible()

    await page.getByLabel('Name', { exact: true }).fill('No Script')
    await page.getByLabel('Email', { exact: true }).fill('noscript@example.com')
    await page.getByLabel('Project Type').selectOption('process-automation')
    await page.getByLabel('Project Details').fill('Sent from a browser without JavaScript.')
    await page.getByRole('button', { name: 'Send Inquiry' }).click()
    await expect(page).toHaveURL(`${server.url}/services`)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Project Type')).toHaveValue('data-scraping')
    await context.close()
  })

  test("the 6th inquiry from one client within 10 minutes shows 'Something went wrong' with the rate-limit message", async ({
    page,
    consoleErrors,
  }) => {
    consoleErrors.allow(
      new RegExp(
        `^console\\.error: Failed to load resource: the server responded with a status of 429 .*\\(at ${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/services\\.data`,
      ),
    )
    // Four through the API (the allowance is the address's, whatever the door; each test is a
    // client address of its own), then the fifth and sixth through the form.
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await page.request.post(`${server.url}/api/contact`, {
        data: { name: `Burst ${attempt}`, email: 'burst@example.com', projectType: 'data-scraping', message: 'Rate limit check.' },
      })
      expect(response.status(), `inquiry ${attempt}`).toBe(201)
    }

    await gotoHydrated(page, `${server.url}/services`, 'form#service-inquiry')
    const send = async (name: string) => {
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Email', { exact: true }).fill('burst@example.com')
      await page.getByLabel('Project Details').fill('Rate limit check through the form.')
      await page.getByRole('button', { name: 'Send Inquiry' }).click()
    }
    await send('Burst 5')
    await expect(toasts(page).getByText('Inquiry sent!')).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('')

    await send('Burst 6')
    await expect(toasts(page).getByText('Something went wrong')).toBeVisible()
    await expect(
      toasts(page).getByText('You have sent several messages in a short time. Please wait 10 minutes before sending another.'),
    ).toBeVisible()
    // Nothing was lost: the visitor's text stays in place.
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Burst 6')
    await expect(page.getByRole('button', { name: 'Send Inquiry' })).toBeEnabled()
  })
})
