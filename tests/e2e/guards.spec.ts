import { expect, signInAsAdmin, signInAsMember, test } from './fixtures.ts'

const ADMIN_TABS = ['Overview', 'Users Management', 'Blog Management', 'Service Inquiries', 'Subscriptions', 'System Settings', 'Templates']

test.describe('route guards', () => {
  for (const path of ['/dashboard', '/settings', '/billing']) {
    test(`a signed-out visitor opening ${path} is sent to /auth`, async ({ page }) => {
      const response = await page.goto(path)
      await expect(page).toHaveURL('/auth')
      expect(response?.ok()).toBe(true)
      // The server redirected: the protected page's content never reached the browser.
      const firstHop = response?.request().redirectedFrom()
      expect(firstHop?.url()).toMatch(new RegExp(`${path}$`))
      expect((await firstHop?.response())?.status()).toBe(302)
      await expect(page.getByRole('heading', { name: 'Sign in to Aether' })).toBeVisible()
    })
  }

  test('a signed-out visitor opening /admin is sent to /auth', async ({ page }) => {
    await page.goto('/admin')
    await expect(page).toHaveURL('/auth')
  })

  test('the demo member is refused /admin and has no Admin Panel link', async ({ page }) => {
    await signInAsMember(page)
    const menu = page.getByRole('navigation', { name: 'Account' })
    await expect(menu.getByRole('link', { name: 'Automation History' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0)

    await page.goto('/admin')
    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toHaveCount(0)
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Admin Panel' })).toHaveCount(0)
  })

  test('the demo admin sees the Admin Panel link and opens the admin area with its seven tabs', async ({ page }) => {
    await signInAsAdmin(page)
    const menuLink = page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Admin Panel' })
    await expect(menuLink).toBeVisible()
    await menuLink.click()

    await expect(page).toHaveURL('/admin')
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible()
    const tabs = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link')
    // Service Inquiries may carry a count of unprocessed inquiries after its label.
    await expect(tabs).toHaveText(ADMIN_TABS.map((label) => new RegExp(`^${label}(\\d+)?$`)))
    // Users Management is the default tab.
    await expect(page.getByRole('link', { name: 'Users Management' })).toHaveAttribute('aria-current', 'page')

    // A direct load is let in too (the guard runs on the server, not only in the client router).
    const response = await page.goto('/admin')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible()
  })
})
