import { utils, write } from '@e965/xlsx'
import { startWorkflowSite } from '../../server/testing/workflow-site.ts'
import { createAccount } from './accounts.ts'
import { addStep, step, stepTitles } from './builder-steps.ts'
import { expect, gotoHydrated, hydrated, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// A "for each row" workflow built in the builder without JSON (issue 29): blocks added with the
// step chooser, steps added inside the block, a run started with pasted CSV rows, the cloud worker
// of a real server entering each row into a practice site's form, and each row's outcome on the
// run page and in its download.
test.describe.configure({ mode: 'serial', timeout: 150_000 })

const workbook = (rows: string[][]) =>
  write(utils.book_new(utils.aoa_to_sheet(rows), 'Sheet1'), { type: 'buffer', bookType: 'xlsx' }) as Buffer

let site: Awaited<ReturnType<typeof startWorkflowSite>>
let server: IsolatedServer
test.beforeAll(async () => {
  test.setTimeout(120_000)
  site = await startWorkflowSite()
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
})
test.afterAll(async () => {
  await server?.stop()
  await site?.close()
})

test('a member builds a "for each row" automation in the builder and runs it over pasted rows', async ({ page, request }) => {
  await signIn(page, await createAccount(request, 'rows', server.url), server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/new`)
  await page.getByLabel('Name', { exact: true }).fill('Enter the orders')

  // A block comes with its end, and the next steps go inside it.
  await addStep(page, 'For each row of data')
  await expect(stepTitles(page)).toHaveText(['Step 1: For each row of data', 'Step 2: End of block'])
  await expect(page.getByLabel('Add it')).toHaveValue(/.+/)
  await addStep(page, 'Navigate')
  await step(page, 2).getByLabel('URL').fill(`${site.url}/order`)
  await addStep(page, 'Type text')
  await step(page, 3).getByLabel('Label text').fill('Customer name')
  await step(page, 3).getByLabel('Text', { exact: true }).fill('{{row.name}}')
  await addStep(page, 'Type text')
  await step(page, 4).getByLabel('Label text').fill('Email')
  await step(page, 4).getByLabel('Text', { exact: true }).fill('{{row.email}}')
  await addStep(page, 'Click')
  await step(page, 5).getByLabel('Name', { exact: true }).fill('Place order')
  await addStep(page, 'Assert text')
  await step(page, 6).getByLabel('Expected text').fill('Order saved for {{row.name}}')
  await expect(stepTitles(page)).toHaveText([
    'Step 1: For each row of data',
    'Step 2: Navigate (inside a block)',
    'Step 3: Type text (inside a block)',
    'Step 4: Type text (inside a block)',
    'Step 5: Click (inside a block)',
    'Step 6: Assert text (inside a block)',
    'Step 7: End of block',
  ])
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation created')).toBeVisible()

  // Run it over pasted rows: the second has no e-mail address, the site refuses it, the others go on.
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('button', { name: 'Run in cloud: Enter the orders' }).click()
  const dialog = page.getByRole('dialog')
  await dialog
    .getByLabel('Rows (CSV: the first line names the columns)')
    .fill('name,email\nAda,ada@example.com\nBob,no-address\nCyd,cyd@example.com')
  await dialog.getByRole('button', { name: 'Run in cloud' }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.locator('[data-status="failed"]').first()).toBeVisible({ timeout: 90_000 })
  await expect(page.getByRole('alert').filter({ hasText: 'Row 2 of 3 failed; the other rows ran.' })).toBeVisible()
  const rows = page.getByRole('table', { name: 'Data rows and their outcomes' })
  await expect(rows.getByRole('row')).toHaveCount(4)
  await expect(rows.getByRole('row').nth(1)).toContainText('Done')
  await expect(rows.getByRole('row').nth(2)).toContainText('Failed')
  await expect(rows.getByRole('row').nth(3)).toContainText('Done')
  expect(site.orders.map((order) => order.name)).toEqual(['Ada', 'Bob', 'Cyd'])

  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download rows CSV' }).click()
  const csv = await (await downloading).path().then((file) => import('node:fs/promises').then((fs) => fs.readFile(file, 'utf8')))
  expect(csv.split('\r\n')[0]).toBe('row,status,error,name,email')
  expect(csv).toContain('2,failed,')
  // Resume offers the failed row again.
  await expect(page.getByRole('button', { name: 'Resume from step 1' })).toBeVisible()

  // Rows kept with the automation, from an Excel workbook: what a run started with no rows goes through.
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('link', { name: 'Edit Enter the orders' }).click()
  await hydrated(page)
  const card = page.getByRole('region', { name: 'Rows of data' })
  await expect(card.getByText('No rows are kept with it')).toBeVisible()
  await card.getByLabel('CSV or Excel file (optional)').setInputFiles({
    name: 'regulars.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: workbook([
      ['name', 'email'],
      ['Dee', 'dee@example.com'],
      ['Eve', 'eve@example.com'],
    ]),
  })
  await expect(card.getByText('The rows come from the first sheet of regulars.xlsx')).toBeVisible()
  await card.getByRole('button', { name: 'Keep these rows' }).click()
  await expect(toasts(page).getByText('Rows kept')).toBeVisible()
  await expect(card.getByText('regulars.xlsx, 2 rows with the columns name, email')).toBeVisible()
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('button', { name: 'Run in cloud: Enter the orders' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Run in cloud' }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 90_000 })
  expect(site.orders.map((order) => order.name)).toEqual(['Ada', 'Bob', 'Cyd', 'Dee', 'Eve'])
})

test('a JavaScript step is written in an editor with highlighting, under its label; a Free member is told which plan has it', async ({
  page,
  request,
  consoleErrors,
}) => {
  // The refused save answers 409, which the browser reports.
  consoleErrors.allow(/status of 409 \(Conflict\) \(at http:\/\/localhost:\d+\/dashboard\/automations\/new\.data:/)
  const account = await createAccount(request, 'script', server.url)
  await signIn(page, account, server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/new`)
  await page.getByLabel('Name', { exact: true }).fill('Count products')
  await addStep(page, 'Run JavaScript')
  // The editor stands in for the text area, under the same label.
  const editor = step(page, 1).getByRole('textbox', { name: /^JavaScript/ })
  await expect(editor).toHaveAttribute('contenteditable', 'true')
  await editor.click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type("const items = document.querySelectorAll('article')\nreturn items.length")
  await expect(step(page, 1).locator('.cm-line').first().locator('span').first()).toBeVisible()
  await step(page, 1).getByLabel('Keep the result as {{value.…}} (optional)').fill('count')
  await page.getByRole('button', { name: 'Save Automation' }).click()
  // JavaScript steps are part of Pro and Business: a Free member is told which plan has them.
  await expect(
    page.getByText('Running your own JavaScript is part of the Pro plan; you are on the Free plan. Upgrade to use it.').first(),
  ).toBeVisible()
})

test('a file kept with the automation in its Files card is what its upload step sends, and goes when removed', async ({
  page,
  request,
}) => {
  await signIn(page, await createAccount(request, 'files', server.url), server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/new`)
  await page.getByLabel('Name', { exact: true }).fill('Send the letter')
  await addStep(page, 'Navigate')
  await step(page, 1).getByLabel('URL').fill(`${site.url}/upload`)
  await addStep(page, 'Upload a file')
  await step(page, 2).getByLabel('Label text').fill('Attachment')
  await step(page, 2)
    .getByLabel(/^File \(/)
    .fill('cover letter.txt')
  await addStep(page, 'Click')
  await step(page, 3).getByLabel('Name', { exact: true }).fill('Send')
  await addStep(page, 'Assert text')
  await step(page, 4).getByLabel('Expected text').fill('Received cover letter.txt')
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation created')).toBeVisible()

  // The builder of a saved automation with an upload step offers its Files card.
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('link', { name: 'Edit Send the letter' }).click()
  await hydrated(page)
  const card = page.getByRole('region', { name: 'Files' })
  await expect(card.getByText('No files are kept with it yet.')).toBeVisible()
  await card
    .getByLabel('A file to keep')
    .setInputFiles({ name: 'cover letter.txt', mimeType: 'text/plain', buffer: Buffer.from('Dear team,') })
  await card.getByRole('button', { name: 'Keep this file' }).click()
  await expect(toasts(page).getByText('File kept')).toBeVisible()
  await expect(card.getByRole('list', { name: 'Kept files' }).getByRole('listitem')).toHaveText([/cover letter\.txt · 10 bytes · kept /])
  const downloading = page.waitForEvent('download')
  await card.getByRole('link', { name: 'Download cover letter.txt' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('cover letter.txt')

  await gotoHydrated(page, `${server.url}/dashboard`)
  // It asks for no inputs and takes no rows: it starts at once.
  await page.getByRole('button', { name: 'Run in cloud: Send the letter' }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 90_000 })
  expect(site.uploads.at(-1)).toEqual({ name: 'cover letter.txt', content: 'Dear team,' })

  // Removed after a confirmation; the card says none are kept.
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('link', { name: 'Edit Send the letter' }).click()
  await hydrated(page)
  await card.getByRole('button', { name: 'Remove cover letter.txt' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(toasts(page).getByText('File removed')).toBeVisible()
  await expect(card.getByText('No files are kept with it yet.')).toBeVisible()
})
