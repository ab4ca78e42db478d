import { readFile } from 'node:fs/promises'
import type { Download } from '@playwright/test'
import { apiToken, createAccount, createAutomation, reportRun, startClientRun } from './accounts.ts'
import { addStep, step, stepTitles } from './builder-steps.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, signInAsAdmin, test, toasts } from './fixtures.ts'

const STEPS = [
  { type: 'navigate', url: 'https://shop.example.com/orders' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Refresh' }] },
  { type: 'extract', target: [{ by: 'css', selector: '.order' }], field: 'order' },
]

/** What the builder test saves and exports, in this order. */
const SAVED = [
  { type: 'navigate', url: 'https://shop.example.com/orders' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Refresh' }] },
  { type: 'screenshot' },
  { type: 'extract', target: [{ by: 'css', selector: '.order .status' }], field: 'status' },
]

async function downloaded(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8')
}

test.describe('automations', () => {
  test('a member builds an automation step by step, saves it and exports it as JSON', async ({ page, request }) => {
    // About forty interactions and an accessibility scan: 20 s on a quiet machine, over 30 s with both cores busy.
    test.setTimeout(60_000)
    await signIn(page, await createAccount(request, 'builder'))
    await page.getByRole('link', { name: 'Create New Automation' }).click()
    await expect(page).toHaveURL('/dashboard/automations/new')
    await expect(page.getByRole('heading', { level: 1, name: 'New Automation' })).toBeVisible()
    // The builder is part of Automation History in the side menu.
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Automation History' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await expect(page.getByText('No steps yet.', { exact: false })).toBeVisible()

    await page.getByLabel('Name', { exact: true }).fill('Order status check')
    await page.getByLabel('Description').fill('Reads the status of my orders.')
    await addStep(page, 'Navigate')
    // A new step's first field has the focus.
    await expect(step(page, 1).getByLabel('URL')).toBeFocused()
    await page.keyboard.type('https://shop.example.com/orders')
    await addStep(page, 'Click')
    await addStep(page, 'Extract')
    await step(page, 3).getByLabel('Selector').fill('.order .status')
    await step(page, 3).getByLabel('Field name').fill('status')
    await addStep(page, 'Screenshot')
    await expect(stepTitles(page)).toHaveText(['Step 1: Navigate', 'Step 2: Click', 'Step 3: Extract', 'Step 4: Screenshot'])

    // The click step's button has no name: the save is refused in the browser, next to the step.
    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(step(page, 2).getByText('Step 2 (click): element name is required')).toBeVisible()
    const buttonName = step(page, 2).getByLabel('Name', { exact: true })
    await expect(buttonName).toBeFocused()
    await expect(buttonName).toHaveAttribute('aria-invalid', 'true')
    await expect(page).toHaveURL('/dashboard/automations/new')
    await buttonName.fill('Refresh')
    await expect(step(page, 2).getByText('Step 2 (click): element name is required')).toBeHidden()
    await expect(buttonName).not.toHaveAttribute('aria-invalid')
    // The target reads as words, not as a selector.
    await expect(step(page, 2).getByText('Button named “Refresh”')).toBeVisible()

    // Reorder with the keyboard: the focus stays with the moved step.
    await step(page, 4).getByRole('button', { name: 'Move step 4 up' }).focus()
    await page.keyboard.press('Enter')
    await expect(stepTitles(page)).toHaveText(['Step 1: Navigate', 'Step 2: Click', 'Step 3: Screenshot', 'Step 4: Extract'])
    await expect(page.getByRole('button', { name: 'Move step 3 up' })).toBeFocused()
    await page.getByRole('button', { name: 'Move step 1 down' }).click()
    await page.getByRole('button', { name: 'Move step 2 up' }).click()
    await expect(stepTitles(page)).toHaveText(['Step 1: Navigate', 'Step 2: Click', 'Step 3: Screenshot', 'Step 4: Extract'])

    // A wait step, edited and then deleted again.
    await addStep(page, 'Wait')
    await step(page, 5).getByLabel('Wait for').selectOption({ label: 'An element to appear' })
    await step(page, 5).getByLabel('Text', { exact: true }).fill('Done')
    await step(page, 5).getByRole('button', { name: 'Delete step 5' }).click()
    await expect(stepTitles(page)).toHaveCount(4)
    await expectNoAxeViolations(page)

    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(toasts(page).getByText('Automation created')).toBeVisible()
    await expect(page).toHaveURL(/\/dashboard\/automations\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Order status check' })).toBeVisible()
    await expect(stepTitles(page)).toHaveText(['Step 1: Navigate', 'Step 2: Click', 'Step 3: Screenshot', 'Step 4: Extract'])
    await expect(step(page, 4).getByLabel('Field name')).toHaveValue('status')

    const exporting = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export JSON' }).click()
    const exported = await exporting
    expect(exported.suggestedFilename()).toBe('order-status-check.automation.json')
    const document = JSON.parse(await downloaded(exported)) as { version: number; name: string; steps: unknown[] }
    expect(document).toMatchObject({ version: 4, name: 'Order status check', description: 'Reads the status of my orders.', steps: SAVED })
  })

  test('a new automation reads task, details, steps, then save; the rarer options wait closed under Advanced', async ({
    page,
    request,
  }) => {
    await signIn(page, await createAccount(request, 'advanced'))
    await gotoHydrated(page, '/dashboard/automations/new')
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 2 })).toHaveText(['Build the steps', 'Details', 'Steps', 'Advanced'])
    for (const label of ['Repair broken steps during runs', 'Keep browser session', 'From step', 'Time limit (seconds)', 'Action limit']) {
      await expect(page.getByLabel(label), label).toBeHidden()
    }
    // Save comes after everything else.
    const below = await page.evaluate(() => {
      const save = [...document.querySelectorAll('button')].find((button) => button.textContent?.includes('Save Automation'))
      const advanced = [...document.querySelectorAll('summary')].find((summary) => summary.textContent?.includes('Advanced'))
      return Boolean(save && advanced && advanced.compareDocumentPosition(save) & Node.DOCUMENT_POSITION_FOLLOWING)
    })
    expect(below).toBe(true)

    // The keyboard opens it.
    await page.locator('summary', { hasText: 'Advanced' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByLabel('Repair broken steps during runs')).toBeChecked()
    await page.getByLabel('Action limit').fill('7')
    await page.getByLabel('Name', { exact: true }).fill('Limited')
    await addStep(page, 'Navigate')
    await step(page, 1).getByLabel('URL').fill('https://shop.example.com/')
    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(toasts(page).getByText('Automation created')).toBeVisible()
    // Saved with a limit of its own: open when it is shown again.
    await page.reload()
    await expect(page.getByLabel('Action limit')).toHaveValue('7')
    await expect(page.getByLabel('Action limit')).toBeVisible()
  })

  test('a member imports exported JSON into a new automation, then duplicates and deletes from the dashboard', async ({
    page,
    request,
  }) => {
    // Import, save, duplicate and delete: about thirty interactions, near 30 s with both cores busy.
    test.setTimeout(60_000)
    const account = await createAccount(request, 'importer')
    await createAutomation(request, await apiToken(request, account), { name: 'Order status check', steps: SAVED })
    const document = { version: 1, name: 'Order status check', description: '', schedule: null, steps: SAVED }
    await signIn(page, account)

    // Import into a new automation: something that is not JSON first, then an exported file.
    await gotoHydrated(page, '/dashboard/automations/new')
    await page.getByLabel('Name', { exact: true }).fill('Imported check')
    await page.getByRole('button', { name: 'Import JSON' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import steps' })
    await dialog.getByLabel('Paste JSON').fill('{ not json')
    await dialog.getByRole('button', { name: 'Import steps' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('This is not valid JSON.')
    await dialog.getByLabel('JSON file').setInputFiles({
      name: 'order-status-check.automation.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(document)),
    })
    await expect(dialog.getByLabel('Paste JSON')).toHaveValue(/"steps"/)
    await dialog.getByRole('button', { name: 'Import steps' }).click()
    await expect(dialog).toBeHidden()
    await expect(stepTitles(page)).toHaveText(['Step 1: Navigate', 'Step 2: Click', 'Step 3: Screenshot', 'Step 4: Extract'])
    await page.getByRole('button', { name: 'Save Automation' }).click()
    await expect(toasts(page).getByText('Automation created')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Imported check' })).toBeVisible()

    // My Automations: both, with their steps and 'Manual'; duplicate one, delete the other.
    await page.getByRole('link', { name: 'Automation History' }).first().click()
    await expect(page).toHaveURL('/dashboard')
    const mine = page.getByRole('table', { name: 'My Automations' })
    const row = (name: string) => mine.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) })
    await expect(row('Order status check')).toContainText('4 steps')
    await expect(row('Order status check')).toContainText('Manual')
    await expect(row('Order status check')).toContainText('Never')
    await expect(row('Imported check')).toBeVisible()

    await page.getByRole('button', { name: 'Duplicate Order status check', exact: true }).click()
    await expect(toasts(page).getByText('Automation duplicated')).toBeVisible()
    await expect(row('Copy of Order status check')).toContainText('4 steps')

    await page.getByRole('button', { name: 'Delete Imported check', exact: true }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete "Imported check"?' })
    await expect(confirm.getByText('Its past runs stay in your history.', { exact: false })).toBeVisible()
    await confirm.getByRole('button', { name: 'Delete Automation' }).click()
    await expect(toasts(page).getByText('Automation deleted')).toBeVisible()
    await expect(row('Imported check')).toHaveCount(0)
    await expect(mine.getByRole('row')).toHaveCount(3)
    await expectNoAxeViolations(page)
  })

  test('the history lists a client run and follows it live; its page has the log, data and downloads; another member gets a 404', async ({
    page,
    request,
    consoleErrors,
  }) => {
    // A long journey (live run, filters, axe in two places, the run page, another member): 60 s, as its neighbours.
    test.setTimeout(60_000)
    const account = await createAccount(request, 'history')
    const token = await apiToken(request, account)
    const automationId = await createAutomation(request, token, { name: 'Order export', steps: STEPS })
    await signIn(page, account)
    await expect(page.getByText('No recent automations. Your runs will appear here.')).toBeVisible()
    const history = page.getByRole('table', { name: 'Automation History: your runs, newest first' })
    await expect(history.getByText('No runs found')).toBeVisible()

    // The extension starts a run: it appears without a reload, then follows its progress.
    const runId = await startClientRun(request, token, automationId)
    const runRow = history.getByRole('row').filter({ has: page.getByRole('link', { name: 'Order export' }) })
    await expect(async () => {
      if ((await runRow.count()) === 0) await reportRun(request, token, runId, {})
      await expect(runRow).toBeVisible({ timeout: 1_000 })
    }).toPass({ timeout: 15_000 })
    await expect(runRow).toContainText('Running')
    await expect(runRow).toContainText('Extension · Your device')
    await reportRun(request, token, runId, { actionsPerformed: 1, log: [{ message: 'Opened the orders page' }] })
    await expect(runRow).toContainText('1 / 3')

    await reportRun(request, token, runId, {
      status: 'succeeded',
      actionsPerformed: 3,
      log: [{ message: 'Clicked refresh' }, { level: 'warn', message: 'One order had no status' }],
      extracted: [
        { order: 'A-100', status: 'Shipped' },
        { order: 'A-101', status: null },
      ],
    })
    await expect(runRow.getByText('Succeeded')).toBeVisible()
    await expect(runRow).toContainText('3 / 3')
    const recent = page.getByRole('list', { name: 'Recent runs' })
    await expect(recent.getByRole('link', { name: 'Order export' })).toBeVisible()
    await expect(recent.getByText('Succeeded')).toBeVisible()
    await expect(
      page.getByRole('table', { name: 'My Automations' }).getByRole('link', { name: /Last run of Order export: succeeded/ }),
    ).toBeVisible()

    // Filters live in the address: reload and back work.
    await page.getByLabel('Status', { exact: true }).selectOption('failed')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/status=failed/)
    await expect(history.getByText('No runs found')).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('failed')
    await expect(history.getByText('No runs found')).toBeVisible()
    await page.goBack()
    await expect(runRow).toBeVisible()
    await page.getByLabel('Status', { exact: true }).selectOption('succeeded')
    await page.getByLabel('Automation', { exact: true }).selectOption({ label: 'Order export' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(new RegExp(`status=succeeded&automation=${automationId}`))
    await expect(runRow).toBeVisible()
    await expectNoAxeViolations(page)

    // The run page.
    await runRow.getByRole('link', { name: 'Order export' }).click()
    await expect(page).toHaveURL(`/dashboard/runs/${runId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Order export' })).toBeVisible()
    const facts = page.locator('dl')
    await expect(facts).toContainText('Succeeded')
    await expect(facts).toContainText('Extension')
    await expect(facts).toContainText('Your device')
    await expect(facts).toContainText('3 of 3')
    await expect(page.getByRole('button', { name: 'Cancel run' })).toHaveCount(0)
    const log = page.getByRole('list', { name: 'Log lines' })
    await expect(log.getByRole('listitem')).toHaveCount(4)
    await expect(log.getByRole('listitem').first()).toContainText('Started by the extension.')
    await expect(log.getByRole('listitem').filter({ hasText: 'One order had no status' })).toContainText('warn')
    await expect(log.locator('time').first()).toHaveText(/^\d\d:\d\d:\d\d$/)
    const data = page.getByRole('table', { name: 'Extracted data' })
    await expect(data.getByRole('columnheader')).toHaveText(['order', 'status'])
    await expect(data.getByRole('row').nth(1)).toContainText('A-100Shipped')

    const csvDownload = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download CSV' }).click()
    const csv = await downloaded(await csvDownload)
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual(['order,status', 'A-100,Shipped', 'A-101,'])
    const jsonDownload = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download JSON' }).click()
    expect(JSON.parse(await downloaded(await jsonDownload))).toEqual([
      { order: 'A-100', status: 'Shipped' },
      { order: 'A-101', status: null },
    ])
    await expectNoAxeViolations(page)

    // Another member: the run does not exist for them.
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page).toHaveURL('/')
    await signIn(page, await createAccount(request, 'stranger'))
    consoleErrors.allowHttpStatus(404, `/dashboard/runs/${runId}`)
    const response = await page.goto(`/dashboard/runs/${runId}`)
    expect(response?.status()).toBe(404)
    await expect(page.getByText('Oops! Page not found')).toBeVisible()
    await expect(page.getByText('Order export')).toHaveCount(0)
  })

  test("'Run in cloud' queues a run and opens its page", async ({ page, request }) => {
    const account = await createAccount(request, 'cloud')
    const token = await apiToken(request, account)
    await createAutomation(request, token, { name: 'Cloud check', steps: STEPS })
    await signIn(page, account)
    await page.getByRole('button', { name: 'Run in cloud: Cloud check' }).click()
    await expect(toasts(page).getByText('Run queued')).toBeVisible()
    await expect(page).toHaveURL(/\/dashboard\/runs\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Cloud check' })).toBeVisible()
    await expect(page.locator('dl')).toContainText('Cloud')
    await expect(page.locator('dl')).toContainText('Manual')
    await expect(page.locator('dl')).toContainText('Credits charged1')
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Automation History' })).toHaveAttribute(
      'aria-current',
      'page',
    )
  })

  test("a Free member's sixth run in a month is refused with the plan's message", async ({ page, request, consoleErrors }) => {
    const account = await createAccount(request, 'free-cap')
    const token = await apiToken(request, account)
    const automationId = await createAutomation(request, token, { name: 'Daily check', steps: STEPS })
    for (let run = 0; run < 5; run++) await startClientRun(request, token, automationId)
    await signIn(page, account)
    await expect(page.getByRole('table', { name: 'Automation History: your runs, newest first' }).getByRole('row')).toHaveCount(6)
    // The refusal is the action's 409, which the browser reports on its console.
    consoleErrors.allowHttpStatus(409, '/dashboard.data')
    await page.getByRole('button', { name: 'Run in cloud: Daily check' }).click()
    await expect(toasts(page).getByText('Could not start the run')).toBeVisible()
    await expect(
      toasts(page).getByText("The Free plan includes 5 automation runs per month, and this month's are used.", { exact: false }),
    ).toBeVisible()
    await expect(page).toHaveURL('/dashboard')
    // Nothing was charged: the balance is what sign-up gave.
    await expect(page.getByText('Credit Activity')).toBeVisible()
    await expect(page.getByText('Automation run', { exact: true })).toHaveCount(0)
  })
})

test.describe('automations in the admin panel', () => {
  test("the Users tab counts each member's runs this month and leads to every member's runs", async ({ page, request }) => {
    const account = await createAccount(request, 'usage')
    const token = await apiToken(request, account)
    const automationId = await createAutomation(request, token, { name: 'Usage check', steps: STEPS })
    const runId = await startClientRun(request, token, automationId)
    await startClientRun(request, token, automationId)
    await reportRun(request, token, runId, { status: 'failed', error: 'The page did not answer' })

    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(account.email)}`)
    const users = page.getByRole('table', { name: 'Users' })
    await expect(users.getByRole('columnheader', { name: 'Credits' })).toBeVisible()
    const headers = await users.getByRole('columnheader').allTextContents()
    const row = users.getByRole('row').filter({ hasText: account.email })
    await expect(row.getByRole('cell').nth(headers.indexOf('Credits'))).toContainText('2 runs this month')

    await page.getByRole('link', { name: 'View all runs' }).click()
    await expect(page).toHaveURL('/admin/runs')
    await expect(page.getByRole('heading', { name: 'Automation Runs' })).toBeVisible()
    // The panel keeps its seven tabs; this page is reached from the Users tab.
    await expect(page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link')).toHaveCount(7)
    await page.getByLabel('Member e-mail or id').fill(account.email.toUpperCase())
    await page.getByLabel('Status', { exact: true }).selectOption('failed')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('1 run', { exact: true })).toBeVisible()
    const runs = page.getByRole('table', { name: 'Runs of every member, newest first' })
    await expect(runs.getByRole('row').nth(1)).toContainText(account.email)
    await expect(runs.getByRole('row').nth(1)).toContainText('Failed')
    await expectNoAxeViolations(page)

    await page.getByLabel('Member e-mail or id').fill('nobody@aether.test')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('No member has that e-mail address.')).toBeVisible()
    await expect(runs.getByText('No runs found')).toBeVisible()

    // An admin may open a member's run page (read only: no Cancel).
    await gotoHydrated(page, `/dashboard/runs/${runId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Usage check' })).toBeVisible()
    await expect(page.getByText('The page did not answer').first()).toBeVisible()
  })
})
