import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_NOT_VERIFIED } from '#common/email-verification.ts'
import { automations, webhookEndpoints, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// An unverified member of a team, acting on what a verified colleague made (docs/decisions/040,
// amended). A schedule's cloud runs are charged to the automation's owner and a trigger URL's to
// its creator, so a colleague's automation must not give the unverified member cloud runs past
// the Free plan's: they may not make it run by itself in the cloud, nor change what it does while
// it does. A webhook endpoint's address is where the workspace's events go, so pointing it
// elsewhere, a test event and a redelivery wait for the address like adding an endpoint. The same
// whether they call with a session, an API key or a device token (devices never reach webhooks).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Body = { message?: string; code?: string; data?: Record<string, unknown> & { id: string } }

let t: TestApp
let owner: Account
let teamId: string
let receiver: Server
let receiverUrl: string
let received = 0

beforeAll(async () => {
  // The webhook receiver is on 127.0.0.1: this app lets webhooks reach loopback.
  t = await createTestApp({ privateTargets: 'loopback' })
  owner = await t.signUp({ email: 'verified-owner@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Mixed team' } })
  teamId = ((await team.json()) as Body).data?.id ?? ''
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 500 }).where(eq(workspaces.id, teamId))
  receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received += 1
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  await t.close()
})

/** A request in the team: a session names it; an API key and a device token are the team's already. */
async function call(token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const ownWorkspace = token.startsWith('ak_') || token.startsWith('dev_')
  const response = await t.request(path, { ...init, token, headers: ownWorkspace ? {} : { 'x-workspace-id': teamId } })
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Body }
}

/** An account that signed up and never followed its link, added to the team with this role. */
async function unverifiedIn(role: 'member' | 'admin'): Promise<Account> {
  const account = await t.signUp({ verified: false })
  await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: account.id, role })
  return account
}

/** The account's three credentials in the team: its session, an API key made there, a connected device. */
async function credentialsOf(account: Account): Promise<{ session: string; apiKey: string; device: string }> {
  const key = await call(account.token, '/api/keys', { body: { name: 'Script', scopes: ['automations'] } })
  expect(key.status, JSON.stringify(key.body)).toBe(201)
  return { session: account.token, apiKey: String(key.body.data?.key), device: await deviceOf(account, 'extension') }
}

/** A device of the account connected to the team (paired as the extension or the runner pairs); its token and id. */
async function pairedDevice(account: Account, kind: 'extension' | 'runner'): Promise<{ token: string; id: string }> {
  const asked = await t.request('/api/devices/pairings', { body: { name: `My ${kind}`, kind, version: '1' }, ip: t.freshIp() })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    teamId,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  const { token, device } = ((await collected.json()) as { data: { token: string; device: { id: string } } }).data
  return { token, id: device.id }
}
const deviceOf = async (account: Account, kind: 'extension' | 'runner') => (await pairedDevice(account, kind)).token

const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]
const HOURLY = { kind: 'interval', every: 1, unit: 'hours', timeZone: 'UTC' }

async function ownersAutomation(input: Record<string, unknown> = {}): Promise<string> {
  const created = await call(owner.token, '/api/automations', { body: { name: "The owner's report", steps: STEPS, ...input } })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.data?.id ?? ''
}
const rowOf = async (id: string) => (await t.db.select().from(automations).where(eq(automations.id, id)))[0]

function expectRefused(answer: { status: number; body: Body }, account: Account, what: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403)
  expect(answer.body).toEqual({
    code: EMAIL_NOT_VERIFIED,
    message: `Verify your e-mail address to ${what}. We sent a link to ${account.email}; you can send it again from the banner.`,
  })
}

const SCHEDULE = "schedule someone else's automation to run in the cloud"
const UNATTENDED = "change what someone else's automation does while its schedule or trigger URL runs it in the cloud"

describe("an unverified member and a colleague's automation", () => {
  it('may not set a schedule on it, with a session, an API key or a device token, until it verifies', async () => {
    const member = await unverifiedIn('member')
    const credentials = await credentialsOf(member)
    const automationId = await ownersAutomation()
    for (const token of Object.values(credentials)) {
      const answer = await call(token, `/api/automations/${automationId}`, { method: 'PUT', body: { schedule: HOURLY } })
      expectRefused(answer, member, SCHEDULE)
    }
    expect(await rowOf(automationId)).toMatchObject({ schedule: null, nextRunAt: null, version: 1 })

    await t.verifyEmailOf(member.email)
    for (const token of Object.values(credentials)) {
      const every = { ...HOURLY, every: 2 + Object.values(credentials).indexOf(token) }
      expect((await call(token, `/api/automations/${automationId}`, { method: 'PUT', body: { schedule: every } })).status).toBe(200)
    }
  })

  it('may not change its schedule, resume it, or move it from a local runner to the cloud; may pause it or remove it', async () => {
    const member = await unverifiedIn('member')
    const { session, apiKey, device } = await credentialsOf(member)
    const firing = await ownersAutomation({ schedule: HOURLY })
    const put = (token: string, id: string, body: unknown) => call(token, `/api/automations/${id}`, { method: 'PUT', body })

    expectRefused(await put(session, firing, { schedule: { ...HOURLY, every: 2 } }), member, SCHEDULE)
    expect((await put(apiKey, firing, { enabled: false })).status).toBe(200)
    expectRefused(await put(device, firing, { enabled: true }), member, SCHEDULE)
    expectRefused(await put(session, firing, { schedule: { ...HOURLY, paused: false } }), member, SCHEDULE)
    expect(await rowOf(firing)).toMatchObject({ enabled: false, nextRunAt: null })
    expect((await put(device, firing, { schedule: null })).status).toBe(200)

    const runner = await pairedDevice(owner, 'runner')
    const onRunner = await ownersAutomation({ schedule: HOURLY, deviceId: runner.id })
    expectRefused(await put(apiKey, onRunner, { deviceId: null }), member, SCHEDULE)
    expect(await rowOf(onRunner)).toMatchObject({ deviceId: runner.id })
  })

  it('may not change what it does while a schedule runs it in the cloud; may rename it, and change it once paused', async () => {
    const member = await unverifiedIn('member')
    const { session, apiKey, device } = await credentialsOf(member)
    const id = await ownersAutomation({ schedule: HOURLY })
    const put = (token: string, body: unknown) => call(token, `/api/automations/${id}`, { method: 'PUT', body })
    const elsewhere = [{ type: 'navigate', url: 'https://example.org/mine' }]

    expectRefused(await put(session, { steps: elsewhere }), member, UNATTENDED)
    expectRefused(await put(apiKey, { selfRepair: false }), member, UNATTENDED)
    expectRefused(await put(device, { runTimeLimitSeconds: 60 }), member, UNATTENDED)
    expect((await rowOf(id))?.steps).toEqual(STEPS)
    // The builder sends the whole automation: the same steps (keys in another order) are no change.
    const renamed = await put(session, { name: 'Renamed', steps: [{ url: 'https://example.com/', type: 'navigate' }], schedule: HOURLY })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)

    expect((await put(device, { enabled: false })).status).toBe(200)
    expect((await put(device, { steps: elsewhere })).status).toBe(200)
    // Running it again is now the decision of someone verified (here the owner), who sees the new steps.
    expectRefused(await put(session, { enabled: true }), member, SCHEDULE)
    expect((await put(owner.token, { enabled: true })).status).toBe(200)
  })

  it('may not change what it does while a trigger URL can run it in the cloud', async () => {
    const member = await unverifiedIn('member')
    const { apiKey } = await credentialsOf(member)
    const id = await ownersAutomation()
    expect((await call(owner.token, `/api/automations/${id}/trigger`, { method: 'POST' })).status).toBe(201)
    const change = () =>
      call(apiKey, `/api/automations/${id}`, { method: 'PUT', body: { steps: [{ type: 'navigate', url: 'https://example.org/' }] } })
    expectRefused(await change(), member, UNATTENDED)

    await t.verifyEmailOf(member.email)
    expect((await change()).status).toBe(200)
  })

  it('schedules and changes its own automations (their cloud runs are its own, within the Free plan’s)', async () => {
    const member = await unverifiedIn('member')
    const { session, device } = await credentialsOf(member)
    const created = await call(session, '/api/automations', { body: { name: 'Mine', steps: STEPS, schedule: HOURLY } })
    expect(created.status).toBe(201)
    const id = created.body.data?.id ?? ''
    expect((await call(device, `/api/automations/${id}`, { method: 'PUT', body: { schedule: { ...HOURLY, every: 3 } } })).status).toBe(200)
    expect(
      (
        await call(session, `/api/automations/${id}`, {
          method: 'PUT',
          body: { steps: [{ type: 'navigate', url: 'https://example.org/' }] },
        })
      ).status,
    ).toBe(200)
  })

  it('a colleague whose address is verified schedules and changes it as before', async () => {
    const colleague = await t.signUp()
    await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: colleague.id, role: 'member' })
    const id = await ownersAutomation({ schedule: HOURLY })
    expect(
      (
        await call(colleague.token, `/api/automations/${id}`, {
          method: 'PUT',
          body: { schedule: { ...HOURLY, every: 4 }, steps: STEPS },
        })
      ).status,
    ).toBe(200)
  })
})

describe("an unverified admin and the team's webhook endpoints", () => {
  async function ownersEndpoint(): Promise<string> {
    const created = await call(owner.token, '/api/webhooks', { body: { url: `${receiverUrl}/owner`, events: ['run.succeeded'] } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return created.body.data?.id ?? ''
  }

  it('may not point an endpoint at another address, send a test event or redeliver, with a session or an API key, until it verifies', async () => {
    const admin = await unverifiedIn('admin')
    const { session, apiKey } = await credentialsOf(admin)
    const id = await ownersEndpoint()
    const sent = await call(owner.token, `/api/webhooks/${id}/test`, { method: 'POST' })
    expect(sent.status).toBe(200)
    const deliveryId = sent.body.data?.id ?? ''
    const before = received

    for (const token of [session, apiKey]) {
      const moved = await call(token, `/api/webhooks/${id}`, { method: 'PATCH', body: { url: `${receiverUrl}/elsewhere` } })
      expectRefused(moved, admin, "change a webhook endpoint's address")
      expectRefused(
        await call(token, `/api/webhooks/${id}/test`, { method: 'POST' }),
        admin,
        'send test events or redeliver webhook messages',
      )
      expectRefused(
        await call(token, `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
        admin,
        'send test events or redeliver webhook messages',
      )
    }
    expect((await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]?.url).toBe(`${receiverUrl}/owner`)
    expect(received).toBe(before)
    // What does not send the events elsewhere stays open: the description, the events, turning it off and on, the same address.
    const kept = await call(session, `/api/webhooks/${id}`, {
      method: 'PATCH',
      body: { url: `${receiverUrl}/owner`, description: 'Reports', events: ['run.failed'], enabled: false },
    })
    expect(kept.status, JSON.stringify(kept.body)).toBe(200)
    expect((await call(apiKey, `/api/webhooks/${id}`, { method: 'PATCH', body: { enabled: true } })).status).toBe(200)

    await t.verifyEmailOf(admin.email)
    expect((await call(session, `/api/webhooks/${id}`, { method: 'PATCH', body: { url: `${receiverUrl}/elsewhere` } })).status).toBe(200)
    expect((await call(apiKey, `/api/webhooks/${id}/test`, { method: 'POST' })).status).toBe(200)
    expect((await call(session, `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { method: 'POST' })).status).toBe(200)
    expect(received).toBe(before + 2)
  })
})
