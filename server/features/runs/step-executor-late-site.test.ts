import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startLateRenderingSite } from '#server/testing/late-rendering-site.ts'
import type { Caller } from '#common/auth.ts'
import { createStepExecutor } from './step-executor.ts'
import type { Run } from './run.service.ts'

// A run on a page drawn as single-page apps draw themselves (late-rendering-site.ts): drawn after
// load, usable only a while later, the whole view drawn anew after a click.

const WORKER = 'test-host:1:late'
const logger = pino({ level: 'silent' })
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })
let t: TestApp
let site: Awaited<ReturnType<typeof startLateRenderingSite>>
let caller: Caller

beforeAll(async () => {
  t = await createTestApp()
  site = await startLateRenderingSite()
  const member = await t.signUp()
  caller = personalCaller(member)
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
})

async function run(steps: AutomationStep[]): Promise<Run> {
  const automation = await t.services.automations.create(caller, { name: 'Books', description: '', steps, schedule: null, enabled: true })
  const queued = await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual' })
  const claimed = (await t.services.runQueue.claim(WORKER)) as Run
  expect(claimed.id).toBe(queued.id)
  const executor = createStepExecutor({
    reporting: t.services.runQueue,
    runFiles: t.services.runFiles,
    browsers,
    logger,
    config: { stepTimeoutMs: 5_000, timeLimitMs: 60_000, maxActions: 100, privateTargets: 'loopback', heartbeatMs: 200 },
  })
  await executor.execute(claimed, WORKER)
  return t.services.runs.get(queued.id, caller)
}

describe('a run on a page its script draws late', () => {
  it('types once the page is usable, and reads the list the click drew, not the one before', async () => {
    const done = await run([
      { type: 'navigate', url: `${site.url}/` },
      { type: 'type', target: [{ by: 'placeholder', text: 'Book title' }], text: 'Dune' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Search' }] },
      { type: 'extract', target: [{ by: 'css', selector: 'li.book' }], field: 'book' },
      { type: 'assertText', text: 'Found 2 books for Dune' },
    ])
    expect(done).toMatchObject({ status: 'succeeded', error: null })
    expect(done.extracted).toEqual([{ book: 'Dune' }, { book: 'Dune Messiah' }])
  })
})
