import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { ADMIN, BASE_URL, MEMBER } from './credentials.ts'

export { expect }
export { ADMIN, BASE_URL, MEMBER } from './credentials.ts'

export interface Credentials {
  readonly email: string
  readonly password: string
}

/**
 * Every console error, uncaught page error and Content-Security-Policy violation fails the test
 * that caused it. A test that provokes an error on purpose (a 404 document, a refused sign-in)
 * names the exact message it expects with `consoleErrors.allow(/.../)`; nothing else passes.
 */
export interface ConsoleErrors {
  allow(pattern: RegExp): void
  /** Chromium's own 'Failed to load resource' line for one expected HTTP error status on one path. */
  allowHttpStatus(status: number, pathname: string): void
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const randomOctet = () => Math.floor(Math.random() * 254) + 1

export const test = base.extend<{ consoleErrors: ConsoleErrors; clientAddress: string }>({
  /**
   * Every test's browser is a client of its own: the servers trust X-Forwarded-For (TRUST_PROXY),
   * so per-address limits such as sign-in attempts apply within a test, never across the suite.
   */
  clientAddress: [
    async ({ context }, use) => {
      const address = `10.${randomOctet()}.${randomOctet()}.${randomOctet()}`
      await context.setExtraHTTPHeaders({ 'X-Forwarded-For': address })
      await use(address)
    },
    { auto: true },
  ],

  consoleErrors: [
    async ({ context }, use) => {
      const allowed: RegExp[] = []
      const seen: string[] = []
      // Chromium (156) reports CSP violations in DevTools' Issues panel, not as console messages,
      // so the page turns each one into a console error that the listener below collects.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline content'} (${event.sourceFile}:${event.lineNumber})`,
          )
        })
      })
      context.on('console', (message) => {
        if (message.type() !== 'error') return
        const location = message.location()
        seen.push(`console.error: ${message.text()}${location.url ? ` (at ${location.url}:${location.lineNumber})` : ''}`)
      })
      context.on('weberror', (webError) => {
        const error = webError.error()
        seen.push(`pageerror: ${error.stack ?? error.message}`)
      })
      await use({
        allow: (pattern) => void allowed.push(pattern),
        allowHttpStatus: (status, pathname) =>
          void allowed.push(
            new RegExp(
              `^console\\.error: Failed to load resource: the server responded with a status of ${status} \\(.*\\) \\(at ${escapeRegExp(BASE_URL + pathname)}:`,
            ),
          ),
      })
      // A round trip to each page delivers any console event still in flight before we judge.
      await Promise.all(context.pages().map((page) => page.evaluate(() => 0).catch(() => 0)))
      const unexpected = seen.filter((text) => !allowed.some((pattern) => pattern.test(text)))
      expect(unexpected, 'the pages logged errors to the console').toEqual([])
    },
    { auto: true },
  ],
})

/**
 * Navigates and waits until React has hydrated the page, so clicks reach the client router. A
 * reading page works as HTML until a control that needs React is used (docs/decisions/037): there
 * the page is ready once it has loaded, as a visitor gets it, and a click on such a control is
 * held until React has hydrated.
 */
export async function gotoHydrated(page: Page, url: string, selector = 'main') {
  const response = await page.goto(url)
  if (!(await waitsForControlNeedingReact(page))) await hydrated(page, selector)
  return response
}

/** Whether the page is a reading page whose modules wait for a control that needs React. */
export function waitsForControlNeedingReact(page: Page) {
  return page.evaluate(
    (marker) =>
      !document.documentElement.hasAttribute('data-hydrated') &&
      [...document.querySelectorAll('script[type="module"]')].some((script) => script.textContent?.includes(marker)),
    // INTERACTION_PRELOAD_MARKER of app/components/paint-first-scripts.tsx
    '/* modulepreload after the first interaction */',
  )
}

/**
 * Waits until React has hydrated the page (the root marks <html> with data-hydrated) and the
 * element `selector` names, which may sit in a part that hydrates later (a lazy component).
 */
export async function hydrated(page: Page, selector = 'main') {
  await page.waitForFunction((selector) => {
    const element = document.querySelector(selector)
    // A page just opened may have no document element yet.
    return (
      document.documentElement?.hasAttribute('data-hydrated') === true &&
      element !== null &&
      Object.keys(element).some((key) => key.startsWith('__reactFiber'))
    )
  }, selector)
}

/** Signs in through the /auth form, like a person, and waits for the dashboard. */
export async function signIn(page: Page, user: Credentials, baseUrl = '') {
  await gotoHydrated(page, `${baseUrl}/auth`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL(`${baseUrl}/dashboard`)
  await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()
}

export const signInAsAdmin = (page: Page) => signIn(page, ADMIN)
export const signInAsMember = (page: Page) => signIn(page, MEMBER)

/** A fresh address per call, so a retried test never collides with its earlier attempt. */
export function uniqueEmail(prefix = 'visitor') {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@aether.test`
}

/** The toaster's live region (sonner's 'Notifications'). */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ })

/** One toast with both its title and its description (sonner renders each toast as a list item). */
export const toastWith = (page: Page, title: string, description: string) =>
  toasts(page).getByRole('listitem').filter({ hasText: title }).filter({ hasText: description })

export async function expectNoAxeViolations(page: Page) {
  // A toast or dialog still fading in would be measured half-transparent.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  )
  const results = await new AxeBuilder({ page }).analyze()
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
  expect(summary, 'axe-core violations').toEqual([])
}
