import type { APIRequestContext, Page } from '@playwright/test'
import { adminHeaders, apiToken, createAccount } from './accounts.ts'
import {
  expect,
  expectNoAxeViolations,
  gotoHydrated,
  signIn,
  signInAsAdmin,
  test,
  toasts,
  toastWith,
  type Credentials,
} from './fixtures.ts'

// Suspending a member from the Users table (docs/decisions/062) and reading their timeline. The
// member is a fresh account per test, with a session of their own in a second browser and an API key.
test.describe.configure({ timeout: 90_000 })

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

async function apiKeyOf(request: APIRequestContext, account: Credentials): Promise<string> {
  const response = await request.post('/api/keys', {
    data: { name: 'Nightly script' },
    headers: { Authorization: `Bearer ${await apiToken(request, account)}` },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { key: string } }).data.key
}

const automationsWith = (request: APIRequestContext, key: string) =>
  request.get('/api/automations', { headers: { Authorization: `Bearer ${key}` } })

test('the admin suspends a member with a reason: their open session ends, the audit log says why, and unsuspending restores them', async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  // The member's refused sign-in answers 403 (the page then shows why).
  consoleErrors.allow(/status of 403/)
  const member = await createAccount(request, 'suspended')
  const key = await apiKeyOf(request, member)
  const theirs = await browser.newContext()
  const memberPage = await theirs.newPage()
  try {
    await signIn(memberPage, member)
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(member.email)}`)
    const line = row(page, member.email)

    // From the keyboard: the row's Suspend button opens the dialog, which asks for the reason.
    await line.getByRole('button', { name: `Suspend ${member.email}` }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: `Suspend ${member.email}?` })
    await expect(dialog).toContainText('their API keys, connected devices, trigger URLs and schedules are refused')
    await dialog.getByLabel('Reason').fill('Card testing from this account')
    await dialog.getByRole('button', { name: 'Suspend User' }).focus()
    await page.keyboard.press('Enter')
    // Two sessions: the browser's, and the one the key was made with.
    await expect(toastWith(page, 'User suspended', '2 sessions ended, 0 runs stopped.')).toBeVisible()
    await expect(dialog).toBeHidden()
    await expect(line.getByText('Suspended', { exact: true })).toBeVisible()
    await expect(line).toContainText('Card testing from this account')

    // Their open page is signed out at its next request, their key is refused, and signing in says why.
    await memberPage.goto('/dashboard')
    await expect(memberPage).toHaveURL(/\/auth/)
    const refused = await automationsWith(request, key)
    expect(refused.status()).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: 'This account is suspended.' })
    await gotoHydrated(memberPage, '/auth')
    await memberPage.getByLabel('Email').fill(member.email)
    await memberPage.getByLabel('Password').fill(member.password)
    await memberPage.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(toasts(memberPage).getByText('This account is suspended.')).toBeVisible()
    await expect(memberPage).toHaveURL(/\/auth/)

    await gotoHydrated(page, '/admin/settings')
    const audit = page.getByRole('region', { name: 'System Settings' })
    await expect(
      audit.getByText(`Suspended ${member.email}: Card testing from this account (2 sessions ended, 0 runs stopped)`),
    ).toBeVisible()

    // Unsuspended: the same key works again and they sign in.
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(member.email)}`)
    await line.getByRole('button', { name: `Unsuspend ${member.email}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Unsuspend', exact: true }).click()
    await expect(toasts(page).getByText('User unsuspended')).toBeVisible()
    await expect(line.getByText('Suspended', { exact: true })).toBeHidden()
    expect((await automationsWith(request, key)).status()).toBe(200)
    await signIn(memberPage, member)
    await gotoHydrated(page, '/admin/settings')
    await expect(audit.getByText(`Unsuspended ${member.email}`)).toBeVisible()
  } finally {
    await theirs.close()
  }
})

test('the admin opens a member’s timeline from the Users table, on a phone too', async ({ page, request }) => {
  const member = await createAccount(request, 'followed')
  await apiToken(request, member)
  const headers = await adminHeaders(request)
  const found = await request.get(`/api/users?search=${encodeURIComponent(member.email)}`, { headers })
  const id = ((await found.json()) as { data: { id: string }[] }).data[0]?.id
  const changed = await request.put(`/api/users/${id}`, { data: { credits: 7 }, headers })
  expect(changed.status()).toBe(200)

  await page.setViewportSize({ width: 390, height: 844 })
  await signInAsAdmin(page)
  await gotoHydrated(page, `/admin?search=${encodeURIComponent(member.email)}`)
  // The stacked row keeps its actions; the link opens from the keyboard.
  await expect(row(page, member.email).getByRole('button', { name: `Suspend ${member.email}` })).toBeVisible()
  await row(page, member.email)
    .getByRole('link', { name: `Timeline of ${member.email}` })
    .focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(`/admin/users/${id}`)
  await expect(page.getByRole('heading', { name: `Timeline of ${member.email}` })).toBeVisible()
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' })
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Sign-in' }).first()).toContainText('Signed in')
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Admin action' })).toContainText(`Changed ${member.email}: credits`)
  // Newest first: the admin's change came after the sign-in.
  await expect(timeline.getByRole('listitem').first()).toContainText('Admin action')
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await expectNoAxeViolations(page)
})
