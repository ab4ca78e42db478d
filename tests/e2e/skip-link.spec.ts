import type { Page } from '@playwright/test'
import { expect, signInAsAdmin, signInAsMember, test } from './fixtures.ts'

/** The first Tab stop is "Skip to content"; following it puts the next Tab inside the page's content. */
async function skipToContent(page: Page) {
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('#main-content')).toBeFocused()
}

test.describe('Skip to content', () => {
  test('on /auth it reaches the e-mail field with two presses of Tab after the skip', async ({ page }) => {
    await page.goto('/auth')
    await skipToContent(page)
    // The form's first field comes before anything else in the content.
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Email')).toBeFocused()
  })

  test('on public pages, a 404 and the member area', async ({ page, consoleErrors }) => {
    consoleErrors.allowHttpStatus(404, '/no-such-page')
    for (const path of ['/', '/blog', '/services', '/no-such-page']) {
      await page.goto(path)
      await skipToContent(page)
      // Focus left the site header: the next stop is inside the content, not a header link.
      await page.keyboard.press('Tab')
      const inHeader = await page.evaluate(() => Boolean(document.activeElement?.closest('header')))
      expect(inHeader, path).toBe(false)
    }
    await signInAsMember(page)
    for (const path of ['/dashboard', '/settings']) {
      await page.goto(path)
      await skipToContent(page)
      await page.keyboard.press('Tab')
      const inMenu = await page.evaluate(() => Boolean(document.activeElement?.closest('aside')))
      expect(inMenu, path).toBe(false)
    }
  })

  test('in the admin area', async ({ page }) => {
    await signInAsAdmin(page)
    await page.goto('/admin')
    await skipToContent(page)
    await page.keyboard.press('Tab')
    const inMenu = await page.evaluate(() => Boolean(document.activeElement?.closest('aside')))
    expect(inMenu).toBe(false)
  })
})
