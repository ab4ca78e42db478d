import { apiToken, createAccount } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts } from './fixtures.ts'

// The credential vault through the UI (docs/decisions/025): a value saved is never shown again,
// replaced and deleted with a confirmation; the API lists the name and never the value.

test.describe('Vault', () => {
  test('a member adds a secret, replaces its value and deletes it; the value never comes back', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const account = await createAccount(request, 'vault')
    await signIn(page, account)
    await gotoHydrated(page, '/workspace/vault')
    await expect(page.getByRole('heading', { name: 'Vault', level: 1 })).toBeVisible()
    await expect(page.getByText('The vault is empty.')).toBeVisible()

    const value = 'e2e-Planted-Secret-7731'
    await page.getByLabel('Name').fill('shop_password')
    await page.getByLabel('Kind').selectOption('password')
    await page.getByLabel('Value').fill(value)
    await page.getByRole('button', { name: 'Add Secret' }).click()
    await expect(toasts(page).getByText('Secret saved')).toBeVisible()

    const list = page.getByRole('list', { name: 'Secrets' })
    const row = list.getByRole('listitem').filter({ hasText: 'shop_password' })
    await expect(row.getByText('{{secrets.shop_password}}', { exact: false })).toBeVisible()
    await expect(page.getByLabel('Value')).toHaveValue('')
    expect(await page.content()).not.toContain(value)
    await expectNoAxeViolations(page)

    // The API lists the name, never the value.
    const token = await apiToken(request, account)
    const listed = await request.get('/api/vault', { headers: { Authorization: `Bearer ${token}` } })
    expect(listed.status()).toBe(200)
    const body = await listed.text()
    expect(body).toContain('shop_password')
    expect(body).not.toContain(value)

    // A name already in the vault is refused with the reason.
    consoleErrors.allowHttpStatus(409, '/workspace/vault.data')
    await page.getByLabel('Name').fill('shop_password')
    await page.getByLabel('Value').fill('another')
    await page.getByRole('button', { name: 'Add Secret' }).click()
    await expect(toasts(page).getByText('Error saving secret')).toBeVisible()

    await row.getByRole('button', { name: 'Replace shop_password' }).click()
    await row.getByLabel('New value of shop_password').fill(`${value}-2`)
    await row.getByRole('button', { name: 'Save' }).click()
    await expect(toasts(page).getByText('Secret replaced')).toBeVisible()
    expect(await page.content()).not.toContain(value)

    await row.getByRole('button', { name: 'Delete shop_password' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete "shop_password"?' })
    await expect(dialog.getByText('fail at that step', { exact: false })).toBeVisible()
    await dialog.getByRole('button', { name: 'Delete Secret' }).click()
    await expect(toasts(page).getByText('Secret deleted')).toBeVisible()
    await expect(page.getByText('The vault is empty.')).toBeVisible()
  })
})
