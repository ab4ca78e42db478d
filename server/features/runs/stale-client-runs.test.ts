import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createScheduler } from './scheduler.ts'

// Client runs their device left behind (issue 30): a side panel closed mid-run, a runner switched
// off before it took its scheduled run up. They end failed, saying so, and do not count.

const logger = pino({ level: 'silent' })
const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]
const MINUTE = 60_000

let t: TestApp
let member: Awaited<ReturnType<TestApp['signUp']>>

async function call(path: string, body?: unknown, token = member.token) {
  const response = await t.request(path, { token, body })
  return { status: response.status, body: (await response.json()) as { data: { id: string; status: string }; message?: string } }
}

async function automation(extra: Record<string, unknown> = {}) {
  const created = await call('/api/automations', { name: `Report ${Math.random()}`, steps: STEPS, ...extra })
  expect(created.status, created.body.message).toBe(201)
  return created.body.data.id
}

const runOf = async (id: string) => (await t.db.select().from(automationRuns).where(eq(automationRuns.id, id)))[0]
const age = (id: string, column: 'updatedAt' | 'createdAt', ms: number) =>
  t.db
    .update(automationRuns)
    .set({ [column]: new Date(Date.now() - ms) })
    .where(eq(automationRuns.id, id))

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await t?.close()
})

describe('client runs their device left behind', () => {
  it('a running one silent for 15 minutes ends failed, saying so, and does not count towards the month', async () => {
    const automationId = await automation()
    const silent = (await call(`/api/automations/${automationId}/runs`, { where: 'client' })).body.data
    const reporting = (await call(`/api/automations/${automationId}/runs`, { where: 'client' })).body.data
    expect(silent.status).toBe('running')
    await age(silent.id, 'updatedAt', 16 * MINUTE)
    await age(reporting.id, 'updatedAt', 14 * MINUTE)

    expect(await t.services.runQueue.endStaleClientRuns()).toBe(1)
    const ended = await runOf(silent.id)
    expect(ended).toMatchObject({
      status: 'failed',
      error:
        "Your device stopped reporting this run for 15 minutes (its browser or runner closed, or went offline). It does not count towards this month's runs.",
      refundedAt: expect.any(Date),
      finishedAt: expect.any(Date),
    })
    expect(ended?.log.at(-1)).toMatchObject({ level: 'error', message: ended?.error })
    expect(await runOf(reporting.id)).toMatchObject({ status: 'running', refundedAt: null })
    // A report after the end is refused: the run is over.
    const late = await call(`/api/runs/${silent.id}/progress`, { log: [{ level: 'info', message: 'still here' }] })
    expect(late.status).toBe(400)
  })

  it('a queued one its local runner did not take up within an hour ends failed, naming the device', async () => {
    const asked = await t.request('/api/devices/pairings', { body: { name: 'Shop PC', kind: 'runner', version: '0.1.0' }, ip: t.freshIp() })
    const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
    await t.services.pairings.approve(
      pairing.userCode,
      { id: member.id, email: member.email, twoFactorEnabled: false },
      member.id,
      t.freshIp(),
    )
    const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
    const runner = ((await collected.json()) as { data: { device: { id: string } } }).data.device
    const automationId = await automation({ schedule: '0 2 * * *', deviceId: runner.id })
    await createScheduler({ db: t.db, runs: t.services.runs, logger }).tick(new Date(Date.now() + 25 * 3600_000))
    const [queued] = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
    expect(queued).toMatchObject({ status: 'queued', runner: 'client', deviceId: runner.id })
    const id = queued?.id ?? ''

    await age(id, 'createdAt', 50 * MINUTE)
    expect(await t.services.runQueue.endStaleClientRuns()).toBe(0)
    await age(id, 'createdAt', 61 * MINUTE)
    expect(await t.services.runQueue.endStaleClientRuns()).toBe(1)
    expect(await runOf(id)).toMatchObject({
      status: 'failed',
      error:
        "Your device “Shop PC” was offline: it did not take this run up within 60 minutes. It does not count towards this month's runs.",
      refundedAt: expect.any(Date),
    })
    // Its runner, back online, finds nothing to take.
    expect(await t.services.runQueue.endStaleClientRuns()).toBe(0)
  })
})
