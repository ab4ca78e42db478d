import type { APIRequestContext, Page } from '@playwright/test'
import { adminHeaders, apiToken, createAccount, latestMail, linkIn } from './accounts.ts'
import { BASE_URL, expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// A local runner runs what its owner saved or approved (docs/decisions/032, amended): the owner
// of a team connects a runner and sets an automation to run on it; a colleague changes the
// automation; the colleague's builder offers only their own runners (the owner's shown as not
// theirs) and says whom the automation waits for; the owner approves the new version on its page.
test.describe.configure({ timeout: 90_000 })

let clients = 0
const asClient = () => ({ 'X-Forwarded-For': `192.0.2.${(clients++ % 250) + 1}` })

async function idOf(request: APIRequestContext, token: string): Promise<string> {
  const me = await request.get(`${BASE_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })
  return ((await me.json()) as { data: { id: string } }).data.id
}

/** A local runner of the signed-in member, connected as `aether-runner pair` does: it asks, they approve on /connect, it collects its token. */
async function connectRunner(page: Page, request: APIRequestContext, name: string): Promise<{ token: string; device: { id: string } }> {
  const asked = await request.post(`${BASE_URL}/api/devices/pairings`, {
    data: { name, kind: 'runner', version: '0.1.0' },
    headers: asClient(),
  })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await gotoHydrated(page, `/connect?code=${pairing.userCode}`)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  const collected = await request.post(`${BASE_URL}/api/devices/pairings/${pairing.pairingId}/token`, {
    data: { pollSecret: pairing.pollSecret },
    headers: asClient(),
  })
  return ((await collected.json()) as { data: { token: string; device: { id: string } } }).data
}

test('a colleague’s change waits for the runner owner’s approval, which they give on the automation’s page', async ({
  browser,
  request,
}) => {
  const owner = await createAccount(request, 'runner-owner')
  const colleague = await createAccount(request, 'runner-colleague')
  const ownerToken = await apiToken(request, owner)
  const colleagueToken = await apiToken(request, colleague)
  const upgraded = await request.put(`${BASE_URL}/api/users/${await idOf(request, ownerToken)}`, {
    headers: await adminHeaders(request),
    data: { plan: 'business' },
  })
  expect(upgraded.status()).toBe(200)

  // The owner makes the team in the app (so their session works in it) and invites the colleague.
  const ownerPage = await (await browser.newContext()).newPage()
  await signIn(ownerPage, owner)
  await gotoHydrated(ownerPage, '/workspace')
  await ownerPage.getByLabel('Workspace name').fill('Night shift')
  await ownerPage.getByRole('button', { name: 'Create workspace' }).click()
  await expect(ownerPage.getByRole('heading', { name: 'Night shift', level: 1 })).toBeVisible()
  const teams = (await (
    await request.get(`${BASE_URL}/api/workspaces`, { headers: { Authorization: `Bearer ${ownerToken}` } })
  ).json()) as {
    data: { id: string; name: string }[]
  }
  const teamId = teams.data.find((workspace) => workspace.name === 'Night shift')?.id ?? ''
  const inTeam = (token: string) => ({ Authorization: `Bearer ${token}`, 'X-Workspace-Id': teamId })
  const invited = await request.post(`${BASE_URL}/api/workspaces/current/invitations`, {
    headers: inTeam(ownerToken),
    data: { email: colleague.email, role: 'member' },
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const mail = await latestMail(colleague.email, `${owner.email} invited you to Night shift on Aether`)
  const token = decodeURIComponent(new URL(`${BASE_URL}${linkIn(mail.text, '/invitations/accept')}`).searchParams.get('token') ?? '')
  const accepted = await request.post(`${BASE_URL}/api/workspaces/invitations/accept`, {
    headers: { Authorization: `Bearer ${colleagueToken}` },
    data: { token },
  })
  expect(accepted.status(), await accepted.text()).toBe(200)

  // The owner connects a local runner to the team (as `npm run runner -- pair` does).
  const asked = await request.post(`${BASE_URL}/api/devices/pairings`, {
    data: { name: 'Office PC', kind: 'runner', version: '0.1.0' },
    headers: asClient(),
  })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await gotoHydrated(ownerPage, `/connect?code=${pairing.userCode}`)
  await ownerPage.getByLabel('Workspace').selectOption({ label: 'Night shift (0 of 1 device)' })
  await ownerPage.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(ownerPage.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  const collected = await request.post(`${BASE_URL}/api/devices/pairings/${pairing.pairingId}/token`, {
    data: { pollSecret: pairing.pollSecret },
    headers: asClient(),
  })
  const runnerId = ((await collected.json()) as { data: { device: { id: string } } }).data.device.id

  const created = await request.post(`${BASE_URL}/api/automations`, {
    headers: inTeam(ownerToken),
    data: {
      name: 'Intranet report',
      schedule: '0 2 * * *',
      deviceId: runnerId,
      steps: [{ type: 'navigate', url: 'https://example.com/' }],
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const changed = await request.put(`${BASE_URL}/api/automations/${automationId}`, {
    headers: inTeam(colleagueToken),
    data: { steps: [{ type: 'navigate', url: 'https://example.com/reports' }] },
  })
  expect(changed.status(), await changed.text()).toBe(200)

  // The colleague's builder: the owner's runner shown for what it is, and whom the automation waits for.
  const colleaguePage = await (await browser.newContext()).newPage()
  await signIn(colleaguePage, colleague)
  await gotoHydrated(colleaguePage, '/dashboard')
  // Choosing posts the switch in the background: the next page is asked for once the server has stored it.
  await Promise.all([
    colleaguePage.waitForResponse((response) => response.url().includes('/workspace/switch') && response.request().method() === 'POST'),
    colleaguePage.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Night shift' }),
  ])
  await expect(colleaguePage.getByLabel('Workspace', { exact: true }).locator('option:checked')).toHaveText('Night shift')
  await gotoHydrated(colleaguePage, `/dashboard/automations/${automationId}`)
  const runs = colleaguePage.getByLabel('Scheduled runs run')
  await expect(runs.locator('option:checked')).toHaveText(`On ${owner.email}'s local runner “Office PC” (only they can choose it)`)
  const card = colleaguePage.getByRole('region', { name: 'Local runner' })
  await expect(card).toContainText(
    `Scheduled runs are refused on ${owner.email}'s local runner “Office PC” until they approve version 2 on this page.`,
  )
  await expect(card.getByRole('button')).toHaveCount(0)

  // The owner approves it on the automation's page.
  await gotoHydrated(ownerPage, `/dashboard/automations/${automationId}`)
  const ownerCard = ownerPage.getByRole('region', { name: 'Local runner' })
  await expect(ownerCard.getByRole('alert')).toContainText(
    'Version 2 was not saved by you: its scheduled runs are refused on your local runner “Office PC” until you approve it.',
  )
  await expectNoAxeViolations(ownerPage)
  await ownerCard.getByRole('button', { name: 'Approve version 2 on “Office PC”' }).click()
  await expect(toasts(ownerPage).getByText('Approved')).toBeVisible()
  await expect(ownerCard).toContainText('Scheduled runs run on your local runner “Office PC”: version 2 is approved by you.')
  const automation = await request.get(`${BASE_URL}/api/automations/${automationId}`, { headers: inTeam(colleagueToken) })
  expect(((await automation.json()) as { data: { deviceApprovedVersion: number } }).data.deviceApprovedVersion).toBe(2)
})

test('a runner that disconnects pauses its schedule, flagged on the dashboard, until the member chooses the cloud or another runner', async ({
  page,
  request,
}) => {
  const member = await createAccount(request, 'runner-gone')
  const memberToken = await apiToken(request, member)
  await signIn(page, member)

  // A runner connected as `npm run runner -- pair` does, and a schedule set to run on it.
  const runner = await connectRunner(page, request, 'Home PC')
  const created = await request.post(`${BASE_URL}/api/automations`, {
    headers: { Authorization: `Bearer ${memberToken}` },
    data: {
      name: 'Home report',
      schedule: '0 2 * * *',
      deviceId: runner.device.id,
      steps: [{ type: 'navigate', url: 'https://example.com/' }],
    },
  })
  expect(created.status(), await created.text()).toBe(201)

  // The runner disconnects itself (its `forget`).
  const forgotten = await request.delete(`${BASE_URL}/api/devices/me`, { headers: { Authorization: `Bearer ${runner.token}` } })
  expect(forgotten.status()).toBe(200)

  await gotoHydrated(page, '/dashboard')
  const flag = page.getByRole('note').filter({ hasText: 'Paused: its local runner “Home PC” was disconnected.' })
  await expect(flag).toBeVisible()
  // Resuming waits for that choice: the flag's link is the way.
  await expect(page.getByRole('button', { name: 'Resume the schedule of Home report' })).toHaveCount(0)
  await flag.getByRole('link', { name: 'Choose a runner or the cloud' }).click()
  const runs = page.getByLabel('Scheduled runs run')
  await expect(runs.locator('option:checked')).toHaveText('On “Home PC”, disconnected: choose another runner or the cloud')
  await runs.selectOption({ label: 'In the cloud (1 credit each)' })
  await page.getByRole('button', { name: 'Save Automation' }).click()
  await expect(toasts(page).getByText('Automation saved')).toBeVisible()
  await gotoHydrated(page, '/dashboard')
  await expect(page.getByRole('note').filter({ hasText: 'was disconnected' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Resume the schedule of Home report' })).toBeVisible()
})

test('"Run on" queues a run for the member’s own runner from the dashboard, and Run again runs it there again', async ({
  page,
  request,
}) => {
  const member = await createAccount(request, 'runner-now')
  const memberToken = await apiToken(request, member)
  await signIn(page, member)
  const runner = { Authorization: `Bearer ${(await connectRunner(page, request, 'Desk PC')).token}` }
  const created = await request.post(`${BASE_URL}/api/automations`, {
    headers: { Authorization: `Bearer ${memberToken}` },
    data: { name: 'Desk check', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  })
  expect(created.status(), await created.text()).toBe(201)

  await gotoHydrated(page, '/dashboard')
  await page.getByRole('button', { name: 'Run Desk check on “Desk PC”' }).click()
  await expect(page).toHaveURL(/\/dashboard\/runs\/[0-9a-f-]{36}$/)
  await expect(toasts(page).getByText('Run queued')).toBeVisible()
  await expect(page.getByText('Queued for the local runner “Desk PC”.')).toBeVisible()

  // The runner takes it up and reports it (as `serve` does).
  const claimed = await request.post(`${BASE_URL}/api/runs/claim`, { headers: runner, data: {} })
  const runId = ((await claimed.json()) as { data: { id: string } }).data.id
  expect(page.url()).toContain(runId)
  const finished = await request.post(`${BASE_URL}/api/runs/${runId}/finish`, { headers: runner, data: { status: 'succeeded' } })
  expect(finished.status()).toBe(200)
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible()

  // Run again runs where it ran: on the runner, without a word about credits.
  await page.getByRole('button', { name: 'Run again on “Desk PC”' }).click()
  await expect(page).not.toHaveURL(new RegExp(runId))
  await expect(page.getByText('Queued for the local runner “Desk PC”.')).toBeVisible()
})
