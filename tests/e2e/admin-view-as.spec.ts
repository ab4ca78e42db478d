import type { Page } from '@playwright/test'
import { adminHeaders, createAccount } from './accounts.ts'
import { expect, gotoHydrated, signInAsAdmin, test, toastWith } from './fixtures.ts'

// Viewing the app as a member from the Users table (docs/decisions/064): with a reason, the
// member's dashboard under a banner, a change refused by the server, "End viewing" back to /admin,
// and both ends in the audit log. The member is a fresh account per test.
test.describe.configure({ timeout: 90_000 })

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const REASON = 'Ticket 812: their billing page shows the wrong plan'

test('the admin views the app as a member, read-only, ends it and finds both entries in the audit log', async ({
  page,
  request,
  consoleErrors,
}) => {
  // The refused change answers 403 (the page then says why).
  consoleErrors.allow(/status of 403/)
  const member = await createAccount(request, 'viewed')
  await signInAsAdmin(page)
  await gotoHydrated(page, `/admin?search=${encodeURIComponent(member.email)}`)

  await row(page, member.email)
    .getByRole('button', { name: `View as ${member.email}` })
    .click()
  const dialog = page.getByRole('dialog', { name: `View as ${member.email}?` })
  await expect(dialog).toContainText('read-only')
  await dialog.getByLabel('Reason').fill(REASON)
  await dialog.getByRole('button', { name: 'View as Member' }).click()

  // The member's dashboard, under the banner; their menu has no Admin Panel.
  await expect(page).toHaveURL('/dashboard')
  await expect(page.getByRole('heading', { name: 'Automation History' })).toBeVisible()
  const banner = page.getByRole('region', { name: 'Viewing as a member' })
  await expect(banner.getByRole('status')).toHaveText(
    new RegExp(`^You are viewing .+ as ${member.email.replace(/[.+]/g, '\\$&')}, read-only\\. Ends at \\d{2}:\\d{2} UTC\\.$`),
  )
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0)

  // A change is refused by the server, and the page says why; the banner stays.
  await gotoHydrated(page, '/settings')
  await page.getByLabel('Full Name').fill('Changed by support')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByRole('heading', { name: 'Read-only' })).toBeVisible()
  await expect(page.getByText(`Read-only: you are viewing as ${member.email}. End viewing to make changes.`)).toBeVisible()
  // The admin area is closed to the member they are now.
  await gotoHydrated(page, '/admin')
  await expect(page).toHaveURL('/dashboard')

  await banner.getByRole('button', { name: 'End viewing' }).click()
  await expect(page).toHaveURL('/admin')
  await expect(toastWith(page, 'Viewing ended', `You stopped viewing as ${member.email}`)).toBeVisible()
  await expect(banner).toBeHidden()
  await expect(page.getByRole('region', { name: 'Users Management' })).toBeVisible()

  await gotoHydrated(page, '/admin/settings')
  const audit = page.getByRole('region', { name: 'System Settings' })
  await expect(
    audit.getByText(new RegExp(`Viewed Aether as ${member.email.replace(/[.+]/g, '\\$&')} until \\d{2}:\\d{2} UTC: ${REASON}`)),
  ).toBeVisible()
  await expect(audit.getByText(`Stopped viewing Aether as ${member.email}: ended by the admin`)).toBeVisible()

  // Nothing of theirs changed.
  const found = await request.get(`/api/users?search=${encodeURIComponent(member.email)}`, { headers: await adminHeaders(request) })
  const [listed] = ((await found.json()) as { data: { profile: { fullName: string | null } }[] }).data
  expect(listed?.profile.fullName).toBe('Test Member')
})
