import { existsSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Caller } from '#common/auth.ts'
import type { RunStep } from '#common/run-steps.ts'
import { automationRuns, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createRunRetention } from './run-retention.ts'

// Run files after their plan's retention (docs/decisions/057): removed from disk, the run kept.

let t: TestApp
const DAY = 24 * 60 * 60 * 1000
const NOW = new Date('2026-12-03T12:00:00Z')

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const step = (screenshot: string | null): RunStep => ({
  step: 1,
  round: null,
  words: 'https://example.com',
  target: null,
  repaired: null,
  startedAt: new Date(NOW.getTime() - 40 * DAY).toISOString(),
  ms: 120,
  outcome: 'done',
  error: null,
  screenshot,
  extracted: null,
})

/** A finished run of the caller's, `daysAgo` days before NOW, with a screenshot and a step picture on disk. */
async function finishedRun(caller: Caller, daysAgo: number) {
  const automation = await t.services.automations.create(caller, {
    name: 'Kept files',
    description: '',
    steps: [{ type: 'navigate', url: 'https://example.com' }],
    schedule: null,
    enabled: true,
  })
  const run = await t.services.runs.start(automation.id, caller, { runner: 'client', trigger: 'manual' })
  await t.services.runFiles.saveScreenshot(run.id, 'step-1-1.png', new Uint8Array([0x89, 0x50]))
  await t.services.runFiles.saveScreenshot(run.id, 'after-1.jpg', new Uint8Array([0xff, 0xd8, 0xff]))
  await t.db
    .update(automationRuns)
    .set({
      status: 'succeeded',
      finishedAt: new Date(NOW.getTime() - daysAgo * DAY),
      screenshots: [{ name: 'At failure', file: 'step-1-1.png', step: 1 }],
      timeline: [step('after-1.jpg')],
      storedBytes: 5,
    })
    .where(eq(automationRuns.id, run.id))
  return run.id
}

const folderOf = (runId: string) => path.join(t.dataDir, 'runs', runId)
const rowOf = async (runId: string) => (await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId)))[0]

describe('run files retention', () => {
  it('removes the files of runs older than their plan keeps them, and keeps the run, its log and its timeline', async () => {
    const member = await t.signUp()
    const free = personalCaller(member)
    const business = personalCaller(await t.signUp())
    await t.db.update(subscriptionPlans).set({ runFilesDays: 7 }).where(eq(subscriptionPlans.slug, 'free'))
    await t.db.update(subscriptionPlans).set({ runFilesDays: null }).where(eq(subscriptionPlans.slug, 'business'))
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, business.id))

    const old = await finishedRun(free, 8)
    const recent = await finishedRun(free, 6)
    const keptForever = await finishedRun(business, 400)

    const retention = createRunRetention({ db: t.db, runFiles: t.services.runFiles, logger: pino({ level: 'silent' }) })
    expect(await retention.sweep(NOW)).toBe(1)

    expect(existsSync(folderOf(old))).toBe(false)
    const swept = await rowOf(old)
    expect(swept).toMatchObject({ status: 'succeeded', screenshots: [], files: [], storedBytes: 0, filesRemovedAt: NOW })
    expect(swept?.timeline).toEqual([step(null)])
    // The API no longer offers the picture, and says when the files went.
    const answer = await t.request(`/api/runs/${old}`, { token: member.token })
    expect(((await answer.json()) as { data: object }).data).toMatchObject({
      filesRemovedAt: NOW.toISOString(),
      screenshots: [],
      timeline: [{ step: 1, screenshotUrl: null }],
    })

    for (const id of [recent, keptForever]) {
      expect(existsSync(path.join(folderOf(id), 'after-1.jpg'))).toBe(true)
      expect(await rowOf(id)).toMatchObject({ storedBytes: 5, filesRemovedAt: null })
    }
    // A second sweep finds nothing more.
    expect(await retention.sweep(NOW)).toBe(0)
  })
})
