import type { Page } from '@playwright/test'
import { expect, gotoHydrated, MEMBER, signIn, test } from './fixtures.ts'

test.describe('top navigation bar on a small screen', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true })

  test('the menu toggle opens the menu and tapping a link closes it, with no script on a reading page', async ({ page }) => {
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    await gotoHydrated(page, '/')
    const toggle = page.getByRole('button', { name: 'Open menu' })
    const mobileMenu = page.getByRole('navigation', { name: 'Mobile' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(await expandedAsAnnounced(page, 'Open menu')).toBe(false)
    await expect(mobileMenu).toBeHidden()
    // The desktop links are hidden at this width.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()

    await toggle.tap()
    await expect(mobileMenu).toBeVisible()
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
    expect(await expandedAsAnnounced(page, 'Close menu')).toBe(true)
    for (const name of ['Home', 'Features', 'How It Works', 'Pricing', 'Services', 'Log In', 'Sign Up Free']) {
      await expect(mobileMenu.getByRole('link', { name, exact: true })).toBeVisible()
    }

    // An in-page link: the menu closes although the page stays the same.
    await mobileMenu.getByRole('link', { name: 'Features' }).tap()
    await expect(page).toHaveURL('/#features')
    await expect(mobileMenu).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false')
    expect(await expandedAsAnnounced(page, 'Open menu')).toBe(false)

    // Escape closes it too.
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await expect(mobileMenu).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(mobileMenu).toBeHidden()
    expect(scripts, 'the menu of a reading page needs no script').toEqual([])

    // A link to another page under the same header: the menu is closed there too.
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await mobileMenu.getByRole('link', { name: 'Log In' }).tap()
    await expect(page).toHaveURL('/auth')
    await expect(page.getByRole('heading', { name: 'Sign in to Aether' })).toBeVisible()
    await expect(mobileMenu).toBeHidden()
  })

  test('on a hydrated page the menu closes when a link takes the client router elsewhere', async ({ page }) => {
    await gotoHydrated(page, '/services')
    const mobileMenu = page.getByRole('navigation', { name: 'Mobile' })
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
    await mobileMenu.getByRole('link', { name: 'Pricing' }).tap()
    await expect(page).toHaveURL('/#pricing')
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Automate everything')
    await expect(mobileMenu).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false')
  })
})

/**
 * Whether Chromium tells assistive technology that the button named `name` is expanded: the menu
 * toggle is a popover's invoker, which the browser announces itself (no aria-expanded to keep).
 */
async function expandedAsAnnounced(page: Page, name: string) {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = await cdp.send('Accessibility.getFullAXTree')
  await cdp.detach()
  const button = nodes.find((node) => node.role?.value === 'button' && node.name?.value === name)
  if (!button) throw new Error(`no button named ${name}`)
  return button.properties?.find((property) => property.name === 'expanded')?.value.value
}

test('an unknown path answers 404 with the not-found page', async ({ page, consoleErrors }) => {
  // Chromium logs the document's own 404 status; the page itself must log no error.
  consoleErrors.allowHttpStatus(404, '/this-page-does-not-exist')
  const response = await page.goto('/this-page-does-not-exist')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
  await expect(page.getByText('Oops! Page not found')).toBeVisible()
  const home = page.getByRole('link', { name: 'Return to Home' })
  await expect(home).toHaveAttribute('href', '/')
  await home.click()
  await expect(page).toHaveURL('/')
})

test('pages carry the security headers', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  const headers = await response!.allHeaders()
  expect(headers['content-security-policy']).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/)
  expect(headers['x-content-type-options']).toBe('nosniff')
})

test('the session cookie is auth_session, httpOnly, SameSite=Lax and Secure', async ({ page, context }) => {
  await signIn(page, MEMBER)
  const cookies = await context.cookies()
  const session = cookies.find((cookie) => cookie.name === 'auth_session')
  expect(session, `cookies: ${cookies.map((cookie) => cookie.name).join(', ')}`).toBeDefined()
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })
  // Not readable from page scripts.
  expect(await page.evaluate(() => document.cookie)).not.toContain('auth_session')
})
