import type { Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import { createAccount, latestMail } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// A member's own data (docs/decisions/065): the export, built in the background and mailed as a
// link that downloads a zip; and deleting the account with the password, which signs them out,
// until signing in again cancels the deletion. A fresh account per test.
test.describe.configure({ timeout: 90_000 })

test('a member asks for their data, and the e-mailed link downloads a zip with data.json', async ({ page, request }) => {
  const member = await createAccount(request, 'export')
  await signIn(page, member)
  await gotoHydrated(page, '/settings')
  const card = page.locator('#data-export')
  await expect(card.getByRole('heading', { name: 'Download my data' })).toBeVisible()
  await card.getByRole('button', { name: 'Request my data' }).click()
  await expect(toasts(page).getByText('Data export requested')).toBeVisible()
  await expect(card).toContainText(/Your export is being prepared|Ready/)

  // The worker builds it and mails the link (it looks every 15 s, and at once in its own process).
  let text = ''
  await expect(async () => {
    text = (await latestMail(member.email, 'Your Aether data export is ready')).text
  }).toPass({ timeout: 40_000 })
  const link = text.match(/https?:\/\/\S+\/settings\/data-export\/\S+/)?.[0]
  expect(link, text).toBeTruthy()
  const { pathname, search } = new URL(link ?? '')

  // The link works in the member's signed-in browser: a zip with their data.
  const response = await page.request.get(`${pathname}${search}`)
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('application/zip')
  const zip = unzipSync(new Uint8Array(await response.body()))
  expect(Object.keys(zip)).toContain('data.json')
  const data = JSON.parse(strFromU8(zip['data.json']!)) as { account: { email: string } }
  expect(data.account.email).toBe(member.email)

  // Settings lists it, with its expiry and the same download.
  await gotoHydrated(page, '/settings')
  await expect(card).toContainText('The link works until')
  await expect(card.getByRole('link', { name: 'Download your data (zip)' })).toBeVisible()
  await expectNoAxeViolations(page)

  // Signed out, the link first asks who you are, then downloads.
  await page.context().clearCookies()
  await gotoHydrated(page, `${pathname}${search}`)
  await expect(page).toHaveURL(/\/auth\?returnTo=/)
  await page.getByLabel('Email').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  expect((await downloading).suggestedFilename()).toMatch(/^aether-data-\d{4}-\d{2}-\d{2}\.zip$/)
})

test('a member deletes their account with the password, is signed out, and signing in again cancels the deletion', async ({
  page,
  request,
  consoleErrors,
}) => {
  // The wrong password's answer is 400 (the form then says why).
  consoleErrors.allow(/status of 400/)
  const member = await createAccount(request, 'leaving')
  await signIn(page, member)
  await gotoHydrated(page, '/settings')
  const zone = page.getByRole('form', { name: 'Delete my account' })
  await expect(page.getByRole('heading', { name: 'Danger zone: delete my account' })).toBeVisible()

  await zone.getByLabel('Password').fill('not-my-password')
  await zone.getByRole('button', { name: 'Delete my account' }).click()
  await expect(zone.getByText('Password is incorrect.')).toBeVisible()

  await zone.getByLabel('Password').fill(member.password)
  await zone.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page).toHaveURL(/\/auth$/)
  await expect(toasts(page).getByText(/^Your account will be deleted on /)).toBeVisible()
  const scheduled = await latestMail(member.email, 'Your Aether account will be deleted on ' + (await deletionDay(page)))
  expect(scheduled.text).toContain('Sign in before then and the deletion is cancelled')

  // Signed out everywhere: the member area sends the browser to sign in.
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/auth/)

  // Signing in within the grace period cancels the deletion, and says so.
  await gotoHydrated(page, '/auth')
  await page.getByLabel('Email').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL('/dashboard')
  await expect(toasts(page).getByText('Account deletion cancelled')).toBeVisible()
  await latestMail(member.email, 'Your Aether account will not be deleted')
})

/** The day the toast names ("Your account will be deleted on December 18, 2026"). */
async function deletionDay(page: Page): Promise<string> {
  const title = await toasts(page)
    .getByText(/^Your account will be deleted on /)
    .textContent()
  return (title ?? '').replace('Your account will be deleted on ', '').trim()
}
