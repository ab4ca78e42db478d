import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { automationRuns, automations } from '#server/db/schema/index.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Schedules with kinds and time zones (docs/decisions/036), through the API on the database the
// tests run on (PGlite, or PostgreSQL with TEST_DATABASE_URL). The services and the scheduler share
// a clock the tests move, across the daylight-saving changes of 2026.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Body = {
  data: Record<string, unknown> & { id: string; schedule: Record<string, unknown> | null; nextRunAt: string | null }
  message?: string
  code?: string
  issues?: { path: string; message: string }[]
}

let now = new Date('2026-03-26T06:00:00Z')
let t: TestApp
let admin: Account
beforeAll(async () => {
  t = await createTestApp({ clock: () => now })
  admin = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri']
const logger = pino({ level: 'silent' })
const scheduler = () => createScheduler({ db: t.db, runs: t.services.runs, logger, clock: () => now })

async function call(account: Account, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await t.request(path, { ...init, token: account.token })
  return { status: response.status, body: (await response.json()) as Body }
}

async function create(account: Account, input: Record<string, unknown>) {
  const { status, body } = await call(account, '/api/automations', { body: { name: 'Scheduled', steps: STEPS, ...input } })
  expect(status, JSON.stringify(body)).toBe(201)
  return body.data
}

async function member(plan: 'free' | 'pro' | 'business', credits = 0) {
  const account = await t.signUp()
  expect((await call(admin, `/api/users/${account.id}`, { method: 'PUT', body: { plan, credits } })).status).toBe(200)
  return account
}

const runsOf = (automationId: string) =>
  t.db
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.trigger, 'schedule')))
const nextRunAt = async (id: string) => (await t.db.select().from(automations).where(eq(automations.id, id)))[0]?.nextRunAt?.toISOString()

/** Moves the clock to `at` and ticks; how many runs of the automation the schedule has started by then. */
async function tickAt(at: string, automationId: string) {
  now = new Date(at)
  await scheduler().tick()
  return (await runsOf(automationId)).length
}

describe('schedules through the API', () => {
  beforeEach(() => {
    now = new Date('2026-03-26T06:00:00Z')
  })

  it('takes a schedule of each kind and answers the same structure, with paused, and the next run in its zone', async () => {
    const owner = await member('pro')
    const weekdays = await create(owner, {
      schedule: { kind: 'weekly', days: ['fri', 'mon', 'tue', 'wed', 'thu'], time: '09:00', timeZone: 'Europe/Berlin' },
    })
    expect(weekdays.schedule).toEqual({ kind: 'weekly', days: WEEKDAYS, time: '09:00', timeZone: 'Europe/Berlin', paused: false })
    expect(weekdays.enabled).toBe(true)
    // Thursday 26 March 2026, 09:00 in Berlin (CET, UTC+1).
    expect(weekdays.nextRunAt).toBe('2026-03-26T08:00:00.000Z')
    expect((await call(owner, `/api/automations/${weekdays.id}`)).body.data.schedule).toEqual(weekdays.schedule)

    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'interval', every: 15, unit: 'minutes', timeZone: 'Europe/Berlin' }, '2026-03-26T06:15:00.000Z'],
      [{ kind: 'interval', every: 6, unit: 'hours', timeZone: 'Asia/Tokyo' }, '2026-03-26T09:00:00.000Z'],
      [{ kind: 'daily', time: '07:30', timeZone: 'America/New_York' }, '2026-03-26T11:30:00.000Z'],
      [{ kind: 'monthly', day: 31, time: '06:00', timeZone: 'Europe/London' }, '2026-03-31T05:00:00.000Z'],
      [{ kind: 'cron', expression: '0 12 * * *', timeZone: 'Australia/Sydney' }, '2026-03-27T01:00:00.000Z'],
    ]
    for (const [schedule, next] of cases) {
      const created = await create(owner, { schedule })
      expect(created.schedule).toEqual({ ...schedule, paused: false })
      expect(created.nextRunAt, JSON.stringify(schedule)).toBe(next)
    }
    const list = await call(owner, '/api/automations?limit=100')
    expect((list.body.data as unknown as Body['data'][]).map((row) => row.schedule?.kind).sort()).toEqual([
      'cron',
      'daily',
      'interval',
      'interval',
      'monthly',
      'weekly',
    ])
  })

  it('reads the older cron string as a custom cron schedule in UTC', async () => {
    const owner = await member('pro')
    const created = await create(owner, { schedule: '0 9 * * 1-5' })
    expect(created.schedule).toEqual({ kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC', paused: false })
    expect(created.nextRunAt).toBe('2026-03-26T09:00:00.000Z')
    const cleared = await call(owner, `/api/automations/${created.id}`, { method: 'PUT', body: { schedule: '' } })
    expect(cleared.body.data).toMatchObject({ schedule: null, nextRunAt: null })
  })

  it('refuses a wrong schedule with a message naming the field', async () => {
    const owner = await member('pro')
    const refusal = async (schedule: unknown, extra: Record<string, unknown> = {}) => {
      const { status, body } = await call(owner, '/api/automations', { body: { name: 'x', steps: STEPS, schedule, ...extra } })
      expect(status).toBe(400)
      return { message: body.message, path: body.issues?.[0]?.path }
    }
    expect(await refusal({ kind: 'daily', time: '9am', timeZone: 'UTC' })).toEqual({
      message: 'schedule.time: Time must be a time of day as HH:MM (24-hour), e.g. 09:00.',
      path: 'schedule.time',
    })
    expect(await refusal({ kind: 'daily', time: '09:00', timeZone: 'Mars/Olympus' })).toEqual({
      message: 'schedule.timeZone: Time zone must be an IANA time zone name, such as Europe/Berlin, America/New_York or UTC.',
      path: 'schedule.timeZone',
    })
    expect((await refusal({ kind: 'daily', time: '09:00' })).path).toBe('schedule.timeZone')
    expect((await refusal({ kind: 'yearly', timeZone: 'UTC' })).message).toBe(
      'schedule.kind: Schedule kind must be one of interval, daily, weekly, monthly, cron.',
    )
    expect((await refusal({ kind: 'interval', every: 7, unit: 'minutes', timeZone: 'UTC' })).message).toBe(
      'schedule.every: Every must split an hour evenly: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30 minutes.',
    )
    expect((await refusal({ kind: 'weekly', days: [], time: '09:00', timeZone: 'UTC' })).message).toBe(
      'schedule.days: Choose at least one day.',
    )
    expect((await refusal({ kind: 'monthly', day: 0, time: '09:00', timeZone: 'UTC' })).path).toBe('schedule.day')
    expect((await refusal({ kind: 'cron', expression: '0 9 * *', timeZone: 'UTC' })).path).toBe('schedule.expression')
    expect((await refusal(12)).message).toMatch(/^schedule: Schedule must be an object with kind/)
    expect(await refusal({ kind: 'daily', time: '09:00', timeZone: 'UTC', paused: true }, { enabled: true })).toEqual({
      message: 'enabled: enabled is true but schedule.paused is true: send one of them (enabled is the opposite of paused).',
      path: 'enabled',
    })
  })

  it('pauses and resumes without losing the schedule', async () => {
    const owner = await member('pro')
    const schedule = { kind: 'daily', time: '07:30', timeZone: 'Europe/Berlin' }
    const created = await create(owner, { schedule: { ...schedule, paused: true } })
    expect(created).toMatchObject({ schedule: { ...schedule, paused: true }, enabled: false, nextRunAt: null })
    const path = `/api/automations/${created.id}`
    const resumed = await call(owner, path, { method: 'PUT', body: { schedule: { ...schedule, paused: false } } })
    expect(resumed.body.data).toMatchObject({
      schedule: { ...schedule, paused: false },
      enabled: true,
      nextRunAt: '2026-03-26T06:30:00.000Z',
    })
    // The older way: enabled false pauses, and the schedule stays.
    const paused = await call(owner, path, { method: 'PUT', body: { enabled: false } })
    expect(paused.body.data).toMatchObject({ schedule: { ...schedule, paused: true }, nextRunAt: null })
    // Other changes, and the same schedule sent again without paused, leave it paused.
    const renamed = await call(owner, path, { method: 'PUT', body: { name: 'Renamed', schedule } })
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', schedule: { ...schedule, paused: true }, nextRunAt: null })
    const again = await call(owner, path, { method: 'PUT', body: { enabled: true } })
    expect(again.body.data).toMatchObject({ schedule: { ...schedule, paused: false }, nextRunAt: '2026-03-26T06:30:00.000Z' })
    // A copy keeps the schedule, paused.
    const copy = await call(owner, `${path}/duplicate`, { body: {} })
    expect(copy.body.data).toMatchObject({ schedule: { ...schedule, paused: true }, nextRunAt: null })
  })

  it("keeps schedules to the plan's shortest interval, naming the plan that allows shorter ones", async () => {
    const free = await member('free')
    const refused = await call(free, '/api/automations', {
      body: { name: 'Often', steps: STEPS, schedule: { kind: 'interval', every: 5, unit: 'minutes', timeZone: 'UTC' } },
    })
    expect(refused.status).toBe(409)
    const message =
      'Schedules on the Free plan run at most every 15 minutes; this one runs every 5 minutes. The Pro plan runs schedules every 5 minutes: choose a longer interval or upgrade.'
    expect(refused.body).toMatchObject({ code: 'PLAN_LIMIT', message, issues: [{ path: 'schedule', message }] })
    // A cron expression is measured by its runs: */10 between 9 and 10 runs every 10 minutes.
    const cron = await call(free, '/api/automations', { body: { name: 'Cron', steps: STEPS, schedule: '*/10 9 * * *' } })
    expect(cron.body.message).toMatch(
      /^Schedules on the Free plan run at most every 15 minutes; this one runs every 10 minutes\. The Pro plan/,
    )
    const quarter = await create(free, { schedule: { kind: 'interval', every: 15, unit: 'minutes', timeZone: 'UTC' } })

    const pro = await member('pro')
    const fiveMinutes = { kind: 'interval', every: 5, unit: 'minutes', timeZone: 'UTC' }
    const often = await create(pro, { schedule: fiveMinutes })
    const everyMinute = await call(pro, `/api/automations/${often.id}`, {
      method: 'PUT',
      body: { schedule: { kind: 'interval', every: 1, unit: 'minutes', timeZone: 'UTC' } },
    })
    expect(everyMinute.body.message).toBe(
      'Schedules on the Pro plan run at most every 5 minutes; this one runs every minute. The Business plan has no minimum interval: choose a longer interval or upgrade.',
    )

    // After a move to Free, the schedule saved before keeps firing and other changes still save;
    // a changed schedule is held to the new plan.
    expect((await call(admin, `/api/users/${pro.id}`, { method: 'PUT', body: { plan: 'free' } })).status).toBe(200)
    const renamed = await call(pro, `/api/automations/${often.id}`, { method: 'PUT', body: { name: 'Still often', schedule: fiveMinutes } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.data.nextRunAt).toBe('2026-03-26T06:05:00.000Z')
    const moved = await call(pro, `/api/automations/${often.id}`, {
      method: 'PUT',
      body: { schedule: { ...fiveMinutes, timeZone: 'Europe/Berlin' } },
    })
    expect(moved.body.code).toBe('PLAN_LIMIT')
    expect(quarter.nextRunAt).toBe('2026-03-26T06:15:00.000Z')
  })

  it('fires a schedule created in Europe/Berlin at 09:00 Berlin time before and after the spring change', async () => {
    const owner = await member('pro', 100)
    const automation = await create(owner, { schedule: { kind: 'weekly', days: WEEKDAYS, time: '09:00', timeZone: 'Europe/Berlin' } })
    expect(automation.nextRunAt).toBe('2026-03-26T08:00:00.000Z')
    expect(await tickAt('2026-03-26T07:59:30Z', automation.id)).toBe(0)
    // Thursday and Friday at 09:00 CET (08:00 UTC).
    expect(await tickAt('2026-03-26T08:00:02Z', automation.id)).toBe(1)
    expect(await nextRunAt(automation.id)).toBe('2026-03-27T08:00:00.000Z')
    expect(await tickAt('2026-03-27T08:00:02Z', automation.id)).toBe(2)
    // Clocks go forward on Sunday 29 March: Monday 09:00 is CEST (07:00 UTC), not 08:00 UTC.
    expect(await nextRunAt(automation.id)).toBe('2026-03-30T07:00:00.000Z')
    expect(await tickAt('2026-03-30T06:59:59Z', automation.id)).toBe(2)
    expect(await tickAt('2026-03-30T07:00:02Z', automation.id)).toBe(3)
    expect(await nextRunAt(automation.id)).toBe('2026-03-31T07:00:00.000Z')
    const runs = await runsOf(automation.id)
    expect(runs.every((run) => run.status === 'queued' && run.runner === 'cloud' && run.creditsCharged === 1)).toBe(true)
  })

  it('fires at the local time across the autumn change, in Europe/Berlin and America/New_York', async () => {
    const owner = await member('pro', 100)
    now = new Date('2026-10-22T12:00:00Z')
    const berlin = await create(owner, { schedule: { kind: 'weekly', days: WEEKDAYS, time: '09:00', timeZone: 'Europe/Berlin' } })
    const newYork = await create(owner, { schedule: { kind: 'daily', time: '07:30', timeZone: 'America/New_York' } })
    // Friday 23 October, 09:00 CEST; then Monday 26 October, 09:00 CET.
    expect(berlin.nextRunAt).toBe('2026-10-23T07:00:00.000Z')
    expect(await tickAt('2026-10-23T07:00:01Z', berlin.id)).toBe(1)
    expect(await nextRunAt(berlin.id)).toBe('2026-10-26T08:00:00.000Z')
    expect(await tickAt('2026-10-26T07:00:01Z', berlin.id)).toBe(1)
    expect(await tickAt('2026-10-26T08:00:01Z', berlin.id)).toBe(2)
    // New York falls back on Sunday 1 November: 07:30 EDT is 11:30 UTC, 07:30 EST 12:30 UTC.
    now = new Date('2026-10-31T00:00:00Z')
    await t.db
      .update(automations)
      .set({ nextRunAt: new Date('2026-10-31T11:30:00Z') })
      .where(eq(automations.id, newYork.id))
    const before = (await runsOf(newYork.id)).length
    expect(await tickAt('2026-10-31T11:30:01Z', newYork.id)).toBe(before + 1)
    expect(await nextRunAt(newYork.id)).toBe('2026-11-01T12:30:00.000Z')
    expect(await tickAt('2026-11-01T11:30:01Z', newYork.id)).toBe(before + 1)
    expect(await tickAt('2026-11-01T12:30:01Z', newYork.id)).toBe(before + 2)
    expect(await nextRunAt(newYork.id)).toBe('2026-11-02T12:30:00.000Z')
  })

  it('is described by the OpenAPI document and automation.schema.json', async () => {
    const document = (await (await t.request('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>
      >
      components: { schemas: Record<string, { properties: Record<string, unknown> }> }
    }
    const input = JSON.stringify(document.paths['/automations']?.post?.requestBody?.content['application/json']?.schema.properties.schedule)
    for (const kind of ['interval', 'daily', 'weekly', 'monthly', 'cron']) expect(input).toContain(`"const":"${kind}"`)
    expect(input).toContain('"timeZone"')
    expect(input).toContain('five-field cron string')
    const answer = JSON.stringify(document.components.schemas.Automation?.properties.schedule)
    expect(answer).toContain('"paused"')
    expect(answer).toContain('"enum":["weekly"]')

    const response = await t.request('/api/automations/automation.schema.json')
    expect(response.status).toBe(200)
    const schema = (await response.json()) as { title: string; properties: Record<string, { items?: { oneOf?: unknown[] } }> }
    expect(schema.title).toBe('Aether automation (steps version 4)')
    expect(JSON.stringify(schema.properties.schedule)).toContain('"enum":["mon","tue","wed","thu","fri","sat","sun"]')
    expect(schema.properties.steps?.items?.oneOf).toHaveLength(37)
  })
})
