import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_SCREENSHOT_MAX_BYTES } from '#common/automations.ts'
import { automationRuns, devices, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { MAX_RUN_STORED_BYTES } from '#common/run-steps.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// What a device token may do (docs/decisions/031): automations and runs of its workspace as its
// member, its own GET /devices/me; not admin routes, keys, the vault's changes, devices or the
// account. Its last-seen time and version; rename and revoke (then 401); screenshots a client run
// reports.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type Device = { id: string; name: string; kind: string; version: string; lastSeenAt: string | null }

let t: TestApp
let member: Account
let admin: Account
let other: Account
let automationId: string

const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]

async function json<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

function call<T>(
  credential: { token?: string; cookie?: string },
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return t.request(path, { ...init, ...credential }).then((response) => json<T>(response))
}

/** A device of the account's personal workspace, connected through the pairing flow. */
async function connect(account: Account, kind: 'extension' | 'runner' = 'extension', name = 'Chrome at work') {
  const asked = await t.request('/api/devices/pairings', { body: { name, kind, version: '1.0.0' }, ip: t.freshIp() })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    account.id,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  const { data } = (await collected.json()) as { data: { token: string; device: { id: string } } }
  return { token: data.token, id: data.device.id }
}

async function apiKey(account: Account): Promise<string> {
  const created = await call<{ key: string }>({ token: account.token }, '/api/keys', { body: { name: 'script' } })
  return created.data.key
}

const jpeg = (size = 256) => {
  const bytes = new Uint8Array(size)
  bytes.set([0xff, 0xd8, 0xff, 0xe0])
  return bytes
}

const png = (size = 256) => {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  for (let i = 8; i < size; i++) bytes[i] = i % 251
  return bytes
}

async function upload(token: string, runId: string, body: Uint8Array<ArrayBuffer>, query = 'step=1&name=Signed%20in', type = 'image/png') {
  const response = await t.app.request(`/api/runs/${runId}/screenshots?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'x-forwarded-for': '203.0.113.10' },
    body,
  })
  return json<{ name: string; file: string; step: number }>(response)
}

async function clientRun(token: string): Promise<string> {
  const started = await call<{ id: string; trigger: string }>({ token }, `/api/automations/${automationId}/runs`, {
    body: { where: 'client' },
  })
  expect(started.status, started.message).toBe(201)
  return started.data.id
}

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  admin = await t.signUp({ role: 'admin' })
  other = await t.signUp()
  // Business: no monthly run cap, no device limit (the limits: pairing.api.test.ts).
  for (const account of [member, admin, other]) {
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, account.id))
  }
  const created = await call<{ id: string }>({ token: member.token }, '/api/automations', {
    body: { name: 'Check the site', steps: STEPS },
  })
  automationId = created.data.id
})
afterAll(async () => {
  await t.close()
})

describe('a device token', () => {
  it('reads its device, lists the workspace’s automations and runs one in the browser', async () => {
    const device = await connect(member)
    const me = await call<Device & { workspace: { id: string }; user: { email: string } }>(device, '/api/devices/me')
    expect(me).toMatchObject({
      status: 200,
      data: { id: device.id, name: 'Chrome at work', kind: 'extension', workspace: { id: member.id, name: 'Personal' } },
    })
    expect(me.data.user.email).toBe(member.email)

    const listed = await call<{ id: string }[]>(device, '/api/automations')
    expect(listed.status).toBe(200)
    expect(listed.data.map((automation) => automation.id)).toContain(automationId)

    const runId = await clientRun(device.token)
    const run = await call<{ trigger: string; runner: string; status: string }>(device, `/api/runs/${runId}`)
    expect(run.data).toMatchObject({ trigger: 'extension', runner: 'client', status: 'running' })
    const progress = await call(device, `/api/runs/${runId}/progress`, { body: { actionsPerformed: 1, log: [{ message: 'Opened' }] } })
    expect(progress.status).toBe(200)
    const finished = await call<{ status: string }>(device, `/api/runs/${runId}/finish`, { body: { status: 'succeeded' } })
    expect(finished.data.status).toBe('succeeded')
    // A cloud run from a device says which client asked for it.
    const cloud = await call<{ trigger: string }>(device, `/api/automations/${automationId}/runs`, { body: { where: 'cloud' } })
    expect(cloud.data.trigger).toBe('extension')
  })

  it('records a local runner’s runs as the desktop app’s', async () => {
    const runner = await connect(member, 'runner', 'Laptop runner')
    const runId = await clientRun(runner.token)
    expect((await call<{ trigger: string }>(runner, `/api/runs/${runId}`)).data.trigger).toBe('desktop')
  })

  it('cannot reach admin routes, keys, the vault’s changes, devices or the account, even as an admin’s device', async () => {
    const device = await connect(admin)
    const secret = await call<{ id: string }>({ token: admin.token }, '/api/vault', {
      body: { name: 'shop_password', value: 'hunter2', origins: ['https://shop.example.com'] },
    })
    expect(secret.status, secret.message).toBe(201)
    const refused: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['GET', '/api/settings'],
      ['GET', '/api/runs?scope=all'],
      ['GET', '/api/audit'],
      ['POST', '/api/blog', { title: 'From a device' }],
      ['GET', '/api/keys'],
      ['POST', '/api/keys', { name: 'minted' }],
      ['POST', '/api/vault', { name: 'planted', value: 'x' }],
      ['PUT', `/api/vault/${secret.data.id}`, { value: 'swapped' }],
      ['PATCH', `/api/vault/${secret.data.id}`, { origins: ['https://attacker.example'] }],
      ['DELETE', `/api/vault/${secret.data.id}`],
      ['GET', '/api/devices'],
      ['PATCH', `/api/devices/${device.id}`, { name: 'Renamed by itself' }],
      ['DELETE', `/api/devices/${device.id}`],
      ['GET', '/api/auth/me'],
      ['PUT', '/api/auth/profile', { fullName: 'Taken over' }],
      ['PUT', '/api/auth/change-password', { currentPassword: admin.password, newPassword: 'a-new-password-1' }],
      ['POST', '/api/workspaces', { name: 'From a device' }],
      ['PATCH', '/api/workspaces/current', { name: 'Renamed' }],
      ['POST', '/api/webhooks', { url: 'https://93.184.215.14/hook', events: ['run.failed'] }],
      ['POST', `/api/automations/${automationId}/trigger`],
    ]
    for (const [method, path, body] of refused) {
      const answer = await call(device, path, { method, body })
      expect(answer.status, `${method} ${path}: ${answer.message}`).toBe(403)
    }
    expect((await call(device, '/api/vault')).status).toBe(200)
    expect((await call<{ id: string }[]>({ token: admin.token }, '/api/devices')).data.map((row) => row.id)).toContain(device.id)
  })

  it('keeps its member’s workspace: naming another is refused', async () => {
    const device = await connect(member)
    const named = await call(device, '/api/automations', { headers: { 'x-workspace-id': other.id } })
    expect(named.status).toBe(403)
  })

  it('moves the last-seen time at most once a minute, and records the version the device sends', async () => {
    const device = await connect(member)
    const row = async () => (await t.db.select().from(devices).where(eq(devices.id, device.id)))[0]
    await call(device, '/api/devices/me')
    const first = await row()
    expect(first?.lastSeenAt).toBeInstanceOf(Date)
    const recently = new Date(Date.now() - 30_000)
    await t.db.update(devices).set({ lastSeenAt: recently }).where(eq(devices.id, device.id))
    await call(device, '/api/automations')
    expect((await row())?.lastSeenAt?.getTime()).toBe(recently.getTime())
    await t.db
      .update(devices)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(devices.id, device.id))
    await call(device, '/api/automations')
    expect((await row())?.lastSeenAt?.getTime()).toBeGreaterThan(Date.now() - 5_000)

    await t.db.update(devices).set({ lastSeenAt: recently }).where(eq(devices.id, device.id))
    const answered = await call<Device>(device, '/api/devices/me', { headers: { 'X-Aether-Client-Version': '1.2.0' } })
    expect(answered.data.version).toBe('1.2.0')
    expect((await row())?.version).toBe('1.2.0')
    await call(device, '/api/devices/me')
    expect((await row())?.version).toBe('1.2.0')
  })

  it('is refused (401) from the request after it was revoked, and when its member leaves the workspace', async () => {
    const device = await connect(member)
    expect((await call(device, '/api/automations')).status).toBe(200)
    const revoked = await call<Device>({ cookie: member.cookie }, `/api/devices/${device.id}`, {
      method: 'DELETE',
      headers: { origin: 'http://localhost:3000' },
    })
    expect(revoked).toMatchObject({ status: 200, data: { id: device.id } })
    expect((await call(device, '/api/automations')).status).toBe(401)
    expect((await call(device, '/api/devices/me')).status).toBe(401)
    expect((await call({ token: 'dev_not-a-real-token' }, '/api/automations')).status).toBe(401)

    const owner = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const team = await call<{ id: string }>({ token: owner.token }, '/api/workspaces', { body: { name: 'Shop team' } })
    await t.db.insert(workspaceMembers).values({ workspaceId: team.data.id, userId: member.id, role: 'member' })
    const asked = await t.request('/api/devices/pairings', { body: { name: 'Team browser', kind: 'extension', version: '1' } })
    const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
    await t.services.pairings.approve(
      pairing.userCode,
      { id: member.id, email: member.email, twoFactorEnabled: false },
      team.data.id,
      t.freshIp(),
    )
    const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
    const teamDevice = ((await collected.json()) as { data: { token: string } }).data
    expect((await call(teamDevice, '/api/devices/me')).status).toBe(200)
    const removed = await call({ token: owner.token }, `/api/workspaces/current/members/${member.id}`, {
      method: 'DELETE',
      headers: { 'x-workspace-id': team.data.id },
    })
    expect(removed.status, removed.message).toBe(200)
    expect((await call(teamDevice, '/api/devices/me')).status).toBe(401)
  })
})

describe('a device that disconnects itself', () => {
  it('is revoked on the server, so its slot is free at once: a Free workspace connects another', async () => {
    const free = await t.signUp()
    const first = await connect(free)
    const usage = await t.services.pairings.usage(free.id)
    expect(usage).toEqual({ taken: 1, limit: 1 })
    // Its member's session may not call a device's own route.
    expect(
      (await call({ cookie: free.cookie }, '/api/devices/me', { method: 'DELETE', headers: { origin: 'http://localhost:3000' } })).status,
    ).toBe(403)

    const gone = await call<Device>(first, '/api/devices/me', { method: 'DELETE' })
    expect(gone).toMatchObject({ status: 200, data: { id: first.id, name: 'Chrome at work' } })
    expect((await call(first, '/api/devices/me')).status).toBe(401)
    expect(await t.services.pairings.usage(free.id)).toEqual({ taken: 0, limit: 1 })
    const listed = await call<Device[]>({ token: free.token }, '/api/devices')
    expect(listed.data).toEqual([])

    const second = await connect(free, 'runner', 'Runner at home')
    expect((await call(second, '/api/devices/me')).status).toBe(200)
  })
})

describe('a device past its workspace’s plan', () => {
  it('is refused (the ones connected first keep the places) until a place is free again; it may still disconnect itself', async () => {
    const owner = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, owner.id))
    const first = await connect(owner, 'extension', 'Work laptop')
    const second = await connect(owner, 'runner', 'Home PC')
    const third = await connect(owner, 'extension', 'Old tablet')
    expect((await call(third, '/api/automations')).status).toBe(200)

    await t.db.update(workspaces).set({ planSlug: 'free' }).where(eq(workspaces.id, owner.id))
    // Settings -> Devices marks the ones past the plan.
    expect(await t.services.devices.pastPlanIds(owner.id)).toEqual(new Set([second.id, third.id]))
    expect((await call(first, '/api/automations')).status).toBe(200)
    const refused = await call(second, '/api/automations')
    expect(refused).toMatchObject({
      status: 403,
      message:
        'The Free plan connects 1 device, and “Home PC” is over it: disconnect another device in Settings -> Devices, or upgrade, and it works again.',
    })
    expect((await call(second, '/api/runs/claim', { body: {} })).status).toBe(403)
    expect((await call(second, '/api/devices/me')).status).toBe(200)

    // The first one goes: the second has the place now; the third disconnects itself.
    expect((await call(first, '/api/devices/me', { method: 'DELETE' })).status).toBe(200)
    expect((await call(second, '/api/automations')).status).toBe(200)
    expect((await call(third, '/api/automations')).status).toBe(403)
    expect((await call(third, '/api/devices/me', { method: 'DELETE' })).status).toBe(200)
  })
})

describe('a password change', () => {
  /** A pairing the member approved for a workspace, whose device has not collected its token yet. */
  async function approvedPairing(account: Account, workspaceId: string) {
    const asked = await t.request('/api/devices/pairings', { body: { name: 'Late device', kind: 'runner', version: '1' }, ip: t.freshIp() })
    const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
    await t.services.pairings.approve(
      pairing.userCode,
      { id: account.id, email: account.email, twoFactorEnabled: false },
      workspaceId,
      t.freshIp(),
    )
    return () => t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  }
  const changePassword = (account: Account, from: string, to: string, extra: Record<string, unknown> = {}) =>
    call<{ token: string; revokedApiKeys: number; revokedDevices: number }>({ token: account.token }, '/api/auth/change-password', {
      method: 'PUT',
      body: { currentPassword: from, newPassword: to, ...extra },
    })

  it("revokes the account's devices in every workspace, and the pairings it approved that no device collected, unless the member keeps them", async () => {
    const owner = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const account = await t.signUp({ password: 'devices-password-1' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, account.id))
    const team = await call<{ id: string }>({ token: owner.token }, '/api/workspaces', { body: { name: 'Devices team' } })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, team.data.id))
    await t.db.insert(workspaceMembers).values({ workspaceId: team.data.id, userId: account.id, role: 'member' })
    const personal = await connect(account)
    const bystander = await connect(owner)

    // Kept: nothing of the account's is revoked.
    const kept = await changePassword(account, 'devices-password-1', 'devices-password-2', { revokeApiKeys: false })
    expect(kept).toMatchObject({ status: 200, data: { revokedApiKeys: 0, revokedDevices: 0 } })
    expect((await call(personal, '/api/devices/me')).status).toBe(200)

    const collectTeamDevice = await approvedPairing(account, team.data.id)
    const teamPairing = await approvedPairing(account, team.data.id)
    const teamDevice = ((await (await collectTeamDevice()).json()) as { data: { token: string } }).data
    expect((await call(teamDevice, '/api/devices/me')).status).toBe(200)

    // The default: every device of the account goes, in every workspace; other people's stay.
    const revoked = await changePassword({ ...account, token: kept.data.token }, 'devices-password-2', 'devices-password-3')
    expect(revoked).toMatchObject({ status: 200, data: { revokedApiKeys: 0, revokedDevices: 2 } })
    expect((await call(personal, '/api/devices/me')).status).toBe(401)
    expect((await call(teamDevice, '/api/devices/me')).status).toBe(401)
    expect((await call(bystander, '/api/devices/me')).status).toBe(200)
    // A pairing approved before the change never becomes a device.
    const late = await teamPairing()
    expect(late.status).toBe(410)
    expect(((await late.json()) as { code: string }).code).toBe('PAIRING_DENIED')
  })
})

describe('managing devices', () => {
  it('lists the member’s devices with a session or an API key, renames and revokes them; another member’s are unknown', async () => {
    const device = await connect(member, 'extension', 'Old name')
    const key = await apiKey(member)
    const listed = await call<Device[]>({ token: key }, '/api/devices')
    expect(listed.status).toBe(200)
    expect(listed.data.find((row) => row.id === device.id)).toMatchObject({ name: 'Old name', kind: 'extension', version: '1.0.0' })
    expect(JSON.stringify(listed.data)).not.toContain(device.token)
    expect((await call<Device[]>({ token: other.token }, '/api/devices')).data.map((row) => row.id)).not.toContain(device.id)

    const renamed = await call<Device>({ token: member.token }, `/api/devices/${device.id}`, {
      method: 'PATCH',
      body: { name: ' Home PC ' },
    })
    expect(renamed).toMatchObject({ status: 200, data: { id: device.id, name: 'Home PC' } })
    expect((await call({ token: member.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: { name: '' } })).status).toBe(400)
    expect((await call({ token: key }, `/api/devices/${device.id}`, { method: 'PATCH', body: { name: 'By key' } })).status).toBe(403)
    expect((await call({ token: key }, `/api/devices/${device.id}`, { method: 'DELETE' })).status).toBe(403)
    expect((await call({ token: other.token }, `/api/devices/${device.id}`, { method: 'PATCH', body: { name: 'Mine' } })).status).toBe(404)
    expect((await call({ token: other.token }, `/api/devices/${device.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await call({ token: member.token }, '/api/devices/not-a-device', { method: 'DELETE' })).status).toBe(404)

    expect((await call({ token: member.token }, `/api/devices/${device.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call<Device[]>({ token: member.token }, '/api/devices')).data.map((row) => row.id)).not.toContain(device.id)
    expect((await call({ token: member.token }, `/api/devices/${device.id}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('GET /devices/me is for a device token only', async () => {
    expect((await call({ token: member.token }, '/api/devices/me')).status).toBe(403)
    expect((await call({ token: await apiKey(member) }, '/api/devices/me')).status).toBe(403)
    expect((await call({}, '/api/devices/me')).status).toBe(401)
  })
})

describe('screenshots of a client run', () => {
  it('stores a PNG a device reports and lists it on the run', async () => {
    const device = await connect(other)
    const created = await call<{ id: string }>({ token: other.token }, '/api/automations', { body: { name: 'Own', steps: STEPS } })
    const started = await call<{ id: string }>(device, `/api/automations/${created.data.id}/runs`, { body: { where: 'client' } })
    const runId = started.data.id
    const image = png(4096)
    const added = await upload(device.token, runId, image)
    expect(added).toMatchObject({ status: 201, data: { name: 'Signed in', step: 1, file: 'step-1-1.png' } })
    expect((await upload(device.token, runId, png(), 'step=2')).data).toMatchObject({ name: 'Step 2', file: 'step-2-2.png' })

    const run = await call<{ screenshots: { name: string; step: number; url?: string }[] }>(device, `/api/runs/${runId}`)
    expect(run.data.screenshots.map((shot) => [shot.name, shot.step])).toEqual([
      ['Signed in', 1],
      ['Step 2', 2],
    ])
    const read = await t.request(`/api/runs/${runId}/screenshots/step-1-1.png`, { token: other.token })
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(image)
  })

  it('stores a step’s picture (JPEG) and the timeline entries that name it, counted in the run’s files up to their limit', async () => {
    const device = await connect(other)
    const created = await call<{ id: string }>({ token: other.token }, '/api/automations', { body: { name: 'Timeline', steps: STEPS } })
    const started = await call<{ id: string }>(device, `/api/automations/${created.data.id}/runs`, { body: { where: 'client' } })
    const runId = started.data.id
    const picture = jpeg(2048)
    expect(await upload(device.token, runId, picture, 'step=1&shot=1', 'image/jpeg')).toMatchObject({
      status: 201,
      data: { file: 'after-1.jpg', step: 1 },
    })
    expect(await upload(device.token, runId, picture, 'step=1', 'image/jpeg')).toMatchObject({
      status: 400,
      message: 'A step’s picture (image/jpeg) needs shot: its number in the run.',
    })
    const entry = {
      step: 1,
      words: 'https://example.com',
      startedAt: '2026-12-03T10:00:00.000Z',
      ms: 420,
      outcome: 'done',
      screenshot: 'after-1.jpg',
    }
    const reported = await call<{ timeline: { step: number; screenshotUrl: string | null; round: string | null }[] }>(
      device,
      `/api/runs/${runId}/progress`,
      { body: { steps: [entry] } },
    )
    expect(reported.data.timeline).toEqual([
      expect.objectContaining({ step: 1, round: null, ms: 420, screenshotUrl: `/api/runs/${runId}/screenshots/after-1.jpg` }),
    ])
    const read = await t.request(`/api/runs/${runId}/screenshots/after-1.jpg`, { token: other.token })
    expect(read.headers.get('content-type')).toBe('image/jpeg')
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(picture)
    // An entry may only name a picture of the run's kind, never another path.
    const strayName = await call(device, `/api/runs/${runId}/progress`, { body: { steps: [{ ...entry, screenshot: '../x.png' }] } })
    expect(strayName).toMatchObject({ status: 400, message: expect.stringContaining('screenshot must name a step picture') })

    // The run's files are counted: past 250 MB, an image is refused.
    const [row] = await t.db.select({ storedBytes: automationRuns.storedBytes }).from(automationRuns).where(eq(automationRuns.id, runId))
    expect(row?.storedBytes).toBe(2048)
    await t.db
      .update(automationRuns)
      .set({ storedBytes: MAX_RUN_STORED_BYTES - 100 })
      .where(eq(automationRuns.id, runId))
    expect(await upload(device.token, runId, jpeg(), 'step=2&shot=2', 'image/jpeg')).toMatchObject({
      status: 400,
      message: "This run's files reached their limit of 250 MB.",
    })
    expect((await upload(device.token, runId, png())).status).toBe(400)
  })

  it('refuses what is not a PNG, a body over 5 MB, a cloud run, a finished run and another workspace’s run', async () => {
    const device = await connect(other)
    const created = await call<{ id: string }>({ token: other.token }, '/api/automations', { body: { name: 'Own 2', steps: STEPS } })
    const start = (where: string) =>
      call<{ id: string }>(device, `/api/automations/${created.data.id}/runs`, { body: { where } }).then((answer) => answer.data.id)
    const runId = await start('client')

    expect((await upload(device.token, runId, png(), 'step=1', 'image/jpeg')).status).toBe(400)
    const notPng = png()
    notPng[1] = 0x00
    expect((await upload(device.token, runId, notPng)).status).toBe(400)
    expect((await upload(device.token, runId, new Uint8Array(0))).status).toBe(400)
    expect((await upload(device.token, runId, png(), 'step=0')).status).toBe(400)
    expect((await upload(device.token, runId, png(), 'name=x')).status).toBe(400)
    const tooBig = await upload(device.token, runId, png(CLIENT_SCREENSHOT_MAX_BYTES + 1))
    expect(tooBig).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
    expect((await upload(device.token, runId, png(CLIENT_SCREENSHOT_MAX_BYTES))).status).toBe(201)

    const cloudRun = await start('cloud')
    expect(await upload(device.token, cloudRun, png())).toMatchObject({ status: 400, message: expect.stringContaining('cloud') })
    await call(device, `/api/runs/${runId}/finish`, { body: { status: 'succeeded' } })
    expect(await upload(device.token, runId, png())).toMatchObject({ status: 400, message: expect.stringContaining('finished') })

    const stranger = await connect(member)
    const theirs = await start('client')
    expect((await upload(stranger.token, theirs, png())).status).toBe(404)
    expect((await upload(member.token, theirs, png())).status).toBe(404)
    expect((await upload(await apiKey(other), theirs, png())).status).toBe(201)
  })
})
