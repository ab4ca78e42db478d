import type { Page } from '@playwright/test'
import type { APIRequestContext } from '@playwright/test'
import { apiToken, createAccount, createAutomation, reportRun, startClientRun } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, signInAsAdmin, test } from './fixtures.ts'

// No page of the member area or the admin area scrolls sideways, on a laptop (1280 px) or a phone
// (390 px): a table too wide for the screen turns into stacked rows instead (issue 33).

// Each test opens every page of an area (ten or so) one after another: room for a busy machine.
test.describe.configure({ timeout: 90_000 })

const MEMBER_PAGES = [
  '/dashboard',
  '/dashboard/templates',
  '/dashboard/automations/new',
  '/settings',
  '/billing',
  '/billing/history',
  '/workspace',
  '/workspace/activity',
  '/workspace/webhooks',
  '/workspace/vault',
]

const ADMIN_PAGES = [
  '/admin',
  '/admin/overview',
  '/admin/blog',
  '/admin/inquiries',
  '/admin/subscriptions',
  '/admin/settings',
  '/admin/runs',
  '/admin/templates',
]

/**
 * A member whose tables have rows: an automation with a long name and description, and a run of it
 * that failed with a long error and extracted rows (the widest things those pages show).
 */
async function memberWithRuns(request: APIRequestContext) {
  const account = await createAccount(request, 'wide')
  const token = await apiToken(request, account)
  const automationId = await createAutomation(request, token, {
    name: 'Check every open order on the supplier portal and note its delivery date',
    description: 'Signs in to the supplier portal, opens each order of the week and copies its status and delivery date.',
    steps: [
      { type: 'navigate', url: 'https://supplier.example.com/orders?status=open&sort=delivery-date&page=1' },
      { type: 'extract', target: [{ by: 'css', selector: '.order .delivery-date' }], field: 'deliveryDate' },
    ],
  })
  const runId = await startClientRun(request, token, automationId)
  await reportRun(request, token, runId, {
    status: 'failed',
    error: 'Step 2 (extract): no element matched the CSS selector .order .delivery-date on https://supplier.example.com/orders?status=open',
    actionsPerformed: 1,
    extracted: [{ order: 'PO-2026-000184-SUPPLIER-NORTH', deliveryDate: '2026-12-19', note: 'Partial delivery expected' }],
  })
  return { account, automationId, runId }
}

/** How far the page reaches past the window's right edge, in CSS pixels (0: it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** Boxes that scroll sideways inside the page (a wide table in a scroller hides its right columns). */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((element) => {
        const style = getComputedStyle(element)
        return ['auto', 'scroll'].includes(style.overflowX) && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0
      })
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join('.')} (${element.scrollWidth} in ${element.clientWidth} px)`,
      ),
  )

/** The elements that reach past the right edge outside any box that clips them, for the failure message. */
const widest = (page: Page) =>
  page.evaluate(() => {
    const edge = document.documentElement.clientWidth
    const clipped = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement)
        if (getComputedStyle(parent).overflowX !== 'visible') return true
      return false
    }
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > edge + 1 && !clipped(element))
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join('.')} → ${Math.round(element.getBoundingClientRect().right)} px`,
      )
  })

async function expectFits(page: Page, path: string) {
  await gotoHydrated(page, path)
  await expect(page.locator('main')).toBeVisible()
  const past = await overflow(page)
  expect.soft(await sidewaysScrollers(page), `${path} at ${page.viewportSize()?.width} px scrolls sideways inside`).toEqual([])
  expect
    .soft(past, `${path} at ${page.viewportSize()?.width} px reaches past the edge: ${(await widest(page)).join('; ')}`)
    .toBeLessThanOrEqual(0)
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })

    test('every member page fits the screen', async ({ page, request }) => {
      const { account, automationId, runId } = await memberWithRuns(request)
      await signIn(page, account)
      for (const path of [...MEMBER_PAGES, `/dashboard/automations/${automationId}`, `/dashboard/runs/${runId}`])
        await expectFits(page, path)
    })

    test('every admin page fits the screen', async ({ page }) => {
      await signInAsAdmin(page)
      for (const path of ADMIN_PAGES) await expectFits(page, path)
    })
  })
}

test.describe('a table stacked on a phone', () => {
  test.use({ viewport: { width: 390, height: 900 } })

  test('shows each cell under its column name and keeps the table for screen readers', async ({ page }) => {
    await signInAsAdmin(page)
    // Other tests add accounts: the admin's row is found by searching.
    await gotoHydrated(page, '/admin?search=admin%40aether.test')
    const users = page.getByRole('table', { name: 'Users' })
    await expect(users.getByRole('columnheader')).toHaveCount(9)
    const admin = users.getByRole('row').filter({ hasText: 'admin@aether.test' })
    await expect(admin.getByRole('cell')).toHaveCount(9)
    // The column's name is drawn before the value, and the row is one box above the next.
    const email = admin.getByRole('cell').nth(1)
    expect(await email.evaluate((cell) => getComputedStyle(cell, '::before').content)).toContain('Email')
    // A cell of several lines keeps them all beside the name: the month's runs under the credits field.
    const credits = admin.getByRole('cell').nth(4)
    const [cell, field, runs] = await Promise.all([
      credits.boundingBox(),
      credits.getByLabel('Credits of admin@aether.test').boundingBox(),
      credits.getByText(/runs? this month/).boundingBox(),
    ])
    expect(field!.x).toBeGreaterThan(cell!.x + 90)
    expect(runs!.x).toBeGreaterThanOrEqual(field!.x - 1)
    expect(runs!.y).toBeGreaterThan(field!.y)
    // Its cells stand one above the next, within the phone's width.
    const [first, second] = await admin
      .getByRole('cell')
      .evaluateAll((cells) => cells.slice(0, 2).map((cell) => cell.getBoundingClientRect()))
    expect(second!.top).toBeGreaterThanOrEqual(first!.bottom - 1)
    expect(first!.right).toBeLessThanOrEqual(390)
    await expectNoAxeViolations(page)
  })
})
