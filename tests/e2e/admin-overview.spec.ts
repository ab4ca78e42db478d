import type { Page } from '@playwright/test'
import { createAccount } from './accounts.ts'
import { BASE_URL, expect, expectNoAxeViolations, gotoHydrated, signInAsAdmin, test } from './fixtures.ts'

// The admin's overview (issue 33, docs/decisions/063): how the business is doing, as charts drawn
// in the browser and as figures the server renders beside them.

// Each test signs in and loads the overview more than once (and axe reads a long page): room for a busy machine.
test.describe.configure({ timeout: 120_000 })

/** Today's row of a chart's figures: the cell of one column. */
function todayFigure(page: Page, chart: string, column = 1) {
  return page
    .getByRole('figure', { name: chart })
    .getByRole('row')
    .filter({ hasText: '(today)' })
    .getByRole('cell')
    .nth(column - 1)
}

test('the overview is the first tab: tiles, charts with their figures, the queue and the last day’s errors', async ({ page, request }) => {
  await signInAsAdmin(page)
  await gotoHydrated(page, '/admin')
  const tabs = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link')
  await expect(tabs.first()).toHaveText('Overview')
  await tabs.first().click()
  await expect(page).toHaveURL('/admin/overview')
  await expect(page.getByRole('heading', { name: 'Overview', level: 2 })).toBeVisible()
  for (const tile of ['Monthly recurring revenue', 'Paying subscriptions', 'Sign-ups, 30 days', 'Runs, 30 days']) {
    await expect(page.getByRole('term').filter({ hasText: tile })).toBeVisible()
  }
  await expect(page.getByRole('heading', { name: 'Cloud queue' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Errors in the last 24 hours' })).toBeVisible()

  // A chart is drawn for each series of days; its figures are a table of the 30 days.
  const signUps = page.getByRole('figure', { name: 'Sign-ups per day' })
  await expect(signUps.locator('svg.recharts-surface')).toBeVisible()
  await signUps.getByText('Figures').click()
  const table = signUps.getByRole('table', { name: 'Sign-ups per day' })
  await expect(table.getByRole('row')).toHaveCount(31)
  const before = Number(await todayFigure(page, 'Sign-ups per day').textContent())

  // A new member shows in today's sign-ups once the kept overview is half a minute old (OVERVIEW_FRESH_MS).
  await createAccount(request, 'overview')
  await expect
    .poll(
      async () => {
        await page.reload()
        await page.getByRole('figure', { name: 'Sign-ups per day' }).getByText('Figures').click()
        return Number(await todayFigure(page, 'Sign-ups per day').textContent())
      },
      { timeout: 45_000, intervals: [5_000] },
    )
    .toBeGreaterThan(before)
  await expectNoAxeViolations(page)
})

test('without JavaScript the overview shows every figure as text', async ({ browser, page: signedIn }) => {
  await signInAsAdmin(signedIn)
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: BASE_URL,
    storageState: await signedIn.context().storageState(),
  })
  const page = await context.newPage()
  await page.goto('/admin/overview')
  await expect(page.getByRole('heading', { name: 'Overview', level: 2 })).toBeVisible()
  const runs = page.getByRole('figure', { name: 'Runs per day' })
  await expect(runs.getByText(/succeeded, \d+ failed and \d+ cancelled in 30 days/)).toBeVisible()
  await expect(runs.locator('svg')).toHaveCount(0)
  await runs.getByText('Figures').click()
  await expect(runs.getByRole('columnheader')).toHaveText(['Day', 'Succeeded', 'Failed', 'Cancelled'])
  await expect(runs.getByRole('table').getByRole('row')).toHaveCount(31)
  await context.close()
})

test('a member is refused the overview and its API', async ({ page, request }) => {
  const member = await createAccount(request, 'not-admin')
  const login = await request.post('/api/auth/login', { data: member })
  const { token } = ((await login.json()) as { data: { token: string } }).data
  expect((await request.get('/api/overview', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(403)
  await page.goto('/auth')
  await page.getByLabel('Email').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL('/dashboard')
  await page.goto('/admin/overview')
  await expect(page).toHaveURL('/dashboard')
})
