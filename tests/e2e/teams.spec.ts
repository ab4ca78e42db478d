import { adminHeaders, apiToken, createAccount, latestMail, linkIn } from './accounts.ts'
import { BASE_URL, expect, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// A Business subscriber builds a team: creates the workspace, invites a colleague by e-mail, the
// colleague joins from the mail's link and runs a shared automation; the owner changes their
// role and removes them; the activity page shows each step.

test('create a team, invite, accept from the mail, share an automation, change the role, remove; activity shows it all', async ({
  browser,
  request,
}) => {
  // Two people in two browsers through a dozen pages: about 25 s on a quiet machine, more on CI.
  test.setTimeout(90_000)
  const owner = await createAccount(request, 'owner')
  const colleague = await createAccount(request, 'colleague')
  const ownerToken = await apiToken(request, owner)
  const me = (await (await request.get(`${BASE_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${ownerToken}` } })).json()) as {
    data: { id: string }
  }
  const upgraded = await request.put(`${BASE_URL}/api/users/${me.data.id}`, {
    headers: await adminHeaders(request),
    data: { plan: 'business' },
  })
  expect(upgraded.status()).toBe(200)

  const ownerPage = await (await browser.newContext()).newPage()
  await signIn(ownerPage, owner)
  await gotoHydrated(ownerPage, '/workspace')
  await ownerPage.getByLabel('Workspace name').fill('Ops team')
  await ownerPage.getByRole('button', { name: 'Create workspace' }).click()
  await expect(ownerPage.getByRole('heading', { name: 'Ops team', level: 1 })).toBeVisible()
  await expect(ownerPage.getByLabel('Workspace', { exact: true }).locator('option:checked')).toHaveText('Ops team')

  await ownerPage.getByLabel('Email').fill(colleague.email)
  await ownerPage.getByLabel('Role', { exact: true }).selectOption('member')
  await ownerPage.getByRole('button', { name: 'Send invitation' }).click()
  await expect(toasts(ownerPage).getByText('Invitation sent')).toBeVisible()
  await expect(ownerPage.getByRole('list', { name: 'Pending invitations' })).toContainText(colleague.email)

  // The owner's automation in the team, through the API with the workspace named.
  const teams = (await (
    await request.get(`${BASE_URL}/api/workspaces`, { headers: { Authorization: `Bearer ${ownerToken}` } })
  ).json()) as {
    data: { id: string; name: string }[]
  }
  const team = teams.data.find((workspace) => workspace.name === 'Ops team')
  expect(team).toBeTruthy()
  const created = await request.post(`${BASE_URL}/api/automations`, {
    headers: { Authorization: `Bearer ${ownerToken}`, 'X-Workspace-Id': team?.id ?? '' },
    data: { name: 'Shared price check', steps: [{ type: 'navigate', url: 'https://example.com' }] },
  })
  expect(created.status()).toBe(201)

  const mail = await latestMail(colleague.email, `${owner.email} invited you to Ops team on Aether`)
  const colleaguePage = await (await browser.newContext()).newPage()
  await signIn(colleaguePage, colleague)
  await gotoHydrated(colleaguePage, linkIn(mail.text, '/invitations/accept'))
  await expect(colleaguePage.getByText(`invited ${colleague.email} to work in Ops team`)).toBeVisible()
  await colleaguePage.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(colleaguePage).toHaveURL(/\/dashboard$/)
  await expect(toasts(colleaguePage).getByText('Welcome to the team')).toBeVisible()
  await expect(colleaguePage.getByRole('link', { name: 'Shared price check' }).first()).toBeVisible()
  // The link works once.
  await gotoHydrated(colleaguePage, linkIn(mail.text, '/invitations/accept'))
  await expect(colleaguePage.getByText('It was already used.')).toBeVisible()
  // The colleague runs the shared automation as the extension does: through the API, in the team.
  const colleagueToken = await apiToken(request, colleague)
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const started = await request.post(`${BASE_URL}/api/automations/${automationId}/runs`, {
    headers: { Authorization: `Bearer ${colleagueToken}`, 'X-Workspace-Id': team?.id ?? '' },
    data: { where: 'client' },
  })
  expect(started.status()).toBe(201)
  await gotoHydrated(colleaguePage, '/dashboard')
  await expect(colleaguePage.getByRole('table', { name: /Automation History/ })).toContainText('Shared price check')

  await gotoHydrated(ownerPage, '/workspace')
  const row = ownerPage.locator(`[data-member="${colleague.email}"]`)
  await row.getByLabel(`Role of ${colleague.email}`).selectOption('viewer')
  await row.getByRole('button', { name: 'Change role' }).click()
  await expect(toasts(ownerPage).getByText('Role changed')).toBeVisible()
  // As a viewer the colleague sees the team's automations, without the buttons that change or run them.
  await gotoHydrated(colleaguePage, '/dashboard')
  await expect(colleaguePage.getByText('You are a viewer in this workspace')).toBeVisible()
  await expect(colleaguePage.getByRole('button', { name: 'Run in cloud: Shared price check' })).toBeHidden()
  await expect(colleaguePage.getByRole('link', { name: 'Create New Automation' })).toHaveCount(0)
  await row.getByRole('button', { name: 'Remove' }).click()
  await ownerPage.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(toasts(ownerPage).getByText('Removed from the workspace')).toBeVisible()
  await expect(ownerPage.locator(`[data-member="${colleague.email}"]`)).toHaveCount(0)

  await gotoHydrated(ownerPage, '/workspace/activity')
  const activity = ownerPage.getByRole('list', { name: 'Activity' })
  for (const line of [
    'Created the workspace Ops team',
    `Invited ${colleague.email} as Member`,
    'Created Shared price check',
    `${colleague.email} joined as Member`,
    'Ran Shared price check in the extension',
    'role from Member to Viewer',
    'from the workspace',
  ]) {
    await expect(activity).toContainText(line)
  }
})
