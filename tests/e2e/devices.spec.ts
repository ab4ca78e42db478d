import type { APIRequestContext } from '@playwright/test'
import { createAccount } from './accounts.ts'
import { expect, expectNoAxeViolations, gotoHydrated, test, toasts } from './fixtures.ts'

// Connecting a device (docs/decisions/031): a device asks to pair through the API, the member
// opens its verification address, signs in, comes back to /connect and approves it; the device
// collects its token. A second device is refused by the Free plan's limit and denied. Then
// Settings -> Devices shows the device; the member renames it and revokes it, and its token is
// refused from then on.
test.describe.configure({ timeout: 60_000 })

let clients = 0
const asDevice = () => ({ 'X-Forwarded-For': `192.0.2.${(clients++ % 250) + 1}` })

type Pairing = { pairingId: string; userCode: string; pollSecret: string; verificationUrl: string }

async function askToPair(request: APIRequestContext, name: string): Promise<Pairing> {
  const asked = await request.post('/api/devices/pairings', {
    data: { name, kind: 'extension', version: '0.9.0' },
    headers: asDevice(),
  })
  expect(asked.status(), await asked.text()).toBe(201)
  return ((await asked.json()) as { data: Pairing }).data
}

const poll = (request: APIRequestContext, pairing: Pairing) =>
  request.post(`/api/devices/pairings/${pairing.pairingId}/token`, { data: { pollSecret: pairing.pollSecret }, headers: asDevice() })

test('a member approves a device on /connect, then renames and revokes it in Settings -> Devices', async ({ page, request }) => {
  const member = await createAccount(request, 'devices')
  const name = `Chrome on the test laptop ${Date.now().toString(36)}`
  const pairing = await askToPair(request, name)
  expect(pairing.userCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/)
  const address = new URL(pairing.verificationUrl)
  expect(`${address.pathname}${address.search}`).toBe(`/connect?code=${pairing.userCode}`)
  expect((await poll(request, pairing)).status()).toBe(400)

  // Not signed in: /connect sends the visitor to sign in, and back.
  await gotoHydrated(page, `${address.pathname}${address.search}`)
  await expect(page).toHaveURL(/\/auth\?returnTo=/)
  await expect(page.getByText('Sign in to connect your device.')).toBeVisible()
  await page.getByLabel('Email').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL(`/connect?code=${pairing.userCode}`)

  await expect(page.getByRole('heading', { name: 'Connect a device' })).toBeVisible()
  await expect(page.getByText(name)).toBeVisible()
  await expect(page.getByText('Browser extension')).toBeVisible()
  await expect(page.getByText('0.9.0')).toBeVisible()
  await expect(page.getByText(pairing.userCode)).toBeVisible()
  await expect(page.getByLabel('Workspace')).toHaveValue(/.+/)
  await expect(page.getByRole('option', { name: 'Personal (0 of 1 device)' })).toBeAttached()
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  await expect(page.getByText(`${name} is connected to Personal.`)).toBeVisible()

  // The device collects its token, once, and uses it.
  const collected = await poll(request, pairing)
  expect(collected.status(), await collected.text()).toBe(200)
  const { token } = ((await collected.json()) as { data: { token: string } }).data
  expect((await poll(request, pairing)).status()).toBe(410)
  const me = await request.get('/api/devices/me', { headers: { Authorization: `Bearer ${token}`, 'X-Aether-Client-Version': '0.9.1' } })
  expect(me.status(), await me.text()).toBe(200)

  // A second device, its code typed by hand: the Free plan connects one, so it is refused and denied.
  const second = await askToPair(request, 'Another browser')
  await gotoHydrated(page, '/connect')
  await page.getByLabel('Code from the device').fill(second.userCode.toLowerCase())
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Another browser')).toBeVisible()
  // The page says so before anyone tries: Connect is off, with the way to free a place.
  const note = page.getByRole('note')
  await expect(note).toHaveText(
    'All of Personal’s devices are in use (1 of 1 device): disconnect one in Settings → Devices first, or choose another workspace. Deny tells the device at once that it was not connected.',
  )
  await expect(note.getByRole('link', { name: 'Settings → Devices' })).toHaveAttribute('href', '/settings#devices')
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeDisabled()
  await page.getByRole('button', { name: 'Deny' }).click()
  await expect(page.getByRole('heading', { name: 'Device denied' })).toBeVisible()
  const denied = await poll(request, second)
  expect(denied.status()).toBe(410)
  expect(((await denied.json()) as { code: string }).code).toBe('PAIRING_DENIED')

  // Settings -> Devices.
  await page.getByRole('link', { name: 'See your devices' }).click()
  await expect(page).toHaveURL('/settings#devices')
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Devices' })).toHaveAttribute(
    'href',
    '/settings#devices',
  )
  const list = page.getByRole('list', { name: 'Your devices' })
  await expect(list.getByText(name)).toBeVisible()
  await expect(list.getByText('Browser extension · version 0.9.1')).toBeVisible()
  await expect(list.getByText(/Last seen .+ ago/)).toBeVisible()
  await expect(page.getByText('This workspace’s plan connects up to 1 device (1 in use, yours and others’).')).toBeVisible()

  await list.getByRole('button', { name: `Rename ${name}` }).click()
  const rename = page.getByRole('dialog', { name: 'Rename device' })
  await rename.getByLabel('Name').fill('Work laptop')
  await rename.getByRole('button', { name: 'Save' }).click()
  await expect(toasts(page).getByText('Device renamed')).toBeVisible()
  await expect(list.getByText('Work laptop')).toBeVisible()

  await list.getByRole('button', { name: 'Revoke Work laptop' }).click()
  const confirm = page.getByRole('dialog', { name: 'Revoke "Work laptop"?' })
  await confirm.getByRole('button', { name: 'Revoke Device' }).click()
  await expect(toasts(page).getByText('Device revoked')).toBeVisible()
  await expect(page.getByText('No devices connected yet.')).toBeVisible()
  await expectNoAxeViolations(page)

  const refused = await request.get('/api/devices/me', { headers: { Authorization: `Bearer ${token}` } })
  expect(refused.status()).toBe(401)
})
