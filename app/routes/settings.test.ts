import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action } from './settings.tsx'

// The change-password form's "Also revoke all API keys and devices" (docs/decisions/015): checked
// by default, it ends the account's API keys and connected devices with the other sessions.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ActionArgs = Parameters<typeof action>[0]

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})

async function changePassword(account: Account, fields: Record<string, string>): Promise<Response> {
  const context = await t.pageContext(account)
  const request = new Request(`${TEST_PUBLIC_URL}/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'change-password', ...fields }),
  })
  return (await action({ request, params: {}, context } as unknown as ActionArgs)) as Response
}

function flashOf(response: Response): { title: string; description?: string } {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('aether_flash='))
  if (!cookie) throw new Error('no flash cookie')
  const value = decodeURIComponent(cookie.split(';')[0]!.slice('aether_flash='.length))
  return JSON.parse(decodeURIComponent(escape(atob(value)))) as { title: string; description?: string }
}

/** An API key and a connected device of the account, each able to call the API. */
async function credentialsOf(account: Account) {
  const created = await t.request('/api/keys', { body: { name: 'Script' }, token: account.token })
  const { key } = ((await created.json()) as { data: { key: string } }).data
  const asked = await t.request('/api/devices/pairings', { body: { name: 'Browser', kind: 'extension', version: '1' }, ip: t.freshIp() })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    account.id,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  const device = ((await collected.json()) as { data: { token: string } }).data.token
  const works = async () => ({
    key: (await t.request('/api/automations', { token: key })).status,
    device: (await t.request('/api/automations', { token: device })).status,
  })
  expect(await works()).toEqual({ key: 200, device: 200 })
  return works
}

async function member(password: string): Promise<Account> {
  const account = await t.signUp({ password })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, account.id))
  return account
}

describe('Settings: change password', () => {
  it('with the box checked (the default), revokes the API keys and disconnects the devices', async () => {
    const account = await member('settings-password-1')
    const works = await credentialsOf(account)
    const response = await changePassword(account, {
      currentPassword: 'settings-password-1',
      newPassword: 'settings-password-2',
      revokeApiKeys: 'on',
    })
    expect(response.status).toBe(302)
    expect(flashOf(response)).toEqual({
      type: 'success',
      title: 'Password changed',
      description: 'Your other sessions were signed out, your API key was revoked and your connected device was disconnected.',
    })
    expect(await works()).toEqual({ key: 401, device: 401 })
  })

  it('with the box unchecked, keeps them', async () => {
    const account = await member('settings-password-3')
    const works = await credentialsOf(account)
    const response = await changePassword(account, { currentPassword: 'settings-password-3', newPassword: 'settings-password-4' })
    expect(response.status).toBe(302)
    expect(flashOf(response)).toMatchObject({ title: 'Password changed', description: 'Your other sessions were signed out.' })
    expect(await works()).toEqual({ key: 200, device: 200 })
  })
})
