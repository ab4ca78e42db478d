import type { Page } from '@playwright/test'
import { BASE_URL, expect, expectNoAxeViolations, gotoHydrated, test, uniqueEmail } from './fixtures.ts'

interface PublicPage {
  path: string
  h1: string
  texts: (string | RegExp)[]
  /** Headings (h2/h3) the spec names. */
  headings?: string[]
  /** Links the page must carry: accessible name -> href. */
  links?: [string | RegExp, string][]
}

const POLICIES: PublicPage[] = [
  {
    path: '/terms',
    h1: 'Terms of Service',
    headings: [
      'Introduction',
      'Definitions',
      'Acceptance',
      'User Accounts',
      'Intellectual Property',
      'Limitation of Liability',
      'Refund Policy',
      'Subscription and Billing',
      'Platform Information',
      'Changes to Terms',
      'Contact Information',
    ],
    texts: [
      '14-day free trial',
      '30-day money-back guarantee',
      'considered case by case',
      'generally not refunded for partial months',
      'prorated refund',
      'renew automatically',
    ],
    links: [
      ['Privacy Policy', '/privacy'],
      ['Cookie Policy', '/cookies'],
      ['support@aether.test', 'mailto:support@aether.test'],
    ],
  },
  {
    path: '/privacy',
    h1: 'Privacy Policy',
    headings: [
      'Introduction',
      'Data We Collect',
      'How We Use Your Data',
      'Data Security',
      'Data Retention',
      'Your Legal Rights',
      'Cookies',
      'Changes to This Policy',
      'Contact Us',
    ],
    texts: ['Identity data:', 'Contact data:', 'Technical data:', 'Usage data:'],
    links: [
      ['Terms of Service', '/terms'],
      ['Cookie Policy', '/cookies'],
    ],
  },
  {
    path: '/cookies',
    h1: 'Cookie Policy',
    headings: [
      'What Are Cookies',
      'How We Use Cookies',
      'Essential cookies',
      'Analytical and performance cookies',
      'Functionality cookies',
      'Targeting cookies',
      'Third-Party Cookies',
      'Your Choices',
      'Cookie List',
      'Changes to This Policy',
      'Contact Us',
    ],
    // The suite runs without an analytics id.
    texts: ['No analytics cookies are used on this site.'],
    links: [
      ['Terms of Service', '/terms'],
      ['Privacy Policy', '/privacy'],
    ],
  },
  {
    path: '/acceptable-use',
    h1: 'Acceptable Use Policy',
    headings: [
      'Prohibited Activities',
      'Content Standards',
      'Monitoring and Enforcement',
      'Reporting Violations',
      'Changes to This Policy',
      'Contact Us',
    ],
    texts: [],
    links: [
      ['Terms of Service', '/terms'],
      ['Privacy Policy', '/privacy'],
    ],
  },
]

const PAGES: PublicPage[] = [
  {
    path: '/about',
    h1: 'About Aether',
    headings: [
      'Our Story',
      'Our Mission',
      'Our Values',
      'User-Centered Design',
      'Continuous Innovation',
      'Ethical AI',
      'Meet the Founder',
      'Alex Morgan',
    ],
    texts: ['Aether started in 2022 as a one-person startup.', 'Founder & Lead Engineer', /over 10 years/i],
    links: [
      ['Get in Touch', '/contact'],
      ['Back to Home', '/'],
    ],
  },
  {
    path: '/careers',
    h1: 'Careers at Aether',
    headings: [
      'Current Team Status',
      'Company Culture',
      'Remote-First',
      'Autonomy & Ownership',
      'Continuous Learning',
      'Health & Wellness',
      'Work-Life Balance',
      'Growth & Development',
      'Team & Culture',
    ],
    texts: [
      'early-stage startup led by its founder',
      'not actively hiring',
      'Health, dental and vision insurance',
      'Monthly wellness stipend',
      'Flexible time off',
      'Flexible hours',
      'A 4-day work week every last week of the month',
      'Paid parental leave',
      'Mentorship from experienced engineers',
      'Yearly team retreats',
      'Home office stipend',
    ],
    links: [
      ['Get in Touch', '/contact'],
      ['Back to Home', '/'],
    ],
  },
  {
    path: '/contact',
    h1: 'Contact Us',
    headings: ['Send a Message', 'Contact Information', 'Meet the Founder', 'Browser Extension', 'Frequently Asked Questions'],
    texts: [
      'Monday - Friday: 9am - 5pm CET',
      'What is Aether?',
      'Is there a free trial?',
      'What is your refund policy?',
      'Is my data secure?',
    ],
    links: [
      ['hello@aether.test', 'mailto:hello@aether.test'],
      ['Back to Home', '/'],
    ],
  },
  {
    path: '/legal',
    h1: 'Legal Information',
    headings: ['Terms of Service', 'Privacy Policy', 'Cookie Policy', 'Acceptable Use Policy'],
    texts: [],
    links: [
      ['Read More about the Terms of Service', '/terms'],
      ['Read More about the Privacy Policy', '/privacy'],
      ['Read More about the Cookie Policy', '/cookies'],
      ['Read More about the Acceptable Use Policy', '/acceptable-use'],
      ['contact us', '/contact'],
      ['Back to Home', '/'],
    ],
  },
  ...POLICIES,
]

async function useLightTheme(page: Page) {
  const response = await page.request.post('/preferences', { form: { theme: 'light', returnTo: '/' }, maxRedirects: 0 })
  expect(response.status()).toBe(302)
}

test.describe('company and legal pages', () => {
  for (const info of PAGES) {
    test(`${info.path} renders its content with one h1, server-side`, async ({ page }) => {
      const response = await page.goto(info.path)
      expect(response?.status()).toBe(200)
      await expect(page.locator('h1')).toHaveCount(1)
      await expect(page.getByRole('heading', { level: 1, name: info.h1 })).toBeVisible()
      for (const name of info.headings ?? []) await expect(page.getByRole('heading', { name, exact: true }).first()).toBeVisible()
      for (const text of info.texts) await expect(page.getByText(text).first()).toBeVisible()
      for (const [name, href] of info.links ?? []) {
        await expect(page.getByRole('main').getByRole('link', { name, exact: true }).first()).toHaveAttribute('href', href)
      }
      await expect(page).toHaveTitle(/Aether/)
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${BASE_URL}${info.path}`)
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'index,follow')
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{50,}/)
      await expect(page.locator('meta[name="keywords"]')).toHaveAttribute('content', /.+/)
    })
  }

  test('headings never skip a level and static pages are briefly cacheable', async ({ request }) => {
    for (const info of PAGES) {
      const response = await request.get(info.path)
      expect(response.headers()['cache-control'], info.path).toBe('public, max-age=300, s-maxage=3600')
      const html = await response.text()
      const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((match) => Number(match[1]))
      levels.forEach((level, index) => {
        if (index > 0) expect(level - (levels[index - 1] ?? 1), `${info.path} heading order ${levels.join(',')}`).toBeLessThanOrEqual(1)
      })
    }
  })

  test("the policy pages show a real 'Last updated' date", async ({ page }) => {
    for (const policy of POLICIES) {
      await page.goto(policy.path)
      const updated = page.getByText(/^Last updated:/)
      await expect(updated).toHaveText(
        /^Last updated: (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/,
      )
      const iso = await updated.locator('time').getAttribute('datetime')
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      const [year, month, day] = (iso ?? '').split('-').map(Number)
      const expected = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      })
      await expect(updated).toHaveText(`Last updated: ${expected}`)
    }
  })

  test("every page's back button goes home", async ({ page }) => {
    // One visit and one click for each of the pages: more than a single page's time on a busy machine.
    test.setTimeout(30_000 + PAGES.length * 10_000)
    for (const info of PAGES) {
      await gotoHydrated(page, info.path)
      await page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click()
      await expect(page).toHaveURL('/')
    }
  })

  test('/legal cards and the contact link lead to their pages', async ({ page }) => {
    await gotoHydrated(page, '/legal')
    await page.getByRole('link', { name: 'Read More about the Cookie Policy' }).click()
    await expect(page).toHaveURL('/cookies')
    await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible()
    await gotoHydrated(page, '/legal')
    await page.getByRole('link', { name: 'contact us' }).click()
    await expect(page).toHaveURL('/contact')
  })

  test('the contact FAQ opens and closes from the keyboard', async ({ page }) => {
    await gotoHydrated(page, '/contact')
    const question = page.locator('summary', { hasText: 'Is my data secure?' })
    const answerLink = page.getByRole('main').getByRole('link', { name: 'Privacy Policy' })
    await expect(answerLink).toBeHidden()
    await question.focus()
    await page.keyboard.press('Enter')
    await expect(answerLink).toBeVisible()
    await expect(answerLink).toHaveAttribute('href', '/privacy')
    await page.keyboard.press('Enter')
    await expect(answerLink).toBeHidden()
    const extension = page.getByRole('link', { name: /Get the browser extension/ })
    await expect(extension).toHaveAttribute('target', '_blank')
    await expect(extension).toHaveAttribute('rel', /noopener/)
  })
})

test.describe('the contact form', () => {
  test('an empty submit shows the field errors and sends nothing', async ({ page }) => {
    await gotoHydrated(page, '/contact')
    let posted = false
    page.on('request', (request) => {
      if (request.method() === 'POST') posted = true
    })
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expect(page.getByText('Email is required')).toBeVisible()
    await expect(page.getByText('Message is required')).toBeVisible()
    await expect(page.getByLabel('Your Name')).toHaveAttribute('aria-invalid', 'true')

    await page.getByLabel('Email Address').fill('not-an-email')
    await page.getByLabel('Email Address').blur()
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible()
    expect(posted).toBe(false)
  })

  test('a message is sent: success toast and cleared fields', async ({ page }) => {
    await gotoHydrated(page, '/contact')
    await page.getByLabel('Your Name').fill('Playwright Visitor')
    await page.getByLabel('Email Address').fill(uniqueEmail('contact'))
    await page.getByLabel('Subject').fill('Hello from the e2e suite')
    await page.getByLabel('Message').fill('Just checking that contact messages arrive.')
    // Hold the request back a moment so the busy state can be seen.
    await page.route('**/contact.data', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      await route.continue()
    })
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled()

    const toast = page.getByRole('region', { name: /Notifications/ })
    await expect(toast.getByText('Message sent!')).toBeVisible()
    await expect(toast.getByText("I'll get back to you within 24 hours.")).toBeVisible()
    for (const label of ['Your Name', 'Email Address', 'Subject', 'Message']) await expect(page.getByLabel(label)).toHaveValue('')
    await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled()
  })

  test('a post with the honeypot filled is refused with the server message', async ({ page, consoleErrors }) => {
    // Chromium logs the refused request itself (HTTP 400); that is the expected outcome.
    consoleErrors.allowHttpStatus(400, '/contact.data')
    await gotoHydrated(page, '/contact')
    const honeypot = page.locator('input[name="website"]')
    await expect(honeypot).toHaveAttribute('tabindex', '-1')
    await expect(honeypot).toHaveAttribute('autocomplete', 'off')
    await honeypot.evaluate((input: HTMLInputElement) => {
      input.value = 'https://spam.example'
    })
    await page.getByLabel('Your Name').fill('Spam Bot')
    await page.getByLabel('Email Address').fill('bot@example.com')
    await page.getByLabel('Message').fill('Buy now!')
    await page.getByRole('button', { name: 'Send Message' }).click()

    const toast = page.getByRole('region', { name: /Notifications/ })
    await expect(toast.getByText('Something went wrong')).toBeVisible()
    await expect(toast.getByText("Your inquiry couldn't be sent. Please try again later.")).toBeVisible()
    // The visitor's text stays in place.
    await expect(page.getByLabel('Message')).toHaveValue('Buy now!')
  })

  test('the form works without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/contact')
    await page.getByLabel('Your Name').fill('No Script')
    await page.getByLabel('Email Address').fill(uniqueEmail('noscript'))
    await page.getByLabel('Message').fill('Sent from a browser without JavaScript.')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page).toHaveURL('/contact')
    await expect(page.getByLabel('Your Name')).toHaveValue('')
    // The honeypot is refused without JavaScript too (400, the form stays filled).
    const refused = await page.request.post('/contact', {
      form: { name: 'Spam Bot', email: 'bot@example.com', message: 'Buy now!', website: 'https://spam.example' },
      maxRedirects: 0,
    })
    expect(refused.status()).toBe(400)
    expect(refused.headers()['cache-control']).toBe('private, no-store')
    await context.close()
  })
})

test.describe('accessibility', () => {
  for (const info of PAGES) {
    test(`${info.path} has no axe violations in the dark and light themes`, async ({ page }) => {
      await gotoHydrated(page, info.path)
      await expect(page.locator('html')).toHaveClass(/dark/)
      await expectNoAxeViolations(page)
      await useLightTheme(page)
      await gotoHydrated(page, info.path)
      await expect(page.locator('html')).toHaveClass(/light/)
      await expectNoAxeViolations(page)
    })
  }

  test.describe('at 360px', () => {
    test.use({ viewport: { width: 360, height: 740 } })
    for (const info of PAGES) {
      test(`${info.path} fits a small screen`, async ({ page }) => {
        await gotoHydrated(page, info.path)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow).toBeLessThanOrEqual(0)
        await expectNoAxeViolations(page)
      })
    }
  })
})
