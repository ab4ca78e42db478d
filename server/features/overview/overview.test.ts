import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, automationRuns, creditLedger, dailyStats, payments, subscriptions, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createOverviewService, OVERVIEW_FRESH_MS } from './overview.service.ts'

// The figures are counted for a day far from the test's own sign-ups, so only what a test puts there counts.
const NOW = new Date('2100-01-15T12:00:00.000Z')
const TODAY = '2100-01-15'
const YESTERDAY = '2100-01-14'
const at = (day: string, time: string) => new Date(`${day}T${time}.000Z`)
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000)

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'founder@example.com', role: 'admin' })
  member = await t.signUp({ email: 'customer@example.com' })
})
afterAll(async () => {
  await t.close()
})

async function run(
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled',
  times: { createdAt: Date; startedAt?: Date; finishedAt?: Date },
  error?: string,
) {
  await t.db.insert(automationRuns).values({
    automationName: 'Export invoices',
    workspaceId: member.id,
    userId: member.id,
    status,
    trigger: 'manual',
    runner: 'cloud',
    steps: [],
    error: error ?? null,
    ...times,
  })
}

const ended = (status: 'succeeded' | 'failed' | 'cancelled', finishedAt: Date, error?: string) =>
  run(status, { createdAt: new Date(finishedAt.getTime() - 60_000), startedAt: new Date(finishedAt.getTime() - 50_000), finishedAt }, error)

async function signUpOn(createdAt: Date, email: string) {
  const account = await t.signUp({ email })
  await t.db.update(users).set({ createdAt }).where(eq(users.id, account.id))
}

let balance = 1000
async function ledger(reason: 'usage' | 'model_call' | 'refund', delta: number, createdAt: Date) {
  balance += delta
  await t.db.insert(creditLedger).values({ workspaceId: member.id, delta, balanceAfter: balance, reason, createdAt })
}

async function subscriptionChange(before: string | null, after: string, createdAt: Date) {
  await t.db.insert(auditLog).values({
    workspaceId: member.id,
    actorEmail: 'Payment provider',
    action: before ? 'subscription.update' : 'subscription.create',
    targetType: 'subscription',
    targetId: `sub_${createdAt.getTime()}`,
    summary: 'A change',
    before: before ? { plan: 'pro', status: before } : null,
    after: { plan: 'pro', status: after },
    createdAt,
  })
}

async function payment(status: 'success' | 'failed', amount: number, createdAt: Date, currency = 'USD') {
  await t.db.insert(payments).values({
    workspaceId: member.id,
    providerTransactionId: `txn_${createdAt.getTime()}_${status}_${currency}`,
    amount,
    creditApplied: status === 'success' ? 1 : 0,
    currency,
    status,
    createdAt,
  })
}

describe('the overview of the business', () => {
  beforeAll(async () => {
    // Yesterday: two sign-ups, five runs ended, credits, a trial begun, a payment.
    await signUpOn(at(YESTERDAY, '09:00:00'), 'first@example.com')
    await signUpOn(at(YESTERDAY, '23:59:59'), 'second@example.com')
    for (const status of ['succeeded', 'succeeded', 'succeeded', 'cancelled'] as const) await ended(status, at(YESTERDAY, '10:00:00'))
    await ended('failed', at(YESTERDAY, '10:00:00'), 'The page took too long to load')
    await ledger('usage', -5, at(YESTERDAY, '10:00:00'))
    await ledger('model_call', -2, at(YESTERDAY, '10:00:00'))
    await ledger('model_call', -2, at(YESTERDAY, '11:00:00'))
    await ledger('refund', 1, at(YESTERDAY, '12:00:00'))
    await subscriptionChange(null, 'trialing', at(YESTERDAY, '13:00:00'))
    await payment('success', 28, at(YESTERDAY, '14:00:00'))
    await payment('success', 500, at(YESTERDAY, '14:00:00'), 'JPY')
    // Three days ago: a trial paid for, one run out, a paid subscription ended, a plan change.
    await subscriptionChange('trialing', 'active', at('2100-01-12', '08:00:00'))
    await subscriptionChange('trialing', 'canceled', at('2100-01-12', '09:00:00'))
    await subscriptionChange('active', 'canceled', at('2100-01-12', '10:00:00'))
    await subscriptionChange('active', 'active', at('2100-01-12', '11:00:00'))
    // Today so far: a sign-up, two failed runs, a failed payment. Later today (after NOW) does not count yet.
    await signUpOn(at(TODAY, '08:00:00'), 'third@example.com')
    await ended('failed', at(TODAY, '08:00:00'), 'The page took too long to load')
    await ended('failed', at(TODAY, '09:00:00'), 'No element matches “Save”')
    await ended('succeeded', at(TODAY, '13:00:00'))
    await payment('failed', 29, at(TODAY, '07:00:00'))
    // Outside the window: 40 days ago.
    await ended('succeeded', at('2099-12-06', '10:00:00'))
    await signUpOn(at('2099-12-06', '10:00:00'), 'old@example.com')
    // The cloud queue: one run waiting ten minutes; one started after 30 s, half an hour ago.
    await run('queued', { createdAt: minutesAgo(10) })
    await run('running', { createdAt: minutesAgo(30), startedAt: new Date(minutesAgo(30).getTime() + 30_000) })
  })

  it('counts the last 30 days a day at a time: finished days rolled up once, today so far counted live', async () => {
    const overview = await t.services.overview.overview(NOW)
    expect(overview.days).toHaveLength(30)
    expect(overview.days[0]?.day).toBe('2099-12-17')
    expect(overview.days.at(-1)).toMatchObject({ day: TODAY, today: true, signUps: 1, runsFailed: 2, runsSucceeded: 0 })
    // Nothing spent is 0, not -0 (a page rendered by the server and again in the browser must read the same).
    expect(overview.days.at(-1)?.creditsSpent).toBe(0)
    expect(overview.days.at(-1)?.modelCredits).toBe(0)
    expect(overview.days.at(-2)).toEqual({
      day: YESTERDAY,
      today: false,
      signUps: 2,
      runsSucceeded: 3,
      runsFailed: 1,
      runsCancelled: 1,
      creditsSpent: 9,
      creditsRefunded: 1,
      modelCalls: 2,
      modelCredits: 4,
      trialsStarted: 1,
      trialsConverted: 0,
      trialsExpired: 0,
      cancellations: 0,
      revenue: 29,
    })
    expect(overview.days.find((day) => day.day === '2100-01-12')).toMatchObject({ trialsConverted: 1, trialsExpired: 1, cancellations: 1 })
    expect(overview.last30Days).toMatchObject({
      signUps: 3,
      runsSucceeded: 3,
      runsFailed: 3,
      trialsStarted: 1,
      trialsConverted: 1,
      trialsExpired: 1,
      cancellations: 1,
      revenue: 29,
    })
    // The finished days are kept: 29 of the window, and the 90 days a pass fills.
    const rows = await t.db.select({ day: dailyStats.day }).from(dailyStats)
    expect(rows.map((row) => row.day)).toContain(YESTERDAY)
    expect(rows.map((row) => row.day)).not.toContain(TODAY)
  })

  it('counts the last two days again on every pass, and leaves older rolled-up days as they are', async () => {
    await t.services.dailyRollup.rollUp(NOW)
    await ended('succeeded', at(YESTERDAY, '22:00:00'))
    await ended('succeeded', at('2100-01-05', '22:00:00'))
    expect(await t.services.dailyRollup.rollUp(NOW)).toBe(2)
    const overview = await t.services.overview.overview(NOW)
    expect(overview.days.at(-2)?.runsSucceeded).toBe(4)
    expect(overview.days.find((day) => day.day === '2100-01-05')?.runsSucceeded).toBe(0)
  })

  it('says what went wrong in the last 24 hours, the most common run errors first', async () => {
    const { errors } = await t.services.overview.overview(NOW)
    expect(errors).toMatchObject({ since: '2100-01-14T12:00:00.000Z', failedRuns: 2, failedPayments: 1, failedWebhookDeliveries: 0 })
    expect(errors.topRunErrors).toEqual([
      { message: 'No element matches “Save”', count: 1 },
      { message: 'The page took too long to load', count: 1 },
    ])
  })

  it('shows the cloud queue: runs waiting, the oldest wait and the last hour’s average wait', async () => {
    const { queue } = await t.services.overview.overview(NOW)
    expect(queue).toEqual({ depth: 1, oldestWaitSeconds: 600, startedLastHour: 1, averageWaitSeconds: 30 })
  })

  it('counts monthly recurring revenue from paid subscriptions, and its change since the earliest day the roll-up noted it', async () => {
    const subscription = (status: string, planSlug: string) => ({
      workspaceId: member.id,
      provider: 'sandbox' as const,
      providerSubscriptionId: `sub_${status}_${planSlug}`,
      planSlug,
      status,
      lastEventAt: NOW,
    })
    await t.db
      .insert(subscriptions)
      .values([
        subscription('active', 'pro'),
        subscription('past_due', 'business'),
        subscription('trialing', 'pro'),
        subscription('canceled', 'business'),
        subscription('active', 'free'),
      ])
    const { mrr, subscriptionsByPlan } = await t.services.overview.overview(NOW)
    expect(mrr).toMatchObject({ amount: 108, paying: 2 })
    expect(subscriptionsByPlan).toEqual([
      { plan: 'pro', name: 'Pro', paying: 1, trialing: 1 },
      { plan: 'business', name: 'Business', paying: 1, trialing: 0 },
      { plan: 'free', name: 'Free', paying: 1, trialing: 0 },
    ])
    await t.db.update(dailyStats).set({ mrr: 50, payingSubscriptions: 1 }).where(eq(dailyStats.day, '2099-12-26'))
    expect((await t.services.overview.overview(NOW)).mrr.change).toEqual({ amount: 58, since: '2099-12-26' })
  })

  it('answers one computation for half a minute (requests meanwhile share it), then counts again', async () => {
    let now = new Date()
    const overview = createOverviewService({ db: t.db, rollup: t.services.dailyRollup, clock: () => now })
    const [first, together] = await Promise.all([overview.overview(), overview.overview()])
    expect(together).toBe(first)
    await signUpOn(now, 'while-kept@example.com')
    now = new Date(now.getTime() + OVERVIEW_FRESH_MS - 1)
    expect(await overview.overview()).toBe(first)
    now = new Date(now.getTime() + 1)
    const later = await overview.overview()
    expect(later.asOf).toBe(now.toISOString())
    expect(later.days.at(-1)?.signUps).toBe((first.days.at(-1)?.signUps ?? 0) + 1)
  })

  it('is the admin’s alone on the API', async () => {
    const response = await t.request('/api/overview', { token: admin.token })
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: { days: unknown[]; mrr: { amount: number } } }
    expect(data.days).toHaveLength(30)
    expect(data.mrr.amount).toBe(108)
    expect((await t.request('/api/overview', { token: member.token })).status).toBe(403)
    expect((await t.request('/api/overview')).status).toBe(401)
  })
})
