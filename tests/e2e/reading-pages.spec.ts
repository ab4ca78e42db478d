import type { Page } from '@playwright/test'
import { BASE_URL } from './credentials.ts'
import { expect, hydrated, test, toasts } from './fixtures.ts'

// Reading pages (docs/decisions/037) load their JavaScript at the visitor's first interaction; a
// click on a button before React has hydrated is held and replayed, links work as plain links.

/** The script files the page requests from now on (paths). */
function scriptsRequested(page: Page) {
  const paths: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') paths.push(new URL(request.url()).pathname)
  })
  return paths
}

/** Document requests from now on: a replayed click must not turn into a page load. */
function documentLoads(page: Page) {
  const urls: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) urls.push(request.url())
  })
  return urls
}

const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'))

test('the home page loads no script until the visitor acts; a click on Watch Demo meanwhile opens the demo', async ({ page }) => {
  const scripts = scriptsRequested(page)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // Longer than a page that is used waits for its first paint (a second at most; see the test below).
  await page.waitForTimeout(2_000)
  expect(scripts).toEqual([])
  expect(await isHydrated(page)).toBe(false)

  const loads = documentLoads(page)
  await page.getByRole('button', { name: 'Watch Demo' }).click()
  await expect(page.getByRole('dialog', { name: 'See Aether in action' })).toBeVisible()
  expect(scripts.length).toBeGreaterThan(0)
  expect(await isHydrated(page)).toBe(true)
  expect(loads).toEqual([])
})

test('a page that is used loads its modules after the first paint, without waiting for the visitor', async ({ page }) => {
  const scripts = scriptsRequested(page)
  await page.goto('/services')
  await hydrated(page)
  expect(scripts.length).toBeGreaterThan(0)
})

test('the keyboard works before hydration: Enter on Watch Demo opens it', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Watch Demo' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'See Aether in action' })).toBeVisible()
})

test('a theme chosen before hydration is applied in place and remembered', async ({ page }) => {
  await page.goto('/about')
  const loads = documentLoads(page)
  await page.getByRole('button', { name: 'Light theme' }).first().click()
  await expect(page.locator('html')).toHaveClass(/\blight\b/)
  await expect(page.getByRole('button', { name: 'Light theme' }).first()).toHaveAttribute('aria-pressed', 'true')
  expect(loads).toEqual([])
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/\blight\b/)
})

test('a link followed before hydration opens its page', async ({ page }) => {
  await page.goto('/blog')
  expect(await isHydrated(page)).toBe(false)
  await page.getByRole('banner').getByRole('link', { name: 'Services' }).click()
  await expect(page).toHaveURL('/services')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})

test('a reading page with a message waiting loads its modules at once and shows it', async ({ page, context }) => {
  const flash = Buffer.from(JSON.stringify({ type: 'success', title: 'Signed out safely' })).toString('base64')
  await context.addCookies([{ name: 'aether_flash', value: flash, url: BASE_URL }])
  await page.goto('/')
  await expect(toasts(page).getByText('Signed out safely')).toBeVisible()
  expect(await isHydrated(page)).toBe(true)
})

test.describe('on a small touch screen', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true })

  test('a tap on the menu toggle straight after load opens the menu', async ({ page }) => {
    await page.goto('/blog')
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
  })
})
