import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAIRING_RATE_LIMIT } from '#common/devices.ts'
import { auditLog, devicePairings, devices, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

// Device pairing (docs/decisions/031), after RFC 8628: a device asks, the member approves its code
// (through the pairing service, as /connect does), the device collects its token once; expired,
// denied and wrong-secret polls; the rate limit; the plan's device limit, with the plan that
// allows more named.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Issued = { pairingId: string; userCode: string; pollSecret: string; verificationUrl: string; expiresIn: number; interval: number }
type Collected = { token: string; device: { id: string; name: string; kind: string }; workspace: { id: string; name: string } }
type Answer<T> = { status: number; data: T; message?: string; code?: string }

let t: TestApp
let member: Account

async function json<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

async function pair(body: Record<string, unknown> = {}, ip = t.freshIp()): Promise<Answer<Issued>> {
  const sent = { name: 'Chrome on my laptop', kind: 'extension', version: '0.3.1', ...body }
  return json<Issued>(await t.request('/api/devices/pairings', { body: sent, ip }))
}

async function issued(body: Record<string, unknown> = {}): Promise<Issued> {
  const answer = await pair(body)
  expect(answer.status, answer.message).toBe(201)
  return answer.data
}

function poll(pairingId: string, body: unknown): Promise<Answer<Collected>> {
  return t.request(`/api/devices/pairings/${pairingId}/token`, { body, ip: t.freshIp() }).then((response) => json<Collected>(response))
}

const asMember = (account: Account) => ({ id: account.id, email: account.email, twoFactorEnabled: false })
const approve = (code: string, account: Account, workspaceId = account.id) =>
  t.services.pairings.approve(code, asMember(account), workspaceId, t.freshIp())

/** A device connected through the whole flow; its token. */
async function connect(account: Account, workspaceId = account.id): Promise<Collected> {
  const pairing = await issued()
  await approve(pairing.userCode, account, workspaceId)
  const collected = await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })
  expect(collected.status, collected.message).toBe(200)
  return collected.data
}

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await t.close()
})

describe('asking to pair', () => {
  it('answers a code, a poll secret and where to approve it; only the secret’s hash is kept', async () => {
    const pairing = await issued()
    expect(pairing.userCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/)
    expect(pairing).toMatchObject({ expiresIn: 600, interval: 3, verificationUrl: `${TEST_PUBLIC_URL}/connect?code=${pairing.userCode}` })
    expect(pairing.pollSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const [row] = await t.db.select().from(devicePairings).where(eq(devicePairings.id, pairing.pairingId))
    expect(row).toMatchObject({ status: 'pending', name: 'Chrome on my laptop', kind: 'extension', version: '0.3.1' })
    expect(JSON.stringify(row)).not.toContain(pairing.pollSecret)
  })

  it('refuses a device that does not say what it is', async () => {
    for (const body of [{ name: '' }, { name: 'x'.repeat(61) }, { kind: 'phone' }, { version: '' }, { version: '1'.repeat(41) }]) {
      const refused = await pair(body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
    }
  })

  it(`allows ${PAIRING_RATE_LIMIT.limit} requests a minute from one address`, async () => {
    const ip = t.freshIp()
    for (let i = 0; i < PAIRING_RATE_LIMIT.limit; i++) expect((await pair({}, ip)).status).toBe(201)
    const refused = await t.request('/api/devices/pairings', { body: { name: 'x', kind: 'runner', version: '1' }, ip })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await pair({}, t.freshIp())).status).toBe(201)
  })
})

describe('polling for the token', () => {
  it('is pending until the member approves, then answers the token once', async () => {
    const pairing = await issued({ kind: 'runner', name: 'Work laptop runner' })
    expect(await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })).toMatchObject({ status: 400, code: 'PAIRING_PENDING' })

    const preview = await t.services.pairings.preview(pairing.userCode.toLowerCase().replace('-', ' '), asMember(member))
    expect(preview).toMatchObject({ status: 'pending', name: 'Work laptop runner', kind: 'runner', version: '0.3.1' })
    const approved = await approve(pairing.userCode, member)
    expect(approved).toEqual({ name: 'Work laptop runner', workspace: { id: member.id, name: 'Personal' } })
    expect((await t.services.pairings.preview(pairing.userCode, asMember(member)))?.status).toBe('approved')

    const collected = await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })
    expect(collected.status, collected.message).toBe(200)
    expect(collected.data.token).toMatch(/^dev_[A-Za-z0-9_-]{43}$/)
    expect(collected.data).toMatchObject({
      device: { name: 'Work laptop runner', kind: 'runner' },
      workspace: { id: member.id, name: 'Personal' },
    })
    const [device] = await t.db.select().from(devices).where(eq(devices.id, collected.data.device.id))
    expect(device).toMatchObject({ userId: member.id, workspaceId: member.id, version: '0.3.1', revokedAt: null })
    expect(JSON.stringify(device)).not.toContain(collected.data.token)

    // Answered once: the pairing is used up, and its code cannot be approved again.
    expect(await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })).toMatchObject({ status: 410, code: 'PAIRING_EXPIRED' })
    await expect(approve(pairing.userCode, member)).rejects.toMatchObject({ status: 410, code: 'PAIRING_EXPIRED' })
    const activity = await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, member.id))
    expect(activity.map((entry) => entry.summary)).toContain('Connected Work laptop runner (local runner 0.3.1)')
  })

  it('answers 401 for a wrong secret, an unknown pairing or a malformed request, whatever its state', async () => {
    const pairing = await issued()
    const other = await issued()
    for (const body of [{ pollSecret: other.pollSecret }, { pollSecret: '' }, { pollSecret: 42 }, {}, '{', '[]', 'null']) {
      expect(await poll(pairing.pairingId, body), JSON.stringify(body)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-pairing', 'x'.repeat(300)]) {
      expect((await poll(id, { pollSecret: pairing.pollSecret })).status, id).toBe(401)
    }
    await approve(pairing.userCode, member)
    expect((await poll(pairing.pairingId, { pollSecret: other.pollSecret })).status).toBe(401)
    expect((await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })).status).toBe(200)
  })

  it('answers 410 PAIRING_EXPIRED once it expired, approved or not, and the code cannot be approved', async () => {
    const waiting = await issued()
    const approved = await issued()
    await approve(approved.userCode, member)
    const past = new Date(Date.now() - 1000)
    for (const id of [waiting.pairingId, approved.pairingId]) {
      await t.db.update(devicePairings).set({ expiresAt: past }).where(eq(devicePairings.id, id))
    }
    expect(await poll(waiting.pairingId, { pollSecret: waiting.pollSecret })).toMatchObject({ status: 410, code: 'PAIRING_EXPIRED' })
    expect(await poll(approved.pairingId, { pollSecret: approved.pollSecret })).toMatchObject({ status: 410, code: 'PAIRING_EXPIRED' })
    await expect(approve(waiting.userCode, member)).rejects.toMatchObject({ status: 410, message: expect.stringContaining('expired') })
    expect((await t.services.pairings.preview(waiting.userCode, asMember(member)))?.status).toBe('expired')
  })

  it('answers 410 PAIRING_DENIED once the member denied it', async () => {
    const pairing = await issued()
    expect(await t.services.pairings.deny(pairing.userCode, asMember(member), t.freshIp())).toEqual({ name: 'Chrome on my laptop' })
    expect(await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })).toMatchObject({ status: 410, code: 'PAIRING_DENIED' })
    await expect(approve(pairing.userCode, member)).rejects.toMatchObject({ status: 410 })
  })

  it('knows no code that was never issued', async () => {
    expect(await t.services.pairings.preview('ABCD-2345', asMember(member))).toBeNull()
    expect(await t.services.pairings.preview('O0I1-xxxx', asMember(member))).toBeNull()
    await expect(approve('ABCD-2345', member)).rejects.toMatchObject({ status: 404 })
  })
})

describe('which workspace a device is approved for', () => {
  it('is one of the member’s workspaces where they are a member or above', async () => {
    const owner = await t.signUp()
    const viewer = await t.signUp()
    const stranger = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Field team' } })
    const teamId = ((await team.json()) as { data: { id: string } }).data.id
    await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: viewer.id, role: 'viewer' })

    const pairing = await issued()
    await expect(approve(pairing.userCode, viewer, teamId)).rejects.toMatchObject({ status: 403 })
    await expect(approve(pairing.userCode, stranger, teamId)).rejects.toMatchObject({ status: 404 })
    expect(await approve(pairing.userCode, owner, teamId)).toMatchObject({ workspace: { id: teamId, name: 'Field team' } })
    expect((await poll(pairing.pairingId, { pollSecret: pairing.pollSecret })).data.workspace).toEqual({ id: teamId, name: 'Field team' })
  })
})

describe('device limits by plan', () => {
  async function onPlan(slug: string): Promise<Account> {
    const account = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: slug }).where(eq(workspaces.id, account.id))
    return account
  }

  it('Free connects one device, and the refusal names Pro; revoking one frees its place', async () => {
    const free = await onPlan('free')
    const first = await connect(free)
    const second = await issued()
    await expect(approve(second.userCode, free)).rejects.toMatchObject({
      status: 409,
      code: 'PLAN_LIMIT',
      message: 'The Free plan connects 1 device; the Pro plan connects more. Revoke one in Settings -> Devices or upgrade.',
    })
    // The refused pairing still waits: once a place is free, the same code is approved.
    const revoked = await t.request(`/api/devices/${first.device.id}`, { method: 'DELETE', token: free.token })
    expect(revoked.status).toBe(200)
    await approve(second.userCode, free)
    expect((await poll(second.pairingId, { pollSecret: second.pollSecret })).status).toBe(200)
  })

  it('Pro connects three, counting approved pairings not yet collected; the refusal names Business', async () => {
    const pro = await onPlan('pro')
    await connect(pro)
    await connect(pro)
    const approvedOnly = await issued()
    await approve(approvedOnly.userCode, pro)
    const fourth = await issued()
    await expect(approve(fourth.userCode, pro)).rejects.toMatchObject({
      code: 'PLAN_LIMIT',
      message: 'The Pro plan connects 3 devices; the Business plan connects more. Revoke one in Settings -> Devices or upgrade.',
    })
    // An approved pairing that expired uncollected holds no place.
    await t.db
      .update(devicePairings)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(devicePairings.id, approvedOnly.pairingId))
    await approve(fourth.userCode, pro)
  })

  it('Business has no limit, and the admin’s number for a plan is the one enforced', async () => {
    const business = await onPlan('business')
    for (let i = 0; i < 5; i++) await connect(business)
    const custom = await onPlan('free')
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, custom.id))
    const pro = (await t.services.plans.list()).find((plan) => plan.slug === 'pro')
    if (!pro) throw new Error('no Pro plan')
    await t.services.plans.update({ id: member.id, email: member.email }, pro.id, { devices: 1 })
    await connect(custom)
    const refused = await issued()
    await expect(approve(refused.userCode, custom)).rejects.toMatchObject({
      message: 'The Pro plan connects 1 device; the Business plan connects more. Revoke one in Settings -> Devices or upgrade.',
    })
    await t.services.plans.update({ id: member.id, email: member.email }, pro.id, { devices: 3 })
  })

  it('counts the whole workspace’s devices, whoever connected them', async () => {
    const owner = await onPlan('business')
    const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Two people' } })
    const teamId = ((await team.json()) as { data: { id: string } }).data.id
    const colleague = await t.signUp()
    await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: colleague.id, role: 'member' })
    await t.db.update(workspaces).set({ planSlug: 'free' }).where(eq(workspaces.id, teamId))
    await connect(owner, teamId)
    const second = await issued()
    await expect(approve(second.userCode, colleague, teamId)).rejects.toMatchObject({ code: 'PLAN_LIMIT' })
  })
})
