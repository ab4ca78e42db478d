import { expect, gotoHydrated, test } from './fixtures.ts'

test.describe('colour scheme', () => {
  test('defaults to the admin setting (dark), switches, and is remembered by the server', async ({ page, browser }) => {
    await gotoHydrated(page, '/')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)

    await page.getByRole('button', { name: 'Light theme' }).first().click()
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await expect(page.getByRole('button', { name: 'Light theme' }).first()).toHaveAttribute('aria-pressed', 'true')

    // The server renders the chosen scheme in the HTML itself (no flash before scripts run).
    const html = await (await page.request.get('/')).text()
    expect(html).toMatch(/<html[^>]*class="light"/)

    await page.reload()
    await expect(page.locator('html')).toHaveClass(/\blight\b/)

    const stranger = await browser.newContext()
    const strangerHtml = await (await stranger.request.get('/')).text()
    expect(strangerHtml).toMatch(/<html[^>]*class="dark"/)
    await stranger.close()
  })

  test('works without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/auth')
    await page.getByRole('button', { name: 'System theme' }).first().click()
    await expect(page).toHaveURL(/\/auth$/)
    await expect(page.locator('html')).toHaveClass(/\bsystem\b/)
    await context.close()
  })
})

test('without an analytics id there is no consent banner and no analytics cookie', async ({ page, context }) => {
  await gotoHydrated(page, '/')
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0)
  const names = (await context.cookies()).map((cookie) => cookie.name)
  expect(names.filter((name) => name.startsWith('_ga') || name === '_gid')).toEqual([])
})
