import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, test, type BrowserContext, type Page, type Worker } from '@playwright/test'
import { startTestSite } from '../../server/testing/cloud-run-site.ts'
import { apiToken, createAutomation } from './accounts.ts'
import { expect, gotoHydrated, hydrated, MEMBER } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// The browser extension end to end (docs/decisions/030, 031): the built, unpacked extension in
// Chromium's new headless mode connects to a server of its own, records a flow on a local form,
// saves it, runs it in this browser and in the cloud (both show in Run History), and notices when
// the member revokes it in Settings -> Devices.
test.describe.configure({ mode: 'serial', timeout: 180_000 })

const EXTENSION = path.resolve('extension/.output/chrome-mv3')

let site: Awaited<ReturnType<typeof startTestSite>>
let server: IsolatedServer
let context: BrowserContext
let profile: string
let panel: Page
let tab: Page

test.beforeAll(async () => {
  test.setTimeout(180_000)
  if (!existsSync(path.join(EXTENSION, 'manifest.json'))) execFileSync('npm', ['run', 'build:extension'], { stdio: 'inherit' })
  site = await startTestSite()
  // The cloud run opens the test's own page on loopback.
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
  profile = mkdtempSync(path.join(tmpdir(), 'aether-e2e-extension-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    // Extensions load only in Chromium's new headless mode, asked for by argument.
    headless: false,
    args: ['--headless=new', '--no-sandbox', `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`],
  })
  const worker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
  // The side panel as a window of its own: "the current tab" is then the browser window's tab.
  const opened = context.waitForEvent('page', (page) => page.url().endsWith('/sidepanel.html'))
  await worker.evaluate((url) => {
    // The extension's service worker, where the extension API is `chrome`.
    const api = (globalThis as unknown as { chrome: { windows: { create(options: object): Promise<unknown> } } }).chrome
    return api.windows.create({ url, type: 'popup' })
  }, new URL('/sidepanel.html', worker.url()).href)
  panel = await opened
  tab = context.pages().find((page) => page !== panel) ?? (await context.newPage())
})
test.afterAll(async () => {
  await context?.close()
  await server?.stop()
  await site?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
})

test('the extension connects, records, runs in the browser and the cloud, and learns it was revoked', async ({ request }) => {
  const name = `Sign-up recorded ${Date.now().toString(36)}`

  // Connect: the panel opens the website's page to approve it; the member signs in and approves.
  await panel.getByText('Settings').click()
  await panel.getByLabel('Aether server').fill(server.url)
  await panel.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(panel.getByText('Saved.')).toBeVisible()
  const approval = context.waitForEvent('page', (page) => page.url().includes('/connect') || page.url().includes('/auth'))
  await panel.getByRole('button', { name: 'Connect', exact: true }).click()
  const connect = await approval
  await expect(connect).toHaveURL(/\/auth\?returnTo=/)
  await hydrated(connect)
  await connect.getByLabel('Email').fill(MEMBER.email)
  await connect.getByLabel('Password').fill(MEMBER.password)
  await connect.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(connect.getByRole('heading', { name: 'Connect a device' })).toBeVisible()
  await connect.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(connect.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  await expect(panel.getByRole('heading', { name: 'Connected' })).toBeVisible({ timeout: 15_000 })
  await connect.close()

  // Record: the form on the test site, filled and sent as a person does.
  await tab.goto(`${site.url}/form`)
  await tab.bringToFront()
  await panel.getByRole('button', { name: 'Record', exact: true }).click()
  await expect(panel.getByRole('heading', { name: 'Recording…' })).toBeVisible()
  await tab.getByLabel('Name').fill('Ada')
  // A choice made with the keyboard: the recorder takes only the browser's own (trusted) events, and
  // selectOption sends its events from a script.
  await tab.getByLabel('Plan').focus()
  await tab.keyboard.press('ArrowDown')
  await expect(tab.getByLabel('Plan')).toHaveValue('pro')
  await tab.getByRole('button', { name: 'Send' }).click()
  await expect(tab.getByText('Thanks, Ada (pro)')).toBeVisible()
  await panel.getByRole('button', { name: 'Stop', exact: true }).click()
  await expect(panel.getByRole('heading', { name: 'Recording stopped' })).toBeVisible()
  await panel.getByLabel('Name').fill(name)
  await panel.getByRole('button', { name: 'Save as automation' }).click()
  await expect(panel.getByText(`Saved “${name}”.`)).toBeVisible()

  // Run in this browser: the tab goes to the form again and the steps fill and send it.
  await tab.goto('about:blank')
  await tab.bringToFront()
  const automations = panel.getByRole('list', { name: 'Automations' })
  await expect(automations.getByText(name)).toBeVisible()
  await automations.getByRole('button', { name: `Run ${name} in this browser` }).click()
  await expect(automations.getByText(/^Run succeeded/)).toBeVisible({ timeout: 60_000 })
  await expect(tab).toHaveURL(`${site.url}/form`)
  await expect(tab.getByText('Thanks, Ada (pro)')).toBeVisible()

  // Run in the cloud: the panel links to the run.
  await automations.getByRole('button', { name: `Run ${name} in the cloud` }).click()
  await expect(automations.getByRole('link', { name: 'Open the cloud run' })).toBeVisible()

  // Both runs in Run History: the browser's and, once the worker is done, the cloud's.
  const history = await context.newPage()
  // The member is signed in already: they approved the browser on /connect in this profile.
  await expect(async () => {
    await gotoHydrated(history, `${server.url}/dashboard`)
    const rows = history
      .getByRole('table', { name: /Automation History: your runs/ })
      .getByRole('row')
      .filter({ hasText: name })
    await expect(rows.filter({ hasText: 'Your device' }).filter({ hasText: 'Succeeded' })).toHaveCount(1)
    await expect(rows.filter({ hasText: 'Cloud' }).filter({ hasText: 'Succeeded' })).toHaveCount(1)
  }).toPass({ timeout: 90_000 })

  // An automation made on the website, with an onError retry, extraction and a screenshot, run in this browser.
  const token = await apiToken(request, MEMBER, server.url)
  const reader = `Read the answer ${Date.now().toString(36)}`
  await createAutomation(
    request,
    token,
    {
      name: reader,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: 'Grace' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Nowhere' }], onError: { retries: 1, delayMs: 100, then: 'skip' } },
        { type: 'wait', target: [{ by: 'text', text: 'Thanks' }] },
        { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
        { type: 'extract', target: [{ by: 'css', selector: '.item a' }], field: 'link', attribute: 'href' },
        { type: 'screenshot', name: 'After sending' },
      ],
    },
    server.url,
  )
  await panel.getByRole('button', { name: 'Refresh' }).click()
  await automations.getByRole('button', { name: `Run ${reader} in this browser` }).click()
  await expect(automations.getByText(/^Run succeeded \(7 steps\)/)).toBeVisible({ timeout: 60_000 })
  const runPage = context.waitForEvent('page', (page) => page.url().includes('/dashboard/runs/'))
  await automations.getByRole('link', { name: 'Open the run' }).click()
  const run = await runPage
  await expect(run.locator('[data-status="succeeded"]').first()).toBeVisible()
  const table = run.getByRole('table').filter({ hasText: 'result' })
  await expect(table).toContainText('Thanks, Grace (free)')
  await expect(table).toContainText(`${site.url}/alpha`)
  await expect(table).toContainText(`${site.url}/beta`)
  await expect(run.getByText(/Step 4 \(click\): .*the step is skipped/)).toBeVisible()
  // Its timeline came with its reports (docs/decisions/057): every step, the skipped one said so.
  const timeline = run.getByRole('region', { name: 'Steps' })
  await expect(timeline.getByRole('listitem', { name: /^Step \d+/ })).toHaveCount(8)
  await expect(timeline.getByRole('listitem', { name: 'Step 4 (click)' }).locator('[data-outcome="skipped"]')).toHaveText('Skipped')
  // With the picture of the tab after each step the browser could take (the run's tab showed throughout).
  for (const n of [1, 3, 6]) {
    const picture = timeline.getByRole('listitem', { name: `Step ${n} (` }).getByRole('img', { name: `The page after step ${n}` })
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  }
  const shot = run.getByRole('img', { name: 'Screenshot after step 8' })
  await expect(shot).toBeVisible()
  await expect.poll(() => shot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)

  // An automation that asks for an input: the panel asks for its value, and the run types it.
  const greeter = `Greet someone ${Date.now().toString(36)}`
  await createAutomation(
    request,
    token,
    {
      name: greeter,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.who}}' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
        { type: 'assertText', text: 'Thanks, {{input.who}}' },
      ],
    },
    server.url,
  )
  await panel.getByRole('button', { name: 'Refresh' }).click()
  await tab.goto('about:blank')
  await tab.bringToFront()
  const greeterItem = automations.getByRole('listitem').filter({ hasText: greeter })
  await greeterItem
    .getByRole('group', { name: `Inputs of ${greeter}` })
    .getByLabel('who')
    .fill('Grace Hopper')
  await greeterItem.getByRole('button', { name: `Run ${greeter} in this browser` }).click()
  await expect(greeterItem.getByText(/^Run succeeded \(4 steps\)/)).toBeVisible({ timeout: 60_000 })
  await expect(tab.getByText('Thanks, Grace Hopper (free)')).toBeVisible()

  // Steps that type a vault secret run here once the member allows this browser vault values in Settings -> Devices.
  const secretive = `Sign in with a secret ${Date.now().toString(36)}`
  const stored = await request.post(`${server.url}/api/vault`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'form_name', kind: 'value', value: 'Ada Lovelace', origins: [site.url] },
  })
  expect(stored.status(), await stored.text()).toBe(201)
  const secretiveId = await createAutomation(
    request,
    token,
    {
      name: secretive,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{secrets.form_name}}' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
        { type: 'screenshot', name: 'Sent' },
        { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
      ],
    },
    server.url,
  )
  await panel.getByRole('button', { name: 'Refresh' }).click()
  const secretiveItem = automations.getByRole('listitem').filter({ hasText: secretive })
  await secretiveItem.getByRole('button', { name: `Run ${secretive} in this browser` }).click()
  await expect(secretiveItem.getByRole('alert')).toHaveText(
    /from the vault\. Vault values do not reach “.+” until you allow them for it in Settings -> Devices; or run this automation in the cloud\.$/,
  )
  await gotoHydrated(history, `${server.url}/settings#devices`)
  const listed = history.getByRole('list', { name: 'Your devices' })
  await listed.getByRole('button', { name: /^Allow vault values on / }).click()
  await history.getByRole('dialog').getByRole('button', { name: 'Allow Vault Values' }).click()
  await expect(listed.getByText(/^Vault values: allowed\./)).toBeVisible()
  await tab.goto('about:blank')
  await tab.bringToFront()
  await secretiveItem.getByRole('button', { name: `Run ${secretive} in this browser` }).click()
  await expect(secretiveItem.getByText(/^Run succeeded \(5 steps\)/)).toBeVisible({ timeout: 60_000 })
  await expect(tab.getByText('Thanks, Ada Lovelace (free)')).toBeVisible()
  // What the run reported holds the placeholder where the page showed the value back.
  const runs = await request.get(`${server.url}/api/runs?automationId=${secretiveId}&limit=5`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  const reported = await runs.text()
  expect(reported).toContain('Thanks, {{secrets.form_name}} (free)')
  expect(reported).not.toContain('Ada Lovelace')

  // Revoke the device in Settings -> Devices: the panel says it was disconnected.
  await gotoHydrated(history, `${server.url}/settings#devices`)
  const devices = history.getByRole('list', { name: 'Your devices' })
  await devices.getByRole('button', { name: /^Revoke / }).click()
  await history.getByRole('dialog').getByRole('button', { name: 'Revoke Device' }).click()
  await expect(history.getByText('No devices connected yet.')).toBeVisible()
  await panel.getByRole('button', { name: 'Refresh' }).click()
  await expect(panel.getByText(/This browser was disconnected/)).toBeVisible()
})

test('"Disconnect this browser" revokes it on the server: the device leaves Settings -> Devices and its place is free', async () => {
  // Connect again (the member is still signed in on the website in this profile).
  const approval = context.waitForEvent('page', (page) => page.url().includes('/connect'))
  await panel.getByRole('button', { name: 'Connect', exact: true }).click()
  const connect = await approval
  await hydrated(connect)
  await connect.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(connect.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  await expect(panel.getByRole('heading', { name: 'Connected' })).toBeVisible({ timeout: 15_000 })
  await gotoHydrated(connect, `${server.url}/settings#devices`)
  await expect(connect.getByRole('list', { name: 'Your devices' }).getByRole('listitem')).toHaveCount(1)

  const device = /as “(.+)”/.exec((await panel.getByText(/^Workspace .+, as “.+”/).textContent()) ?? '')?.[1]
  await panel.getByRole('button', { name: 'Disconnect this browser' }).click()
  await expect(panel.getByRole('heading', { name: 'Connect to Aether' })).toBeVisible()
  await expect(panel.getByText(/^Disconnected: “.+” is removed from your devices on /)).toHaveText(
    `Disconnected: “${device}” is removed from your devices on ${server.url}.`,
  )
  // The same address with its #devices: a reload reads the list again.
  await connect.reload()
  await hydrated(connect)
  await expect(connect.getByText('No devices connected yet.')).toBeVisible()
  await connect.close()
})
