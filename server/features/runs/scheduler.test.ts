import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { automationRuns, automations, creditLedger, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createScheduler } from './scheduler.ts'
import { personalCaller } from '#server/testing/callers.ts'

const logger = pino({ level: 'silent' })
const STEPS = [{ type: 'navigate' as const, url: 'https://example.com/' }]

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const scheduler = () => createScheduler({ db: t.db, runs: t.services.runs, logger })

async function member(plan = 'pro', credits = 100) {
  const account = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: plan, credits }).where(eq(workspaces.id, account.id))
  return account
}

const cron = (expression: string) => ({ kind: 'cron' as const, expression, timeZone: 'UTC' })

async function scheduled(ownerId: string, options: { enabled?: boolean } = {}) {
  const automation = await t.services.automations.create(personalCaller({ id: ownerId }), {
    name: 'Every quarter hour',
    description: '',
    steps: STEPS,
    // The Free plan's shortest interval (docs/decisions/036).
    schedule: cron('*/15 * * * *'),
    enabled: options.enabled ?? true,
  })
  await makeDue(automation.id)
  return automation
}

/** As if the schedule's time had come a moment ago. */
const makeDue = (id: string) =>
  t.db
    .update(automations)
    .set({ nextRunAt: new Date(Date.now() - 1000) })
    .where(eq(automations.id, id))

const runsOf = (automationId: string) => t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
const nextRunAt = async (id: string) => (await t.db.select().from(automations).where(eq(automations.id, id)))[0]?.nextRunAt

describe('scheduler', () => {
  // Earlier tests' schedules come due again when a quarter hour turns: each test counts only its own.
  beforeEach(async () => {
    await t.db.update(automations).set({ enabled: false })
  })

  it('starts one cloud run for a due automation even when ticks run at the same time, and moves the schedule on', async () => {
    const owner = await member()
    const automation = await scheduled(owner.id)
    const results = await Promise.all([scheduler().tick(), scheduler().tick(), scheduler().tick()])
    expect(results.reduce((sum, result) => sum + result.started, 0)).toBe(1)

    const runs = await runsOf(automation.id)
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ status: 'queued', trigger: 'schedule', runner: 'cloud', creditsCharged: 1, userId: owner.id })
    const next = await nextRunAt(automation.id)
    expect(next?.getTime()).toBeGreaterThan(Date.now())
    expect(next?.getUTCSeconds()).toBe(0)

    // Not due any more: a later tick does nothing.
    await scheduler().tick()
    expect(await runsOf(automation.id)).toHaveLength(1)
  })

  it('fires a schedule missed while the server was down once, not once per missed time', async () => {
    const owner = await member()
    const automation = await scheduled(owner.id)
    await t.db
      .update(automations)
      .set({ nextRunAt: new Date(Date.now() - 3 * 60 * 60 * 1000) })
      .where(eq(automations.id, automation.id))
    await scheduler().tick()
    await scheduler().tick()
    expect(await runsOf(automation.id)).toHaveLength(1)
  })

  it('leaves disabled, unscheduled and not-yet-due automations alone', async () => {
    const owner = await member()
    const disabled = await scheduled(owner.id, { enabled: false })
    const manual = await t.services.automations.create(personalCaller(owner), {
      name: 'Manual',
      description: '',
      steps: STEPS,
      schedule: null,
      enabled: true,
    })
    const later = await t.services.automations.create(personalCaller(owner), {
      name: 'Later',
      description: '',
      steps: STEPS,
      schedule: cron('0 0 1 1 *'),
      enabled: true,
    })
    await scheduler().tick()
    for (const automation of [disabled, manual, later]) expect(await runsOf(automation.id)).toHaveLength(0)
  })

  it('records a refused start once per streak, without a charge and without counting it against the month', async () => {
    const owner = await member('free', 0)
    const automation = await scheduled(owner.id)
    const result = await scheduler().tick()
    expect(result).toMatchObject({ started: 0, refused: 1 })

    const [refused] = await runsOf(automation.id)
    expect(refused).toMatchObject({
      status: 'failed',
      trigger: 'schedule',
      runner: 'cloud',
      creditsCharged: 0,
      startedAt: null,
      error: expect.stringContaining('your balance is 0'),
    })
    expect(refused?.log[0]?.message).toMatch(/^Not started: Running in the cloud costs 1 credit/)
    expect(await t.services.runs.runsThisMonth(owner.id)).toBe(0)
    expect(
      await t.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.workspaceId, owner.id), eq(creditLedger.reason, 'usage'))),
    ).toEqual([])
    expect((await nextRunAt(automation.id))?.getTime()).toBeGreaterThan(Date.now())

    // The same refusal next time adds nothing; once the member has credits again, it runs.
    await makeDue(automation.id)
    expect(await scheduler().tick()).toMatchObject({ refused: 1 })
    expect(await runsOf(automation.id)).toHaveLength(1)
    await t.db.update(workspaces).set({ credits: 3 }).where(eq(workspaces.id, owner.id))
    await makeDue(automation.id)
    expect(await scheduler().tick()).toMatchObject({ started: 1 })
    expect((await runsOf(automation.id)).map((run) => run.status).sort()).toEqual(['failed', 'queued'])
    expect(await t.services.runs.runsThisMonth(owner.id)).toBe(1)
  })

  it('start() runs once at start-up and then on its interval, and stop() waits for a tick in progress', async () => {
    const owner = await member()
    const automation = await scheduled(owner.id)
    const instance = scheduler()
    instance.start(60_000)
    await instance.stop()
    expect(await runsOf(automation.id)).toHaveLength(1)
  })
})
