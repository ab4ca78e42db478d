import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_NOT_VERIFIED } from '#common/email-verification.ts'
import { automations, users, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// An account whose e-mail address is not verified signs in and works, but what reaches other
// people or costs money waits for the address (issue 27, item 12): invitations, webhook
// endpoints, trigger URLs, cloud runs beyond the Free plan's monthly runs (purchases: the billing
// pages' tests, app/routes/billing.test.ts). One refusal, 403 EMAIL_NOT_VERIFIED, whether the
// member calls with a session, an API key or a device token; verifying lifts every one of them.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer = { status: number; body: { message?: string; code?: string; data?: { id: string } } }

let t: TestApp
beforeAll(async () => {
  // Webhooks may reach loopback here, so an endpoint's address passes once the member may add one.
  t = await createTestApp({ privateTargets: 'loopback' })
})
afterAll(async () => {
  await t.close()
})

async function call(token: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await t.request(path, { ...init, token })
  return { status: response.status, body: (await response.json()) as Answer['body'] }
}

/** An unverified account whose personal workspace is on Business with credits: only its address stands in the way. */
async function unverifiedOnBusiness(): Promise<Account> {
  const account = await t.signUp({ verified: false })
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 500 }).where(eq(workspaces.id, account.id))
  return account
}

function expectRefused(answer: Answer, email: string, what: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403)
  expect(answer.body).toEqual({
    code: EMAIL_NOT_VERIFIED,
    message: `Verify your e-mail address to ${what}. We sent a link to ${email}; you can send it again from the banner.`,
  })
}

async function automationOf(account: Account): Promise<string> {
  const created = await call(account.token, '/api/automations', {
    body: { name: 'Check the page', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  })
  expect(created.status).toBe(201)
  return created.body.data?.id ?? ''
}

/** A connected device's token for the account (paired as the extension pairs). */
async function deviceTokenOf(account: Account): Promise<string> {
  const asked = await t.request('/api/devices/pairings', { body: { name: 'Browser', kind: 'extension', version: '1' }, ip: t.freshIp() })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    account.id,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  return ((await collected.json()) as { data: { token: string } }).data.token
}

describe('an unverified account', () => {
  it('signs in and works: reads, automations, team workspaces', async () => {
    const account = await unverifiedOnBusiness()
    expect((await call(account.token, '/api/auth/me')).status).toBe(200)
    await automationOf(account)
    expect((await call(account.token, '/api/workspaces', { body: { name: 'Unverified team' } })).status).toBe(201)
  })

  it('may not invite people until it verifies', async () => {
    const account = await unverifiedOnBusiness()
    const team = await call(account.token, '/api/workspaces', { body: { name: 'Inviting team' } })
    const inTeam = { 'x-workspace-id': team.body.data?.id ?? '' }
    const invite = () =>
      call(account.token, '/api/workspaces/current/invitations', { headers: inTeam, body: { email: 'friend@example.com' } })
    expectRefused(await invite(), account.email, 'invite people')
    expect((await call(account.token, '/api/workspaces/current/invitations', { headers: inTeam })).body.data).toEqual([])

    await t.verifyEmailOf(account.email)
    expect((await invite()).status).toBe(201)
  })

  it('may not add a webhook endpoint until it verifies', async () => {
    const account = await unverifiedOnBusiness()
    const add = () => call(account.token, '/api/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['run.succeeded'] } })
    expectRefused(await add(), account.email, 'add webhook endpoints')
    expect((await call(account.token, '/api/webhooks')).body.data).toEqual([])

    await t.verifyEmailOf(account.email)
    expect((await add()).status).toBe(201)
  })

  it('may not create (or rotate to) a trigger URL until it verifies', async () => {
    const account = await unverifiedOnBusiness()
    const automationId = await automationOf(account)
    const issue = () => call(account.token, `/api/automations/${automationId}/trigger`, { method: 'POST' })
    expectRefused(await issue(), account.email, 'create trigger URLs')

    await t.verifyEmailOf(account.email)
    expect((await issue()).status).toBe(201)
  })

  it("gets the Free plan's cloud runs a month on a Business workspace, with a session, an API key or a device token alike, until it verifies", async () => {
    const account = await unverifiedOnBusiness()
    const automationId = await automationOf(account)
    const key = await call(account.token, '/api/keys', { body: { name: 'Script', scopes: ['automations'] } })
    const apiKey = (key.body.data as unknown as { key: string }).key
    const start = (token: string, where: 'cloud' | 'client' = 'cloud') =>
      call(token, `/api/automations/${automationId}/runs`, { body: { where } })
    // The Free plan includes 5 runs a month (seed-content.ts); the Business plan has no cap.
    for (let i = 0; i < 5; i++) expect((await start(i % 2 ? apiKey : account.token)).status).toBe(201)
    expectRefused(await start(account.token), account.email, 'run more than 5 automations a month in the cloud')
    expectRefused(await start(apiKey), account.email, 'run more than 5 automations a month in the cloud')
    const device = await deviceTokenOf(account)
    expectRefused(await start(device), account.email, 'run more than 5 automations a month in the cloud')
    // Runs on the member's own machine cost us nothing: the workspace's plan decides.
    expect((await start(account.token, 'client')).status).toBe(201)

    await t.verifyEmailOf(account.email)
    expect((await start(account.token)).status).toBe(201)
    expect((await start(apiKey)).status).toBe(201)
    expect((await start(device)).status).toBe(201)
  })

  it("counts a schedule's runs as its owner's: past the Free plan's runs, the schedule is refused with the same message", async () => {
    const account = await unverifiedOnBusiness()
    const automationId = await automationOf(account)
    for (let i = 0; i < 5; i++)
      expect((await call(account.token, `/api/automations/${automationId}/runs`, { body: { where: 'cloud' } })).status).toBe(201)
    await t.db
      .update(automations)
      .set({
        schedule: { kind: 'interval', every: 1, unit: 'hours', timeZone: 'UTC' },
        nextRunAt: new Date(Date.now() - 1000),
      })
      .where(eq(automations.id, automationId))
    const { createScheduler } = await import('#server/features/runs/scheduler.ts')
    const scheduler = createScheduler({ db: t.db, runs: t.services.runs, logger: t.services.logger })
    expect(await scheduler.tick()).toEqual({ started: 0, refused: 1 })
    const runs = await call(account.token, `/api/runs?automationId=${automationId}&limit=1`)
    expect((runs.body.data as unknown as { status: string; error: string }[])[0]).toMatchObject({
      status: 'failed',
      error: `Verify your e-mail address to run more than 5 automations a month in the cloud. We sent a link to ${account.email}; you can send it again from the banner.`,
    })
  })

  it('a verified account is not held to the Free plan (the rule is the address, not the plan)', async () => {
    const account = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business', credits: 500 }).where(eq(workspaces.id, account.id))
    const automationId = await automationOf(account)
    for (let i = 0; i < 6; i++)
      expect((await call(account.token, `/api/automations/${automationId}/runs`, { body: { where: 'cloud' } })).status).toBe(201)
    const [row] = await t.db.select({ verified: users.emailVerified }).from(users).where(eq(users.id, account.id))
    expect(row?.verified).toBe(true)
  })
})
