import { apiToken, createAccount } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, signInAsAdmin, test, toasts } from './fixtures.ts'

test.describe('API keys', () => {
  test('a member creates a key in Settings, sees it once, uses it, then revokes it', async ({ page, request }) => {
    const account = await createAccount(request, 'keys')
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    const card = page.locator('#api-keys')
    await expect(card.getByRole('heading', { name: 'API Keys' })).toBeVisible()
    await expect(card.getByText('You have no API keys yet.')).toBeVisible()

    // The name is required, in the browser and on the server.
    await card.getByRole('button', { name: 'Create Key' }).click()
    await expect(card.getByText('Name is required')).toBeVisible()

    await card.getByLabel('Key Name').fill('E2E script')
    await card.getByRole('button', { name: 'Create Key' }).click()
    await expect(toasts(page).getByText('API key created')).toBeVisible()
    await expect(card.getByText("You won't see this key again.", { exact: false })).toBeVisible()
    const key = await card.getByLabel('New API key').inputValue()
    expect(key).toMatch(/^ak_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/)
    const keys = card.getByRole('list', { name: 'Your API keys' })
    const row = keys.getByRole('listitem').filter({ hasText: 'E2E script' })
    await expect(row.getByText(`${key.slice(0, 11)}_...`)).toBeVisible()
    await expect(row.getByText('Last used Never', { exact: false })).toBeVisible()
    await expectNoAxeViolations(page)

    // The key works on the API as this member, and only as them.
    const headers = { Authorization: `Bearer ${key}` }
    const me = await request.get('/api/auth/me', { headers })
    expect(me.status()).toBe(200)
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(account.email)
    // It cannot mint keys (a leaked key must not take over the account): the API refuses, and a page
    // does not take a key as a sign-in at all (to sign in first).
    expect((await request.post('/api/keys', { headers, data: { name: 'Sneaky' } })).status()).toBe(403)
    const settingsPost = await request.post('/settings', { headers, form: { intent: 'create-api-key', name: 'Sneaky' }, maxRedirects: 0 })
    expect(settingsPost.status()).toBe(302)
    expect(settingsPost.headers()['location']).toBe('/auth')

    // Shown once: after a reload only its prefix remains, and it has been used.
    await gotoHydrated(page, '/settings')
    await expect(card.getByLabel('New API key')).toBeHidden()
    await expect(page.getByText(key)).toBeHidden()
    await expect(row.getByText('Last used Never', { exact: false })).toBeHidden()
    await expect(keys.getByRole('listitem')).toHaveCount(1)

    await row.getByRole('button', { name: 'Revoke E2E script' }).click()
    const dialog = page.getByRole('dialog', { name: 'Revoke "E2E script"?' })
    await expect(dialog.getByText('Anything using this key stops working at once.', { exact: false })).toBeVisible()
    await dialog.getByRole('button', { name: 'Revoke Key' }).click()
    await expect(toasts(page).getByText('API key revoked')).toBeVisible()
    await expect(row.getByText('Revoked')).toBeVisible()
    await expect(row.getByRole('button', { name: 'Revoke E2E script' })).toBeHidden()

    expect((await request.get('/api/auth/me', { headers })).status()).toBe(401)
  })

  test('an admin gives a key the admin:read scope; it reads users but can never reset a password', async ({ page, request }) => {
    await signInAsAdmin(page)
    await gotoHydrated(page, '/settings')
    const card = page.locator('#api-keys')
    const name = `Reporting ${Date.now().toString(36)}`
    await card.getByLabel('Key Name').fill(name)
    await expect(card.getByRole('checkbox', { name: /^automations/ })).toBeChecked()
    await card.getByRole('checkbox', { name: /^admin:read/ }).check()
    await card.getByRole('button', { name: 'Create Key' }).click()
    await expect(toasts(page).getByText('API key created')).toBeVisible()
    const key = await card.getByLabel('New API key').inputValue()
    const row = card.getByRole('listitem').filter({ hasText: name })
    await expect(row.getByText('automations, admin:read', { exact: false })).toBeVisible()

    const headers = { Authorization: `Bearer ${key}` }
    expect((await request.get('/api/users?limit=1', { headers })).status()).toBe(200)
    const me = (await (await request.get('/api/auth/me', { headers })).json()) as { data: { id: string } }
    const takeover = await request.post(`/api/users/${me.data.id}/reset-password`, { headers, data: { newPassword: 'taken-over-123' } })
    expect(takeover.status()).toBe(403)
    expect((await request.post('/api/blog', { headers, data: { title: 'Needs admin:content' } })).status()).toBe(403)

    await row.getByRole('button', { name: `Revoke ${name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke Key' }).click()
    await expect(row.getByText('Revoked')).toBeVisible()
  })

  test('a member sees no admin scopes; changing the password revokes their keys unless they untick it', async ({ page, request }) => {
    const account = await createAccount(request, 'keys-password')
    const token = await apiToken(request, account)
    const made = await request.post('/api/keys', { headers: { Authorization: `Bearer ${token}` }, data: { name: 'Laptop script' } })
    const { key } = ((await made.json()) as { data: { key: string } }).data
    await signIn(page, account)
    await gotoHydrated(page, '/settings')
    await expect(page.locator('#api-keys').getByRole('checkbox')).toHaveCount(0)

    const security = page.locator('#security')
    await security.getByLabel('Current Password').fill(account.password)
    await security.getByLabel('New Password').fill('a-brand-new-password-1')
    await expect(security.getByRole('checkbox', { name: 'Also revoke all API keys and devices' })).toBeChecked()
    await security.getByRole('button', { name: 'Change Password' }).click()
    await expect(toasts(page).getByText('Your other sessions were signed out and your API key was revoked.')).toBeVisible()
    expect((await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(401)
  })
})
