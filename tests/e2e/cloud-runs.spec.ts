import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import { PERSON_CODE, startTestSite } from '../../server/testing/cloud-run-site.ts'
import { apiToken, createAutomation } from './accounts.ts'
import { ADMIN, expect, expectNoAxeViolations, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// A cloud run end to end: the worker of a real server process opens a form page this test serves
// on loopback in headless Chromium, fills it, submits, extracts the result and takes a screenshot;
// the member watches it in the history and on the run page.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

let site: Awaited<ReturnType<typeof startTestSite>>
let server: IsolatedServer
test.beforeAll(async () => {
  test.setTimeout(120_000)
  site = await startTestSite()
  // This server may reach loopback (the test's own page); the suite's main server may not.
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
})
test.afterAll(async () => {
  await server?.stop()
  await site?.close()
})

const formSteps = (url: string) => [
  { type: 'navigate', url: `${url}/form` },
  // Targets as a person names them (steps version 2), with a CSS fallback.
  { type: 'type', target: [{ by: 'label', text: 'Name' }], text: 'Ada' },
  { type: 'select', target: [{ by: 'label', text: 'Plan' }], value: 'Pro' },
  {
    type: 'click',
    target: [
      { by: 'role', role: 'button', name: 'Send' },
      { by: 'css', selector: '#submit' },
    ],
  },
  { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
  // A version-1 step (a selector) still runs.
  { type: 'extract', selector: '#result', field: 'result' },
  { type: 'screenshot', name: 'After sending' },
  { type: 'assertText', selector: '#result', text: 'Thanks, Ada' },
]

test('a cloud run fills a form, extracts the answer and shows its screenshot in the history', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Sign-up form ${Date.now().toString(36)}`
  await createAutomation(request, token, { name, steps: formSteps(site.url) }, server.url)

  await signIn(page, MEMBER, server.url)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(toasts(page).getByText('Run queued')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))

  // Live: the page follows the run from queued to succeeded without a reload.
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('table').filter({ hasText: 'result' })).toContainText('Thanks, Ada (pro)')
  const shot = page.getByRole('img', { name: 'Screenshot after step 7' })
  await expect(shot).toBeVisible()
  // Visible is not loaded: wait for the picture itself.
  await expect.poll(() => shot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  expect(site.hits.get('/form')).toBeGreaterThanOrEqual(1)

  await gotoHydrated(page, `${server.url}/dashboard`)
  const history = page.getByRole('table').filter({ hasText: name }).first()
  await expect(history).toContainText('Succeeded')
})

test('a failing step fails the run with a message naming the step; the credit is not refunded', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Broken form ${Date.now().toString(36)}`
  await createAutomation(
    request,
    token,
    {
      name,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'click', selector: '#does-not-exist' },
      ],
    },
    server.url,
  )
  await signIn(page, MEMBER, server.url)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(page.locator('[data-status="failed"]').first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/Step 2 \(click\): no element matches Element “does not exist”/).first()).toBeVisible()

  // The timeline: each step with its words, outcome and time, a picture after it, and the failure with its own picture.
  const steps = page.getByRole('region', { name: 'Steps' })
  await expect(steps.getByRole('listitem', { name: /^Step \d+/ })).toHaveCount(2)
  const opened = steps.getByRole('listitem', { name: 'Step 1' })
  await expect(opened).toContainText(`${site.url}/form`)
  await expect(opened.locator('[data-outcome="done"]')).toHaveText('Done')
  const failed = steps.getByRole('listitem', { name: 'Step 2' })
  await expect(failed.locator('[data-outcome="failed"]')).toHaveText('Failed')
  await expect(failed).toContainText(/Step 2 \(click\): no element matches/)
  for (const picture of [
    opened.getByRole('img', { name: 'The page after step 1' }),
    failed.getByRole('img', { name: 'The page after step 2' }),
  ]) {
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  }
  await expect(failed.getByRole('link', { name: 'Picture after Step 2, full size' })).toHaveAttribute(
    'href',
    /\/screenshots\/after-\d+\.jpg$/,
  )
  await expectNoAxeViolations(page)
})

test('a failing run keeps the trace set in the builder; the member downloads it and opens it in the trace viewer', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, MEMBER, server.url)
  // More cloud runs in this file than the Free plan's month and the member's starting credits allow.
  const me = await request.get(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })
  const memberId = ((await me.json()) as { data: { id: string } }).data.id
  const admin = await apiToken(request, ADMIN, server.url)
  const topUp = await request.put(`${server.url}/api/users/${memberId}`, {
    data: { plan: 'pro', credits: 20 },
    headers: { Authorization: `Bearer ${admin}` },
  })
  expect(topUp.status(), await topUp.text()).toBe(200)
  const name = `Traced form ${Date.now().toString(36)}`
  const id = await createAutomation(
    request,
    token,
    {
      name,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: 'Ada' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Nowhere to be found' }] },
      ],
    },
    server.url,
  )
  await signIn(page, MEMBER, server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/${id}`)
  await page.getByText('Advanced', { exact: true }).click()
  await expect(page.getByLabel('Keep a trace of cloud runs')).toHaveValue('off')
  await page.getByLabel('Keep a trace of cloud runs').selectOption({ label: 'When a run fails' })
  // A page with no CAPTCHA on it: the failing step fails as it would without this.
  await page.getByLabel('Ask a person when a CAPTCHA blocks a step').check()
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation saved')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Keep a trace of cloud runs')).toHaveValue('onFailure')
  await expect(page.getByLabel('Ask a person when a CAPTCHA blocks a step')).toBeChecked()

  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.locator('[data-status="failed"]').first()).toBeVisible({ timeout: 60_000 })
  const replay = page.getByRole('region', { name: 'Replay' })
  await expect(replay).toContainText('Vault values are masked')

  const downloading = page.waitForEvent('download')
  await replay.getByRole('link', { name: /^Download trace \(\d/ }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^run-[0-9a-f-]{36}-trace\.zip$/)
  const entries = unzipSync(new Uint8Array(readFileSync((await download.path()) as string)))
  expect(Object.keys(entries)).toContain('trace.trace')

  // The viewer Playwright ships, served by us: no outside site. The run's steps are its actions, in words.
  const opening = page.waitForEvent('popup')
  await replay.getByRole('link', { name: /Open in trace viewer/ }).click()
  const viewer = await opening
  const outside: string[] = []
  viewer.on('request', (sent) => {
    if (!sent.url().startsWith(server.url) && !/^(data|blob):/.test(sent.url())) outside.push(sent.url())
  })
  await expect(viewer).toHaveURL(new RegExp(`^${server.url}/trace-viewer/`))
  await expect(viewer.getByText('Step 3 (click): Button named “Nowhere to be found”').first()).toBeVisible({ timeout: 30_000 })
  await viewer.getByText('Step 2 (type): Field labelled “Name” (3 characters)').first().click()
  expect(outside).toEqual([])
  await expectNoAxeViolations(page)
})

test('a step set in the builder to be tried again, then skipped, lets the run go on and succeed', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Optional banner ${Date.now().toString(36)}`
  const id = await createAutomation(
    request,
    token,
    {
      name,
      steps: [
        { type: 'navigate', url: `${site.url}/late?ms=0` },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Accept cookies' }] },
        { type: 'extract', target: [{ by: 'css', selector: '#state' }], field: 'state' },
      ],
    },
    server.url,
  )
  await signIn(page, MEMBER, server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/${id}`)
  const step = page.getByRole('listitem', { name: 'Step 2: Click' })
  await step.getByText('When step 2 fails:').click()
  await step.getByLabel('Tries again').fill('1')
  await step.getByLabel('Seconds between tries').fill('0.5')
  await step.getByLabel('Then').selectOption('skip')
  await expect(step.getByText('Try again once, 0.5 s apart, then skip the step and go on')).toBeVisible()
  await page.getByText('Advanced', { exact: true }).click()
  await page.getByLabel('Time limit (seconds)').fill('60')
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation saved')).toBeVisible()
  await expect(page.getByLabel('Time limit (seconds)')).toHaveValue('60')

  await gotoHydrated(page, `${server.url}/dashboard`)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  // On the run's page (the dashboard behind it shows earlier runs that succeeded).
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.getByRole('main').getByText('Status: Succeeded')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/Step 2 \(click\): .*trying again in 0\.5 s \(retry 1 of 1\)/).first()).toBeVisible()
  await expect(page.getByText(/Step 2 \(click\): .*the step is skipped and the run goes on/).first()).toBeVisible()
  await expect(page.getByRole('table').filter({ hasText: 'state' })).toContainText('waiting')
})

test('the run page shows the browser live while the run waits for the page to change', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Live view ${Date.now().toString(36)}`
  const steps = [
    { type: 'navigate', url: `${site.url}/late?ms=5000` },
    { type: 'click', target: [{ by: 'role', role: 'button', name: 'Late' }] },
    { type: 'wait', ms: 3_000 },
  ]
  await createAutomation(request, token, { name, steps }, server.url)

  await signIn(page, MEMBER, server.url)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  const live = page.getByRole('region', { name: 'Live view' })
  const picture = live.getByRole('img', { name: 'The run’s browser, live' })
  await expect(picture).toBeVisible({ timeout: 30_000 })
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  const first = await picture.getAttribute('src')
  // The button appears, then "Clicked": the picture changes while the run waits on the page.
  await expect.poll(() => picture.getAttribute('src'), { timeout: 15_000 }).not.toBe(first)
  await expectNoAxeViolations(page)
  // When the run ends, so does its live view.
  await expect(page.getByRole('main').getByText('Status: Succeeded')).toBeVisible({ timeout: 60_000 })
  await expect(live).toHaveCount(0)
})

test('a run that asks a person waits until the member types the code in its live view and presses Continue', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Takeover ${Date.now().toString(36)}`
  const steps = [
    { type: 'navigate', url: `${site.url}/code` },
    { type: 'askPerson', message: 'Type the code from the SMS, then press Verify' },
    { type: 'assertText', text: 'Verified' },
  ]
  await createAutomation(request, token, { name, steps }, server.url)

  await signIn(page, MEMBER, server.url)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  const waiting = page.getByRole('region', { name: 'Waiting for a person' })
  await expect(waiting).toContainText('Type the code from the SMS, then press Verify', { timeout: 30_000 })
  // The dashboard tells of it too, and leads back to it.
  const runUrl = page.url()
  await gotoHydrated(page, `${server.url}/dashboard`)
  const told = page.getByRole('region', { name: 'A run is waiting for a person' })
  await expect(told).toContainText('Type the code from the SMS, then press Verify')
  await told.getByRole('link', { name }).click()
  await expect(page).toHaveURL(runUrl)
  const picture = page.getByRole('region', { name: 'Live view' }).getByRole('img', { name: 'The run’s browser, live' })
  await expect(picture).toBeVisible({ timeout: 15_000 })
  await expectNoAxeViolations(page)

  // The picture is the page at a smaller scale: a click lands where the page has its field, then its button.
  const at = async (x: number, y: number) => {
    const box = await picture.boundingBox()
    if (!box) throw new Error('the picture has no box')
    await picture.click({ position: { x: (x / 1280) * box.width, y: (y / 800) * box.height } })
  }
  await at(200, 130)
  await expect(page.getByRole('status').filter({ hasText: 'Clicked at' })).toBeVisible()
  await page.getByLabel('Type into the page').fill(PERSON_CODE)
  await page.getByRole('button', { name: 'Type', exact: true }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Typed 4 characters.' })).toBeVisible()
  await at(200, 350)
  await expect(page.getByText(/clicked at \d+, 3\d\d in the live view/).first()).toBeVisible({ timeout: 15_000 })
  await waiting.getByRole('button', { name: 'Continue' }).click()

  await expect(page.getByRole('main').getByText('Status: Succeeded')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/typed 4 characters in the live view/).first()).toBeVisible()
})

test.describe('on the suite server, which allows public targets only', () => {
  test('a run against a private address is refused and touches nothing', async ({ page, request }) => {
    const account = { email: `private-${Date.now().toString(36)}@aether.test`, password: 'private-target-123' }
    const registered = await request.post('/api/auth/register', { data: account, headers: { 'X-Forwarded-For': '203.0.113.77' } })
    expect(registered.status()).toBe(201)
    const token = await apiToken(request, account)
    const before = site.hits.get('/form') ?? 0
    const name = `Intranet ${Date.now().toString(36)}`
    await createAutomation(request, token, { name, steps: formSteps(site.url) })

    await signIn(page, account)
    await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
    await expect(page.locator('[data-status="failed"]').first()).toBeVisible({ timeout: 60_000 })
    await expect(page.getByText(/Step 1 \(navigate\): the address 127\.0\.0\.1 is private/).first()).toBeVisible()
    expect(site.hits.get('/form') ?? 0).toBe(before)
  })
})
