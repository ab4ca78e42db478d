import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startWorkflowSite } from '#server/testing/workflow-site.ts'
import type { RunDataSource } from '#server/tables/data-sources.ts'
import type { RunDto } from './run.dto.ts'
import type { Run } from './run.service.ts'
import { createStepExecutor } from './step-executor.ts'

// The step timeline (docs/decisions/057): every step a cloud run carries out is recorded with its
// words, the way its element was found, its time, a picture of the page after it and what it
// extracted; a failure with its error and picture. Judged by what the run stores and the API serves.

const WORKER = 'test-host:1:timeline'
const logger = pino({ level: 'silent' })
let t: TestApp
let site: Awaited<ReturnType<typeof startWorkflowSite>>
let caller: Caller
let token: string
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })

beforeAll(async () => {
  t = await createTestApp()
  site = await startWorkflowSite()
  const member = await t.signUp()
  token = member.token
  caller = personalCaller(member)
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 500 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
})

async function run(steps: AutomationStep[], data?: RunDataSource): Promise<Run> {
  const automation = await t.services.automations.create(caller, {
    name: 'Timeline',
    description: '',
    steps,
    schedule: null,
    enabled: true,
  })
  const queued = await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual', data })
  const claimed = await t.services.runQueue.claim(WORKER)
  expect(claimed?.id).toBe(queued.id)
  await createStepExecutor({
    reporting: t.services.runQueue,
    runFiles: t.services.runFiles,
    browsers,
    logger,
    config: { stepTimeoutMs: 3_000, timeLimitMs: 60_000, maxActions: 200, privateTargets: 'loopback', heartbeatMs: 500 },
  }).execute({ ...(claimed as Run), inputs: claimed?.inputs ?? {} }, WORKER)
  return t.services.runs.get(queued.id, caller)
}

const label = (text: string) => [{ by: 'label' as const, text }]
const JPEG = Buffer.from([0xff, 0xd8, 0xff])

async function runDto(id: string): Promise<RunDto> {
  const response = await t.request(`/api/runs/${id}`, { token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: RunDto }).data
}

describe('the step timeline of a cloud run', () => {
  it('records every step with its words, the way it found its element, its time, a picture after it and what it extracted', async () => {
    const finished = await run(
      [
        { type: 'forEachRow', onRowError: 'stop' },
        { type: 'navigate', url: `${site.url}/order` },
        { type: 'type', target: label('Customer name'), text: '{{row.name}}' },
        { type: 'end' },
        { type: 'navigate', url: `${site.url}/shop` },
        { type: 'extract', target: [{ by: 'css', selector: 'article.product .name' }], field: 'product' },
        // Its first way finds nothing: the second does (a repair by another way the step had).
        {
          type: 'click',
          target: [
            { by: 'css', selector: '#no-such-link' },
            { by: 'role', role: 'link', name: 'Next' },
          ],
        },
      ],
      { rows: [{ name: 'Ada' }, { name: 'Grace' }] },
    )
    expect(finished.error).toBeNull()
    expect(finished.status).toBe('succeeded')

    const { timeline } = finished
    expect(timeline.map((step) => [step.step, step.round, step.outcome])).toEqual([
      [2, 'row 1', 'done'],
      [3, 'row 1', 'done'],
      [2, 'row 2', 'done'],
      [3, 'row 2', 'done'],
      [5, null, 'done'],
      [6, null, 'done'],
      [7, null, 'done'],
    ])
    // The words are the log's: what was typed is counted, not shown.
    expect(timeline[1]).toMatchObject({
      words: 'Field labelled “Customer name” (3 characters)',
      target: 'Field labelled “Customer name”',
      repaired: null,
    })
    expect(timeline[3]?.words).toBe('Field labelled “Customer name” (5 characters)')
    expect(timeline[4]).toMatchObject({ words: `${site.url}/shop`, target: null, extracted: null })
    expect(timeline[5]?.extracted).toEqual({
      fields: ['product'],
      rows: [{ product: 'Oak table' }, { product: 'Pine chair' }, { product: 'Birch shelf' }],
      total: 3,
    })
    expect(timeline[6]).toMatchObject({ target: 'Link named “Next”', repaired: 'alternative' })

    // Times in order, each with its duration; a picture (JPEG) after every step, each its own file.
    const starts = timeline.map((step) => Date.parse(step.startedAt))
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    expect(starts[0]).toBeGreaterThanOrEqual(finished.startedAt?.getTime() ?? Infinity)
    for (const step of timeline) expect(step.ms).toBeGreaterThanOrEqual(0)
    const pictures = timeline.map((step) => step.screenshot)
    expect(new Set(pictures).size).toBe(timeline.length)
    const folder = path.join(t.dataDir, 'runs', finished.id)
    for (const file of pictures) expect(readFileSync(path.join(folder, file ?? '')).subarray(0, 3)).toEqual(JPEG)

    // What the run's files take is counted: every picture and screenshot in its folder.
    const onDisk = readdirSync(folder).reduce((sum, file) => sum + statSync(path.join(folder, file)).size, 0)
    expect(finished.storedBytes).toBe(onDisk)

    // The API gives the timeline with links that serve the pictures as JPEG to the workspace only.
    const dto = await runDto(finished.id)
    expect(dto.timeline).toHaveLength(7)
    const url = dto.timeline[5]?.screenshotUrl ?? ''
    expect(url).toBe(`/api/runs/${finished.id}/screenshots/${pictures[5]}`)
    const image = await t.request(url, { token })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/jpeg')
    expect(Buffer.from(await image.arrayBuffer()).subarray(0, 3)).toEqual(JPEG)
    const stranger = await t.signUp()
    expect((await t.request(url, { token: stranger.token })).status).toBe(404)
    // A picture the run does not list is not served, though it is a name of the kind.
    expect((await t.request(`/api/runs/${finished.id}/screenshots/after-99.jpg`, { token })).status).toBe(404)
  }, 120_000)

  it('records a failing step with its error and a picture, and one whose "on error" goes on as failed before the next', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/order` },
      { type: 'assertText', text: 'Nothing like this', onError: { retries: 0, delayMs: 0, then: 'continue' } },
      { type: 'click', target: [{ by: 'css', selector: '#missing-button' }] },
      { type: 'navigate', url: `${site.url}/shop` },
    ])
    expect(finished.status).toBe('failed')
    expect(finished.timeline.map((step) => [step.step, step.outcome])).toEqual([
      [1, 'done'],
      [2, 'failed'],
      [3, 'failed'],
    ])
    const [, goingOn, failed] = finished.timeline
    expect(goingOn?.error).toMatch(/^Step 2 \(assertText\): the page does not show/)
    expect(failed?.error).toBe(finished.error)
    expect(failed?.screenshot).toMatch(/^after-\d+\.jpg$/)
    expect(failed?.ms).toBeGreaterThanOrEqual(2_500)
    const picture = readFileSync(path.join(t.dataDir, 'runs', finished.id, failed?.screenshot ?? ''))
    expect(picture.subarray(0, 3)).toEqual(JPEG)
    // The full screenshot at the failure is kept too, among the run's screenshots.
    expect(finished.screenshots.map((shot) => shot.name)).toEqual(['Step 2 failed', 'At failure'])
  }, 60_000)
})
