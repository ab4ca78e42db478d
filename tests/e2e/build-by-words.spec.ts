import type { Page } from '@playwright/test'
import { startPracticeSites, type PracticeSites } from '../../server/testing/practice-sites.ts'
import { expect, expectNoAxeViolations, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// The journey of issue 14, as a member with no programming would take it, on the default install
// (no AI model: the offline planner): say the task in words, inspect the page and point at the
// button, edit a step, save, run it in the cloud; the site is then redesigned (its buttons say
// things a little differently), the next run repairs the step by itself, "Apply fix" keeps the
// repair, and the run after that needs none.
test.describe.configure({ mode: 'serial', timeout: 240_000 })

let sites: PracticeSites
let server: IsolatedServer
test.beforeAll(async () => {
  test.setTimeout(120_000)
  sites = await startPracticeSites()
  // This server's cloud browser may reach loopback (the practice sites); the suite's main server may not.
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
})
test.afterAll(async () => {
  await server?.stop()
  await sites?.close()
})

/** Starts a cloud run from the dashboard and waits on its page until it has finished. */
async function runInCloud(page: Page, name: string) {
  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.locator('[data-status="succeeded"], [data-status="failed"]').first()).toBeVisible({ timeout: 90_000 })
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible()
}

test('describe, inspect, edit, save, run; the redesign is repaired, the fix applied, the next run clean', async ({ page }) => {
  const name = `Contact form ${Date.now().toString(36)}`
  await signIn(page, MEMBER, server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/new`)

  // Describe the task in words: the offline planner drafts steps, checked against the page.
  await expect(page.getByText('The offline planner reads your sentence (no AI model is configured on this server).')).toBeVisible()
  await page
    .getByLabel('What should it do?')
    .fill('Type "Ada" into Full name and ada@example.com into Email, then choose Returns in the Topic drop-down')
  await page.getByLabel('Start page').fill(`${sites.url}/contact`)
  await page.getByRole('button', { name: 'Plan steps' }).click()
  const draft = page.getByRole('region', { name: 'Draft steps' })
  await expect(draft).toBeVisible({ timeout: 90_000 })
  await expect(draft.getByRole('list', { name: 'Planned steps' }).getByRole('listitem')).toHaveText([
    `Go to ${sites.url}/contact`,
    'Type “Ada” into Field labelled “Full name” (+2 fallbacks)',
    'Type “ada@example.com” into Field labelled “Email” (+2 fallbacks)',
    'Choose “Returns” in Field labelled “Topic” (+2 fallbacks)',
  ])
  // Each step shows the page as trying it left it.
  await expect(draft.getByRole('img', { name: 'The page after step 2' })).toBeVisible()
  await expect(draft.getByText('Did not work while planning')).toHaveCount(0)
  await draft.getByRole('button', { name: 'Use these steps' }).click()
  await expect(page.getByRole('listitem', { name: /^Step \d/ })).toHaveCount(4)

  // Inspect the page the steps lead to, and point at the button.
  await page.getByRole('tab', { name: 'Inspect page' }).click()
  await page.getByRole('button', { name: 'Inspect after my steps' }).click()
  const inspected = page.getByRole('region', { name: 'Inspected page' })
  await expect(inspected).toBeVisible({ timeout: 90_000 })
  await expect(inspected.getByRole('img', { name: 'Screenshot of Contact us' })).toBeVisible()
  await inspected.getByRole('list', { name: 'Elements on the page' }).getByRole('button', { name: 'Button named “Send message”' }).click()
  await expect(inspected.getByText('Picked: Button named “Send message”')).toBeVisible()
  await inspected.getByRole('button', { name: 'Add step' }).click()
  await expect(inspected.getByRole('status')).toContainText('Added: Click Button named “Send message”')
  await expect(page.getByRole('listitem', { name: 'Step 5: Click' })).toBeVisible()

  // Edit a step the way any step is edited, name it, save.
  const typeName = page.getByRole('listitem', { name: 'Step 2: Type text' })
  await typeName.getByLabel('Text', { exact: true }).fill('Ada Lovelace')
  await page.locator('#automation-name').fill(name)
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation created')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: `Edit ${name}` })).toBeVisible()

  // It runs in the cloud as built.
  await runInCloud(page, name)
  await expect(page.getByRole('heading', { name: 'Repaired steps' })).toHaveCount(0)

  // The site changes: new markup, and its button now says "Send your message".
  sites.redesign('reworded')
  await runInCloud(page, name)
  const repairs = page.getByRole('region', { name: 'Repaired steps' })
  await expect(repairs).toContainText('Step 5 (click): Button named “Send message” was not found')
  await expect(repairs).toContainText('Used Button named “Send your message”, found by similar words on the page.')
  await repairs.getByRole('button', { name: 'Apply fix to step 5' }).click()
  await expect(toasts(page).getByText('Fix applied')).toBeVisible()
  await expect(repairs).toContainText('Applied in version 2')

  // The next run finds the button as the automation now says it.
  await runInCloud(page, name)
  await expect(page.getByRole('region', { name: 'Repaired steps' })).toHaveCount(0)
})
