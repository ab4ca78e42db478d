import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newDeviceKeys, openOnDevice, vaultSealContext } from '#common/device-seal.ts'
import { auditLog, automationRuns, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Vault values on a member's own device (docs/decisions/048): a device made a key pair when it was
// paired; its member (an admin or the owner) allows it in Settings -> Devices; a run of its own
// then receives the values its steps name, sealed to that key for that run, and nothing else.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type Sealed = { name: string; kind: string; origins: string[]; useRole: string; sealed: string }
type VaultAnswer = { refusal: { index: number; message: string } | null; secrets: Sealed[]; steps: { type: string; text?: string }[] }

let t: TestApp
let owner: Account

const SITE = 'https://shop.example.com'
const PASSWORD = 'device-vault-password-1'
const SIGN_IN = [
  { type: 'navigate', url: `${SITE}/login` },
  { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{input.who}}' },
  { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{secrets.shop_password}}' },
]

async function call<T>(credential: { token?: string }, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const response = await t.request(path, { ...init, ...credential })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

/** A device connected through pairing, with a key pair of its own unless `withKey` is false. */
async function connect(account: Account, workspaceId: string, kind: 'extension' | 'runner', withKey = true) {
  const keys = await newDeviceKeys()
  const asked = await t.request('/api/devices/pairings', {
    body: { name: `${kind} of ${account.email}`, kind, version: '1.0.0' },
    ip: t.freshIp(),
  })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    workspaceId,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, {
    body: { pollSecret: pairing.pollSecret, ...(withKey ? { publicKey: keys.publicKey } : {}) },
  })
  expect(collected.status, await collected.clone().text()).toBe(200)
  const { data } = (await collected.json()) as { data: { token: string; device: { id: string } } }
  return { token: data.token, id: data.device.id, privateKey: keys.privateKey }
}

async function automationOf(account: Account, steps: unknown[], workspace?: string) {
  const created = await t.request('/api/automations', {
    token: account.token,
    body: { name: 'Shop sign-in', steps },
    headers: workspace ? { 'x-workspace-id': workspace } : {},
  })
  expect(created.status, await created.clone().text()).toBe(201)
  return ((await created.json()) as { data: { id: string } }).data.id
}

const startOn = (device: { token: string }, automationId: string, inputs: Record<string, string> = { who: 'dee' }) =>
  call<{ id: string; status: string }>(device, `/api/automations/${automationId}/runs`, { body: { where: 'client', inputs } })

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const created = await call({ token: owner.token }, '/api/vault', {
    body: { name: 'shop_password', kind: 'password', value: PASSWORD, origins: [SITE] },
  })
  expect(created.status, created.message).toBe(201)
})
afterAll(async () => {
  await t?.close()
})

describe('a device key at pairing', () => {
  it('is kept when the poll that collects the token brings one, and refused when it is not a P-256 key', async () => {
    const asked = await t.request('/api/devices/pairings', { body: { name: 'Bad key', kind: 'runner', version: '1' }, ip: t.freshIp() })
    const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
    // A wrong poll secret is 401 whatever the key: the secret is checked first.
    const wrong = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, {
      body: { pollSecret: 'x'.repeat(43), publicKey: 'nope' },
    })
    expect(wrong.status).toBe(401)
    const bad = await call({}, `/api/devices/pairings/${pairing.pairingId}/token`, {
      body: { pollSecret: pairing.pollSecret, publicKey: `BA${'A'.repeat(85)}` },
    })
    expect(bad).toMatchObject({
      status: 400,
      message: 'publicKey must be a P-256 public key: base64url of its uncompressed point (65 bytes).',
    })

    const withKey = await connect(owner, owner.id, 'runner')
    const without = await connect(owner, owner.id, 'extension', false)
    const listed = await call<{ id: string; holdsKey: boolean; vaultValues: boolean }[]>({ token: owner.token }, '/api/devices')
    expect(listed.data.find((device) => device.id === withKey.id)).toMatchObject({ holdsKey: true, vaultValues: false })
    expect(listed.data.find((device) => device.id === without.id)).toMatchObject({ holdsKey: false, vaultValues: false })
  })
})

describe('allowing vault values on a device', () => {
  it('needs a device with a key, a session, and an admin or the owner; stopping them is always possible', async () => {
    const device = await connect(owner, owner.id, 'runner')
    const keyless = await connect(owner, owner.id, 'runner', false)
    const byDevice = await call(device, `/api/devices/${device.id}`, { method: 'PATCH', body: { vaultValues: true } })
    expect(byDevice.status).toBe(403)
    const noKey = await call({ token: owner.token }, `/api/devices/${keyless.id}`, { method: 'PATCH', body: { vaultValues: true } })
    expect(noKey).toMatchObject({ status: 409 })
    expect(noKey.message).toContain('was connected before devices kept a key for vault values')
    const empty = await call({ token: owner.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: {} })
    expect(empty).toMatchObject({ status: 400, message: 'Give name, vaultValues or both.' })

    const allowed = await call<{ vaultValues: boolean }>({ token: owner.token }, `/api/devices/${device.id}`, {
      method: 'PATCH',
      body: { vaultValues: true },
    })
    expect(allowed).toMatchObject({ status: 200, data: { vaultValues: true } })
    const stopped = await call<{ vaultValues: boolean }>({ token: owner.token }, `/api/devices/${device.id}`, {
      method: 'PATCH',
      body: { vaultValues: false },
    })
    expect(stopped).toMatchObject({ status: 200, data: { vaultValues: false } })
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.targetId, device.id))
    expect(entries.map((entry) => entry.action).sort()).toEqual(['device.vault_allow', 'device.vault_stop'])

    // A team's member (not an admin) cannot let their device take the team's values out.
    const colleague = await t.signUp()
    const team = await call<{ id: string }>({ token: owner.token }, '/api/workspaces', { body: { name: 'Vault team' } })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, team.data.id))
    await t.db.insert(workspaceMembers).values({ workspaceId: team.data.id, userId: colleague.id, role: 'member' })
    const theirs = await connect(colleague, team.data.id, 'runner')
    const refused = await t.request(`/api/devices/${theirs.id}`, {
      method: 'PATCH',
      token: colleague.token,
      body: { vaultValues: true },
      headers: { 'x-workspace-id': team.data.id },
    })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Letting a device receive vault values needs the Admin role in this workspace; you are member.',
    )
  })
})

describe('a run on a device that types a vault value', () => {
  it('starts only on a device allowed vault values, and says what to do otherwise', async () => {
    const automationId = await automationOf(owner, SIGN_IN)
    const device = await connect(owner, owner.id, 'extension')
    const notAllowed = await startOn(device, automationId)
    expect(notAllowed.status).toBe(400)
    expect(notAllowed.message).toMatch(
      /^This automation uses \{\{secrets\.shop_password\}\} from the vault\. Vault values do not reach “extension of .+” until you allow them for it in Settings -> Devices; or run this automation in the cloud\.$/,
    )
    // Without a device (a session starting a client run), only the cloud fills it in.
    const bySession = await call({ token: owner.token }, `/api/automations/${automationId}/runs`, {
      body: { where: 'client', inputs: { who: 'dee' } },
    })
    expect(bySession.message).toBe(
      'This automation uses {{secrets.shop_password}} from the vault, which only cloud runs and devices allowed vault values fill in: run it in the cloud.',
    )
    const keyless = await connect(owner, owner.id, 'extension', false)
    const old = await startOn(keyless, automationId)
    expect(old.message).toContain('was connected before devices kept a key for vault values: disconnect it, connect it again')
  })

  it('receives the values its steps name, sealed to its key for this run, with the steps as written', async () => {
    const automationId = await automationOf(owner, SIGN_IN)
    const device = await connect(owner, owner.id, 'runner')
    const other = await connect(owner, owner.id, 'runner')
    for (const each of [device, other]) {
      const allowed = await call({ token: owner.token }, `/api/devices/${each.id}`, { method: 'PATCH', body: { vaultValues: true } })
      expect(allowed.status).toBe(200)
    }
    const started = await startOn(device, automationId, { who: '{{secrets.shop_password}}' })
    expect(started).toMatchObject({ status: 201, data: { status: 'running' } })
    const runId = started.data.id

    // Another device of the same member, and the member's own session, get nothing.
    expect((await call(other, `/api/runs/${runId}/vault`, { method: 'POST' })).status).toBe(404)
    expect((await call({ token: owner.token }, `/api/runs/${runId}/vault`, { method: 'POST' })).status).toBe(403)

    const answer = await call<VaultAnswer>(device, `/api/runs/${runId}/vault`, { method: 'POST' })
    expect(answer.status, answer.message).toBe(200)
    expect(answer.data.refusal).toBeNull()
    expect(answer.data.secrets).toHaveLength(1)
    expect(answer.data.secrets[0]).toMatchObject({ name: 'shop_password', kind: 'password', origins: [SITE], useRole: 'member' })
    expect(JSON.stringify(answer)).not.toContain(PASSWORD)
    const sealed = answer.data.secrets[0]?.sealed ?? ''
    const context = vaultSealContext({ runId, deviceId: device.id, name: 'shop_password' })
    expect(await openOnDevice(device.privateKey, sealed, context)).toBe(PASSWORD)
    await expect(openOnDevice(other.privateKey, sealed, context)).rejects.toThrow()
    await expect(
      openOnDevice(device.privateKey, sealed, vaultSealContext({ runId, deviceId: other.id, name: 'shop_password' })),
    ).rejects.toThrow()
    // The steps as written: the input that reads like a placeholder stays data, filled once by the device.
    expect(answer.data.steps[1]).toMatchObject({ type: 'type', text: '{{input.who}}' })

    const [sent] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'vault.device_send'))
    expect(sent?.summary).toBe(`Sent shop_password to “runner of ${owner.email}”, sealed to its key, for run ${runId}`)

    // Stopping vault values on the device stops them at once; a finished run gets none either.
    await call({ token: owner.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: { vaultValues: false } })
    const stopped = await call(device, `/api/runs/${runId}/vault`, { method: 'POST' })
    expect(stopped.status).toBe(403)
    await call({ token: owner.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: { vaultValues: true } })
    await t.db.update(automationRuns).set({ status: 'succeeded' }).where(eq(automationRuns.id, runId))
    expect((await call(device, `/api/runs/${runId}/vault`, { method: 'POST' })).status).toBe(409)
  })

  it('answers a refusal, and no value, when the starter may no longer use the secret', async () => {
    const automationId = await automationOf(owner, SIGN_IN)
    const device = await connect(owner, owner.id, 'runner')
    await call({ token: owner.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: { vaultValues: true } })
    const started = await startOn(device, automationId)
    expect(started.status, started.message).toBe(201)
    // The secret is kept for the owner, and the starter's role is then lowered (as if they were demoted).
    await call({ token: owner.token }, `/api/vault/${await secretId('shop_password')}`, { method: 'PATCH', body: { useRole: 'owner' } })
    await t.db.update(workspaceMembers).set({ role: 'admin' }).where(eq(workspaceMembers.userId, owner.id))
    try {
      const answer = await call<VaultAnswer>(device, `/api/runs/${started.data.id}/vault`, { method: 'POST' })
      expect(answer.status, answer.message).toBe(200)
      expect(answer.data.secrets).toEqual([])
      expect(answer.data.refusal).toEqual({
        index: 2,
        message:
          '{{secrets.shop_password}} may be used only by the owner in their automations, and the run was started by an admin; the value was not typed',
      })
    } finally {
      await t.db.update(workspaceMembers).set({ role: 'owner' }).where(eq(workspaceMembers.userId, owner.id))
      await call({ token: owner.token }, `/api/vault/${await secretId('shop_password')}`, { method: 'PATCH', body: { useRole: 'member' } })
    }
  })
})

async function secretId(name: string): Promise<string> {
  const listed = await call<{ id: string; name: string }[]>({ token: owner.token }, '/api/vault')
  const found = listed.data.find((secret) => secret.name === name)
  if (!found) throw new Error(`no secret ${name}`)
  return found.id
}
