import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationRuns, automations, sessions, users, workspaces } from '#server/db/schema/index.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import { createApp } from '#server/app.ts'
import { createServices } from '#server/services.ts'
import { eventReader } from '#server/testing/event-stream-reader.ts'
import { createTestApp, TEST_AUTH_SECRET, testEnv, type TestApp } from '#server/testing/create-test-app.ts'

// Suspending a member (docs/decisions/062): at once, their sessions end, their API keys and devices
// are refused with 403 ACCOUNT_SUSPENDED, their trigger URLs and schedules start nothing, their
// unfinished runs stop and signing in is refused; unsuspending gives all of it back. Only admins,
// never on themselves or another admin, each action in the audit log with the reason.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type AuditEntry = {
  actor: { email: string }
  action: string
  targetId: string | null
  summary: string
  after: Record<string, unknown> | null
}

const SUSPENDED = { status: 403, code: 'ACCOUNT_SUSPENDED', message: 'This account is suspended.' }
const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]

let t: TestApp
let admin: Account

async function json<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const call = <T>(path: string, init: { token?: string; method?: string; body?: unknown; ip?: string } = {}) =>
  t.request(path, init).then((response) => json<T>(response))

const suspend = (id: string, reason = 'Chargebacks on three cards', token = admin.token) =>
  call<{ sessionsEnded: number; runsStopped: number }>(`/api/users/${id}/suspend`, { token, body: { reason } })
const unsuspend = (id: string, token = admin.token) => call(`/api/users/${id}/unsuspend`, { token, method: 'POST' })
const login = (account: Account) => call('/api/auth/login', { body: { email: account.email, password: account.password }, ip: t.freshIp() })

async function auditFor(id: string): Promise<AuditEntry[]> {
  const answer = await call<AuditEntry[]>('/api/audit?targetType=user&limit=100', { token: admin.token })
  return answer.data.filter((entry) => entry.targetId === id)
}

/** A member on Business (trigger URLs, devices) with an automation, an API key, a connected device and a trigger URL. */
async function equippedMember() {
  const account = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 50 }).where(eq(workspaces.id, account.id))
  const automation = await call<{ id: string }>('/api/automations', { token: account.token, body: { name: 'Check prices', steps: STEPS } })
  const key = await call<{ key: string }>('/api/keys', { token: account.token, body: { name: 'Nightly script' } })
  const trigger = await call<{ secret: string }>(`/api/automations/${automation.data.id}/trigger`, { token: account.token, method: 'POST' })
  return {
    account,
    automationId: automation.data.id,
    apiKey: key.data.key,
    device: await connectDevice(account),
    trigger: trigger.data.secret,
  }
}

/** An extension connected through the pairing flow, as devices.api.test.ts connects one. */
async function connectDevice(account: Account): Promise<string> {
  const asked = await call<{ pairingId: string; userCode: string; pollSecret: string }>('/api/devices/pairings', {
    body: { name: 'Chrome at home', kind: 'extension', version: '1.0.0' },
    ip: t.freshIp(),
  })
  await t.services.pairings.approve(
    asked.data.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    account.id,
    t.freshIp(),
  )
  const collected = await call<{ token: string }>(`/api/devices/pairings/${asked.data.pairingId}/token`, {
    body: { pollSecret: asked.data.pollSecret },
  })
  return collected.data.token
}

const fire = (secret: string) => call<{ id: string; status: string }>(`/api/triggers/${secret}`, { method: 'POST', body: {} })
const runOf = async (id: string) => (await t.db.select().from(automationRuns).where(eq(automationRuns.id, id)))[0]
const creditsOf = async (id: string) =>
  (await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, id)))[0]?.credits

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'support-lead@example.com', role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

describe('suspending a member', () => {
  it('stops a running API key and a trigger at once: sessions end, the device is refused, runs stop, sign-in is refused', async () => {
    const { account, automationId, apiKey, device, trigger } = await equippedMember()
    // Everything works before: the key, the device, the trigger URL (a queued cloud run) and a client run on the device.
    expect((await call('/api/automations', { token: apiKey })).status).toBe(200)
    expect((await call('/api/devices/me', { token: device })).status).toBe(200)
    const queued = await fire(trigger)
    expect(queued.status, queued.message).toBe(202)
    const onDevice = await call<{ id: string; status: string }>(`/api/automations/${automationId}/runs`, {
      token: device,
      body: { where: 'client' },
    })
    expect(onDevice.data.status).toBe('running')
    const credits = await creditsOf(account.id)
    // The key holds a live event stream open, as a script watching its runs does.
    const stream = await t.request('/api/runs/events', { token: apiKey })
    expect(stream.status).toBe(200)
    const events = eventReader(stream)
    expect((await events.next()).event).toBe('ready')

    const suspended = await suspend(account.id)
    expect(suspended, suspended.message).toMatchObject({ status: 200, data: { sessionsEnded: 1, runsStopped: 2 } })

    // The stream delivers nothing more: the stopped runs' news finds the key's account suspended.
    await expect(events.next()).rejects.toThrow('the stream ended')
    expect(await call('/api/automations', { token: apiKey })).toMatchObject(SUSPENDED)
    expect(await call('/api/devices/me', { token: device })).toMatchObject(SUSPENDED)
    expect(await call(`/api/runs/${onDevice.data.id}/finish`, { token: device, body: { status: 'succeeded' } })).toMatchObject(SUSPENDED)
    expect((await call('/api/auth/me', { token: account.token })).status).toBe(401)
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, account.id))).toEqual([])

    const refused = await fire(trigger)
    expect(refused).toMatchObject({
      status: 403,
      code: 'ACCOUNT_SUSPENDED',
      message: 'This trigger URL belongs to a suspended account: it starts no runs until the account is restored.',
    })
    const theirRuns = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(theirRuns.map((run) => run.status).toSorted()).toEqual(['cancelled', 'cancelled'])
    // The queued run's credit came back; the log says why.
    expect(await creditsOf(account.id)).toBe((credits ?? 0) + 1)
    expect((await runOf(queued.data.id))?.log.at(-1)?.message).toBe(
      'Cancelled: the account that started it was suspended by support-lead@example.com.',
    )

    // The right password is told why; a wrong one learns nothing.
    expect(await login(account)).toMatchObject(SUSPENDED)
    const guess = await call('/api/auth/login', { body: { email: account.email, password: 'not-the-password' }, ip: t.freshIp() })
    expect(guess).toMatchObject({ status: 401, message: 'Invalid email or password' })

    const shown = await call<{ suspension: { reason: string; at: string } | null }>(`/api/users/${account.id}`, { token: admin.token })
    expect(shown.data.suspension).toMatchObject({ reason: 'Chargebacks on three cards' })
    const [entry] = (await auditFor(account.id)).filter((row) => row.action === 'user.suspend')
    expect(entry).toMatchObject({
      actor: { email: 'support-lead@example.com' },
      summary: `Suspended ${account.email}: Chargebacks on three cards (1 session ended, 2 runs stopped)`,
      after: { suspended: true, reason: 'Chargebacks on three cards', sessionsEnded: 1, runsStopped: 2 },
    })
  })

  it('starts no scheduled run of theirs: the schedule records why once and moves on', async () => {
    const { account, automationId } = await equippedMember()
    await t.db
      .update(automations)
      .set({ schedule: { kind: 'cron', expression: '0 * * * *', timeZone: 'UTC' }, nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(automations.id, automationId))
    await suspend(account.id)
    const result = await createScheduler({ db: t.db, runs: t.services.runs, logger: pino({ level: 'silent' }) }).tick()
    expect(result.started).toBe(0)
    const [refusal] = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(refusal).toMatchObject({
      status: 'failed',
      trigger: 'schedule',
      error: 'The account this schedule runs for is suspended: it starts no runs until the account is restored.',
    })
  })

  it('takes effect on another server process of the same database at once', async () => {
    const { account, apiKey } = await equippedMember()
    const session = await t.signUp()
    // A second app on the same database, as a second process behind the load balancer; its session lookup keeps what it read.
    const services = createServices({
      database: t.database,
      env: { ...testEnv(), DATA_DIR: t.dataDir },
      logger: pino({ level: 'silent' }),
      authSecret: TEST_AUTH_SECRET,
    })
    const other = createApp({ env: testEnv(), logger: pino({ level: 'silent' }), database: t.database, services })
    const onOther = (token: string) =>
      other.request('/api/auth/me', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.99' } })
    expect((await onOther(session.token)).status).toBe(200)
    expect((await onOther(session.token)).status).toBe(200)
    expect((await onOther(apiKey)).status).toBe(200)

    await suspend(session.id)
    await suspend(account.id)
    expect((await onOther(session.token)).status).toBe(401)
    const refused = await onOther(apiKey)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' })
  })

  it('is refused on oneself, on an admin, twice, without a reason, on nobody, and to anyone but an admin', async () => {
    const member = await t.signUp()
    const otherAdmin = await t.signUp({ role: 'admin' })
    expect(await suspend(admin.id)).toMatchObject({ status: 409, message: 'You cannot suspend your own account.' })
    expect(await suspend(otherAdmin.id)).toMatchObject({
      status: 409,
      message: `${otherAdmin.email} is an admin: remove their admin role before suspending them.`,
    })
    expect(await suspend(member.id, '   ')).toMatchObject({ status: 400, message: 'reason: Please give a reason.' })
    expect((await suspend('no-such-user')).status).toBe(404)
    expect((await suspend(admin.id, 'Payback', member.token)).status).toBe(403)
    expect((await unsuspend(member.id)).status).toBe(409)

    expect((await suspend(member.id)).status).toBe(200)
    expect(await suspend(member.id)).toMatchObject({ status: 409, message: `${member.email} is already suspended.` })
    // Nobody suspended becomes an admin.
    const promoted = await call(`/api/users/${member.id}`, { token: admin.token, method: 'PUT', body: { role: 'admin' } })
    expect(promoted).toMatchObject({ status: 409, message: `${member.email} is suspended: unsuspend them first.` })
    expect((await unsuspend(member.id, otherAdmin.token)).status).toBe(200)
  })
})

describe('unsuspending a member', () => {
  it('gives back their keys, device, trigger URL and sign-in, with nothing lost, and is audited with the reason', async () => {
    const { account, automationId, apiKey, device, trigger } = await equippedMember()
    await suspend(account.id, 'Reported for scraping a bank')
    expect(await call('/api/automations', { token: apiKey })).toMatchObject(SUSPENDED)

    expect(await unsuspend(account.id)).toMatchObject({ status: 200, data: { success: true } })
    const listed = await call<{ id: string }[]>('/api/automations', { token: apiKey })
    expect(listed.status).toBe(200)
    expect(listed.data.map((automation) => automation.id)).toContain(automationId)
    expect((await call('/api/devices/me', { token: device })).status).toBe(200)
    expect((await fire(trigger)).status).toBe(202)
    expect((await login(account)).status).toBe(200)
    const [row] = await t.db
      .select({ suspendedAt: users.suspendedAt, reason: users.suspensionReason })
      .from(users)
      .where(eq(users.id, account.id))
    expect(row).toEqual({ suspendedAt: null, reason: null })

    const [entry] = (await auditFor(account.id)).filter((item) => item.action === 'user.unsuspend')
    expect(entry?.summary).toMatch(
      new RegExp(
        `^Unsuspended ${account.email.replace('.', '\\.')} \\(suspended since \\d{4}-\\d{2}-\\d{2}: Reported for scraping a bank\\)$`,
      ),
    )
  })
})
