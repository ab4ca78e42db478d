import type { Page } from '@playwright/test'
import { BASE_URL } from './credentials.ts'
import { expect, hydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'

// Reading pages (docs/decisions/037) work as HTML: the menu, the demo, the theme switch and links
// need no script. Their JavaScript loads when a control that needs React is used; a click on one
// before React has hydrated is held and replayed.

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

test('a visitor reads, opens the demo by mouse and keyboard and moves around the home page with no script at all', async ({ page }) => {
  const scripts = scriptsRequested(page)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const loads = documentLoads(page)
  await page.mouse.move(200, 300)
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')

  const watch = page.getByRole('button', { name: 'Watch Demo' })
  await watch.hover()
  await watch.click()
  const dialog = page.getByRole('dialog', { name: 'See Aether in action' })
  await expect(dialog).toBeVisible()
  await dialog.getByText('Step 3: Save & Schedule').click()
  await expect(dialog.getByText('Every Monday at 08:00')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await watch.focus()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')

  // Longer than a page that is used waits for its first paint (a second at most; see the test below).
  await page.waitForTimeout(1_500)
  expect(scripts).toEqual([])
  expect(await isHydrated(page)).toBe(false)
  expect(loads).toEqual([])
})

test("a control that needs React loads the page's modules; a click on it meanwhile is held and replayed", async ({ page }) => {
  await signIn(page, MEMBER)
  const scripts = scriptsRequested(page)
  await page.goto('/')
  await page.waitForTimeout(1_500)
  expect(scripts).toEqual([])

  const loads = documentLoads(page)
  // Payments are off here: the paid plan's button answers in a toast, which needs React.
  await page
    .locator('article', { has: page.getByRole('heading', { name: 'Business' }) })
    .getByRole('button', { name: 'Choose Business' })
    .click()
  await expect(toasts(page).getByText('Checkout Not Available')).toBeVisible()
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

test('where the browser does not run button commands, Watch Demo loads React, which opens and closes the demo', async ({ page }) => {
  // Chromium still runs the commands itself; the page is told it does not, and the calls React
  // makes are counted (the browser's own command does not call these methods).
  await page.addInitScript(() => {
    delete (HTMLButtonElement.prototype as { commandForElement?: unknown }).commandForElement
    const calls = { showModal: 0, close: 0 }
    Object.assign(window, { dialogCalls: calls })
    const { showModal, close } = HTMLDialogElement.prototype
    HTMLDialogElement.prototype.showModal = function () {
      calls.showModal += 1
      showModal.call(this)
    }
    HTMLDialogElement.prototype.close = function (result?: string) {
      calls.close += 1
      close.call(this, result)
    }
  })
  const scripts = scriptsRequested(page)
  await page.goto('/')
  await page.getByRole('button', { name: 'Watch Demo' }).click()
  const dialog = page.getByRole('dialog', { name: 'See Aether in action' })
  await expect(dialog).toBeVisible()
  expect(scripts.length).toBeGreaterThan(0)
  expect(await isHydrated(page)).toBe(true)
  const calls = () => page.evaluate(() => (window as unknown as { dialogCalls: { showModal: number; close: number } }).dialogCalls)
  expect(await calls()).toEqual({ showModal: 1, close: 0 })
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()
  expect((await calls()).close).toBe(1)
})

test('where the browser has no popovers, the menu toggle loads React, which shows and hides the menu', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.addInitScript(() => {
    delete (HTMLElement.prototype as { popover?: unknown }).popover
  })
  await page.goto('/blog')
  // Its label follows the browser's own popover state, which Chromium still has: found by what it controls.
  const toggle = page.locator('button[aria-controls="mobile-menu"]')
  await toggle.click()
  await expect(page.locator('#mobile-menu')).toHaveAttribute('data-open', '')
  expect(await isHydrated(page)).toBe(true)
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(page.locator('#mobile-menu')).not.toHaveAttribute('data-open')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
})

test('a theme chosen before hydration is sent as a form and the page comes back in it, remembered', async ({ page }) => {
  await page.goto('/about')
  const scripts = scriptsRequested(page)
  await page.getByRole('button', { name: 'Light theme' }).first().click()
  await expect(page.locator('html')).toHaveClass(/\blight\b/)
  await expect(page).toHaveURL('/about')
  await expect(page.getByRole('button', { name: 'Light theme' }).first()).toHaveAttribute('aria-pressed', 'true')
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/\blight\b/)
  expect(scripts).toEqual([])
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

  test('a tap on the menu toggle straight after load opens the menu, with no script', async ({ page }) => {
    const scripts = scriptsRequested(page)
    await page.goto('/blog')
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
    expect(scripts).toEqual([])
  })
})
