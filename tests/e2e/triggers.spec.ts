import { startTestSite } from '../../server/testing/cloud-run-site.ts'
import { adminHeaders, apiToken, createAutomation } from './accounts.ts'
import { expect, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// Trigger URLs and run inputs through the UI (docs/decisions/027): a member on Business makes a
// trigger URL on the automation's page, another system starts a run with an input by POSTing to
// it, the member sees the input on the run page and runs it again with it, copies that run as an API
// request, then revokes the URL.
test.describe.configure({ mode: 'serial', timeout: 150_000 })

let site: Awaited<ReturnType<typeof startTestSite>>
let server: IsolatedServer
test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000)
  site = await startTestSite()
  // This server may reach loopback (the test's own form page).
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
  const token = await apiToken(request, MEMBER, server.url)
  const me = await request.get(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })
  const { data } = (await me.json()) as { data: { id: string } }
  const moved = await request.put(`${server.url}/api/users/${data.id}`, {
    data: { plan: 'business' },
    headers: await adminHeaders(request, server.url),
  })
  expect(moved.status(), await moved.text()).toBe(200)
})
test.afterAll(async () => {
  await server?.stop()
  await site?.close()
})

test('a trigger URL starts a run with its input; the member runs it again and revokes the URL', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Greet by trigger ${Date.now().toString(36)}`
  const id = await createAutomation(
    request,
    token,
    {
      name,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.name}}' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
        { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
        { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
      ],
    },
    server.url,
  )

  await signIn(page, MEMBER, server.url)
  await gotoHydrated(page, `${server.url}/dashboard/automations/${id}`)
  const card = page.getByRole('region', { name: 'Trigger URL' })
  await expect(card.getByText('Inputs it takes: name.')).toBeVisible()
  await expect(card.getByText('No trigger URL yet.')).toBeVisible()
  await card.getByRole('button', { name: 'Create trigger URL' }).click()
  await expect(toasts(page).getByText('Trigger URL ready')).toBeVisible()
  const url = await page.getByLabel('New trigger URL').inputValue()
  expect(url).toMatch(new RegExp(`/api/triggers/trg_[A-Za-z0-9_-]{32}$`))
  await expect(card.getByText(`A trigger URL ending in …${url.slice(-4)}`)).toBeVisible()

  // Another system: no session, just the URL.
  const fired = await request.post(url.replace(/^https?:\/\/[^/]+/, server.url), { data: { inputs: { name: 'Grace' } } })
  expect(fired.status(), await fired.text()).toBe(202)
  const run = ((await fired.json()) as { data: { id: string } }).data

  await gotoHydrated(page, `${server.url}/dashboard/runs/${run.id}`)
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 90_000 })
  await expect(page.getByText('Trigger URL', { exact: true })).toBeVisible()
  await expect(page.getByText('name: Grace')).toBeVisible()
  await expect(page.getByRole('table').filter({ hasText: 'result' })).toContainText('Thanks, Grace (free)')

  // Run again asks first: a cloud run costs a credit.
  await page.getByRole('button', { name: 'Run again with the same inputs in the cloud' }).click()
  const confirm = page.getByRole('dialog', { name: 'Run it again in the cloud?' })
  await expect(confirm).toContainText('A cloud run costs 1 credit; you have')
  await confirm.getByRole('button', { name: 'Run in the cloud (1 credit)' }).click()
  await expect(page).not.toHaveURL(`${server.url}/dashboard/runs/${run.id}`)
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.getByText('name: Grace')).toBeVisible()
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 90_000 })

  // The run as an API request: what the member's own code would send, the key a placeholder.
  const apiRequest = page.getByRole('region', { name: 'API request', exact: true })
  await expect(apiRequest.getByLabel('curl command')).toContainText(`${server.url}/api/automations/${id}/runs`)
  await expect(apiRequest.getByLabel('curl command')).toContainText('"inputs":{"name":"Grace"}')
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  await apiRequest.getByRole('button', { name: 'Copy as API request' }).click()
  await expect(toasts(page).getByText('API request copied')).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain("-H 'Authorization: Bearer YOUR_API_KEY'")
  expect(copied).toContain(`-d '{"where":"cloud","inputs":{"name":"Grace"}}'`)

  await gotoHydrated(page, `${server.url}/dashboard/automations/${id}`)
  await card.getByRole('button', { name: 'Revoke' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(toasts(page).getByText('Trigger URL revoked')).toBeVisible()
  await expect(card.getByText('No trigger URL yet.')).toBeVisible()
  const refused = await request.post(url.replace(/^https?:\/\/[^/]+/, server.url), { data: { inputs: { name: 'Grace' } } })
  expect(refused.status()).toBe(401)
})

test('Run in cloud asks for the inputs an automation takes, and the run uses them', async ({ page, request }) => {
  const token = await apiToken(request, MEMBER, server.url)
  const name = `Greet from the dashboard ${Date.now().toString(36)}`
  await createAutomation(
    request,
    token,
    {
      name,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.name}}' },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
        { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
        { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
      ],
    },
    server.url,
  )
  await signIn(page, MEMBER, server.url)
  await page.getByRole('button', { name: `Run in cloud: ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: `Run ${name}` })
  await dialog.getByLabel('name').fill('Hedy')
  await dialog.getByRole('button', { name: 'Run in cloud' }).click()
  await expect(page).toHaveURL(new RegExp(`${server.url}/dashboard/runs/[0-9a-f-]{36}$`))
  await expect(page.getByText('name: Hedy')).toBeVisible()
  await expect(page.getByRole('main').getByText('Status: Succeeded')).toBeVisible({ timeout: 90_000 })
  await expect(page.getByRole('table').filter({ hasText: 'result' })).toContainText('Thanks, Hedy')
})
