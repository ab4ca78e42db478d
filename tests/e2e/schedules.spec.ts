import type { Page } from '@playwright/test'
import { apiToken, createAccount } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// Schedules people can read (docs/decisions/036): plain choices in the member's own time zone, the
// schedule in words and its next runs. The browser lives in Berlin.
test.use({ timezoneId: 'Europe/Berlin' })

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
/** A run time as the preview and the list show it: "Mon, Mar 30, 2026, 09:00". */
const weekdayAtNine = /^(Mon|Tue|Wed|Thu|Fri), [A-Z][a-z]{2} \d{1,2}, \d{4}, 09:00$/

async function newAutomation(page: Page, name: string) {
  await gotoHydrated(page, '/dashboard/automations/new')
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Step type').selectOption({ label: 'Navigate' })
  await page.getByRole('button', { name: 'Add step' }).click()
  await page.keyboard.type('https://shop.example.com/orders')
}

const preview = (page: Page) => page.getByText(/^Next runs \(/).locator('..')

test.describe('schedules', () => {
  test('a member builds a "weekdays at 9" schedule without typing cron, sees its next runs, and pauses and resumes it', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000)
    const account = await createAccount(request, 'scheduler')
    await signIn(page, account)
    await newAutomation(page, 'Morning check')
    await expect(page.getByText('Runs only when you start it.')).toBeVisible()

    await page.getByLabel('Schedule', { exact: true }).selectOption({ label: 'On chosen weekdays' })
    // A new schedule starts in the browser's zone, on weekdays at 09:00.
    await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin')
    for (const day of DAYS.slice(0, 5)) await expect(page.getByLabel(day, { exact: true })).toBeChecked()
    for (const day of DAYS.slice(5)) await expect(page.getByLabel(day, { exact: true })).not.toBeChecked()
    await expect(page.getByLabel('At', { exact: true })).toHaveValue('09:00')
    await expect(page.getByText('Weekdays at 09:00, Europe/Berlin', { exact: true })).toBeVisible()
    await expect(page.getByText('Next runs (Europe/Berlin):')).toBeVisible()
    const upcoming = preview(page).getByRole('listitem')
    await expect(upcoming).toHaveCount(3)
    for (const run of await upcoming.allTextContents()) expect(run).toMatch(weekdayAtNine)

    // The words follow the choices.
    await page.getByLabel('Friday', { exact: true }).uncheck()
    await expect(page.getByText('Mondays, Tuesdays, Wednesdays and Thursdays at 09:00, Europe/Berlin', { exact: true })).toBeVisible()
    await page.getByLabel('Friday', { exact: true }).check()
    await expect(page.getByText('Weekdays at 09:00, Europe/Berlin', { exact: true })).toBeVisible()
    await expectNoAxeViolations(page)

    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(toasts(page).getByText('Automation created')).toBeVisible()
    await expect(page).toHaveURL(/\/dashboard\/automations\/[0-9a-f-]{36}$/)
    const id = page.url().split('/').at(-1) ?? ''
    await expect(page.getByText('Runs by itself: Weekdays at 09:00, Europe/Berlin.')).toBeVisible()
    await expect(page.getByLabel('Schedule', { exact: true })).toHaveValue('weekly')
    await expect(preview(page).getByRole('listitem')).toHaveCount(3)

    // Stored as the API answers it: the same structure, in the member's zone.
    const token = await apiToken(request, account)
    const stored = await request.get(`/api/automations/${id}`, { headers: { Authorization: `Bearer ${token}` } })
    expect(((await stored.json()) as { data: { schedule: unknown } }).data.schedule).toEqual({
      kind: 'weekly',
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      time: '09:00',
      timeZone: 'Europe/Berlin',
      paused: false,
    })

    // My Automations: the words and the next runs; pause and resume keep the schedule.
    await gotoHydrated(page, '/dashboard')
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Morning check' }) })
    await expect(row.getByText('Weekdays at 09:00, Europe/Berlin')).toBeVisible()
    await expect(row.getByText('Next runs (Europe/Berlin):')).toBeVisible()
    const listed = row.getByRole('listitem')
    await expect(listed).toHaveCount(3)
    for (const run of await listed.allTextContents()) expect(run).toMatch(weekdayAtNine)
    await row.getByRole('button', { name: 'Pause the schedule of Morning check' }).click()
    await expect(toasts(page).getByText('Schedule paused')).toBeVisible()
    await expect(row.getByText('Paused', { exact: true })).toBeVisible()
    await expect(row.getByText('Weekdays at 09:00, Europe/Berlin')).toBeVisible()
    await expect(row.getByRole('listitem')).toHaveCount(0)
    await row.getByRole('button', { name: 'Resume the schedule of Morning check' }).click()
    await expect(toasts(page).getByText('Schedule resumed')).toBeVisible()
    await expect(row.getByRole('listitem')).toHaveCount(3)
  })

  test('the Free plan refuses a schedule every 5 minutes, naming the plan that allows it', async ({ page, request, consoleErrors }) => {
    // The refused save answers 409, as the plan's other limits do.
    consoleErrors.allowHttpStatus(409, '/dashboard/automations/new.data')
    await signIn(page, await createAccount(request, 'often'))
    await newAutomation(page, 'Every five minutes')
    await page.getByLabel('Schedule', { exact: true }).selectOption({ label: 'Every few minutes or hours' })
    await page.getByLabel('Every', { exact: true }).selectOption('5')
    await expect(page.getByText('Every 5 minutes', { exact: true })).toBeVisible()
    await page.getByRole('button', { name: 'Save Automation' }).click()
    const message =
      'Schedules on the Free plan run at most every 15 minutes; this one runs every 5 minutes. The Pro plan runs schedules every 5 minutes: choose a longer interval or upgrade.'
    await expect(page.getByRole('alert').filter({ hasText: 'Plan limit reached' })).toContainText(message)
    await expect(page).toHaveURL('/dashboard/automations/new')
    await page.getByLabel('Every', { exact: true }).selectOption('15')
    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(toasts(page).getByText('Automation created')).toBeVisible()
    await expect(page.getByText('Runs by itself: Every 15 minutes.')).toBeVisible()
  })

  test("a member's default time zone from Settings starts new schedules and shows their runs", async ({ page, request }) => {
    await signIn(page, await createAccount(request, 'new-yorker'))
    await gotoHydrated(page, '/settings')
    await page.getByLabel('Time zone').fill('America/New_York')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('Settings updated')).toBeVisible()
    await expect(page.getByLabel('Time zone')).toHaveValue('America/New_York')

    await newAutomation(page, 'Evening report')
    await page.getByLabel('Schedule', { exact: true }).selectOption({ label: 'Every day' })
    await expect(page.getByLabel('Time zone')).toHaveValue('America/New_York')
    await page.getByLabel('At', { exact: true }).fill('18:30')
    await expect(page.getByText('Daily at 18:30, America/New_York', { exact: true })).toBeVisible()
    await expect(page.getByText('Next runs (America/New_York):')).toBeVisible()
    for (const run of await preview(page).getByRole('listitem').allTextContents()) expect(run).toMatch(/, 18:30$/)
    // A zone that does not exist is refused at the field.
    await page.getByLabel('Time zone').fill('Mars/Olympus')
    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(page.getByText('Time zone must be an IANA time zone name', { exact: false }).first()).toBeVisible()
    await expect(page.getByLabel('Time zone')).toHaveAttribute('aria-invalid', 'true')
  })
})
