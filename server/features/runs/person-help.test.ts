import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { LiveFrame } from '#common/live-view.ts'
import { automationRuns, mailOutbox, webhookDeliveries, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { PERSON_CODE, startTestSite } from '#server/testing/cloud-run-site.ts'
import type { RunDto } from './run.dto.ts'

// Human takeover (docs/decisions/059): an "ask a person" step pauses a cloud run, tells the
// workspace (the run, an e-mail, the run.waiting webhook), and a member acts in its live view
// (a click, typed text, a key) and presses Continue; nobody coming fails the run at its plan's wait.

let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let siteUrl: string
let owner: Awaited<ReturnType<TestApp['signUp']>>
let builder: Awaited<ReturnType<TestApp['signUp']>>
let viewer: Awaited<ReturnType<TestApp['signUp']>>
let outsider: Awaited<ReturnType<TestApp['signUp']>>
let teamId: string

beforeAll(async () => {
  site = await startTestSite()
  siteUrl = site.url
  t = await createTestApp({ privateTargets: 'loopback' })
  owner = await t.signUp()
  builder = await t.signUp()
  viewer = await t.signUp()
  outsider = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Takeover team' } })
  teamId = ((await team.json()) as { data: { id: string } }).data.id
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, teamId))
  await t.db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: builder.id, role: 'member' },
    { workspaceId: teamId, userId: viewer.id, role: 'viewer' },
  ])
  const hook = await t.request('/api/webhooks', {
    token: owner.token,
    headers: { 'x-workspace-id': teamId },
    body: { url: `${siteUrl}/hook`, events: ['run.waiting'] },
  })
  expect(hook.status, await hook.clone().text()).toBe(201)
})
afterAll(async () => {
  await t?.close()
  await site?.close()
})

const inTeam = (token: string, path: string, body?: unknown) => t.request(path, { token, body, headers: { 'x-workspace-id': teamId } })

async function startRun(steps: AutomationStep[], settings: { askPersonOnCaptcha?: boolean } = {}): Promise<string> {
  const created = await inTeam(owner.token, '/api/automations', { name: 'Needs a person', steps, ...settings })
  expect(created.status, await created.clone().text()).toBe(201)
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const started = await inTeam(owner.token, `/api/automations/${automationId}/runs`, { where: 'cloud' })
  expect(started.status, await started.clone().text()).toBe(201)
  return ((await started.json()) as { data: { id: string } }).data.id
}

const workerDeps = () => ({
  runQueue: t.services.runQueue,
  runFiles: t.services.runFiles,
  events: t.services.events,
  browsers: t.services.browsers,
  live: t.services.liveView,
  people: t.services.personHelp,
  logger: pino({ level: 'silent' }),
})

const workerConfig = (options: { personWaitMs?: number; timeLimitMs?: number } = {}) => ({
  concurrency: 1,
  chromiumPath: '/usr/bin/chromium',
  stepTimeoutMs: 5_000,
  timeLimitMs: options.timeLimitMs ?? 10_000,
  maxActions: 100,
  privateTargets: 'loopback' as const,
  pollMs: 50,
  personWaitMs: options.personWaitMs,
})

function worker(options: { personWaitMs?: number; timeLimitMs?: number } = {}) {
  return createCloudWorker({ ...workerDeps(), config: workerConfig(options) })
}

async function runOf(id: string): Promise<RunDto> {
  const response = await inTeam(owner.token, `/api/runs/${id}`)
  return ((await response.json()) as { data: RunDto }).data
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what} did not happen in time`)
}

const ASK: AutomationStep[] = [
  { type: 'askPerson', message: 'Type the code from the SMS and press Verify' },
  { type: 'assertText', text: 'Verified' },
]

// Each runs a cloud run in Chromium, with a member's actions in between: slow when the machine is busy.
describe('a run that asks a person', { timeout: 90_000 }, () => {
  it('waits, tells the workspace, takes what a member does in the live view, and goes on when they press Continue', async () => {
    const id = await startRun([{ type: 'navigate', url: `${siteUrl}/code` }, ...ASK])
    // The wait does not count toward the run's 15 s (room for a busy machine to reach the step): the member takes longer than that.
    const cloud = worker({ timeLimitMs: 15_000 })
    cloud.start()
    try {
      const waiting = await until(
        () => runOf(id),
        (run) => run.waiting !== null || (run.status !== 'queued' && run.status !== 'running'),
        'the wait',
      )
      expect(waiting.status, waiting.error ?? '').toBe('running')
      expect(waiting.waiting).toMatchObject({ message: 'Type the code from the SMS and press Verify', step: 2 })
      // The workspace's dashboard tells of it; another workspace's does not.
      expect((await t.services.runs.waitingIn(teamId)).map((run) => run.id)).toEqual([id])
      expect(await t.services.runs.waitingIn(owner.id)).toEqual([])
      // Not waiting for ever: the wait counts from now, not from the run's start.
      expect(Date.parse(waiting.waiting?.until ?? '') - Date.parse(waiting.waiting?.since ?? '')).toBe(120 * 60_000)

      // The workspace is told: the webhook, and an e-mail to each of those who may act (not the viewer).
      const [delivery] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, 'run.waiting'))
      expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
        type: 'run.waiting',
        data: { run: { id }, message: 'Type the code from the SMS and press Verify', step: 2 },
      })
      const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'A run of “Needs a person” is waiting for you'))
      expect(mails.map((mail) => mail.to).sort()).toEqual([owner.email, builder.email].sort())
      expect(mails[0]?.text).toContain(`/dashboard/runs/${id}`)

      // A viewer sees it but may not act; another workspace does not know it.
      expect((await inTeam(viewer.token, `/api/runs/${id}/continue`, {})).status).toBe(403)
      expect((await t.request(`/api/runs/${id}/continue`, { token: outsider.token, body: {} })).status).toBe(404)

      // The member acts in the live view: clicks the field (where the page shows it), types the code, presses Verify.
      const frames: LiveFrame[] = []
      const stopWatching = t.services.liveView.watch(id, (frame) => frames.push(frame))
      await until(
        async () => frames.length,
        (count) => count > 0,
        'a picture of the page',
      )
      stopWatching()
      const frame = frames[0] as LiveFrame
      expect([frame.width, frame.height]).toEqual([1280, 800])
      const act = async (input: unknown) => {
        const response = await inTeam(builder.token, `/api/runs/${id}/live/input`, input)
        expect(response.status, await response.clone().text()).toBe(202)
      }
      await act({ kind: 'click', x: 200, y: 130 })
      await act({ kind: 'type', text: `${PERSON_CODE}9` })
      await act({ kind: 'press', key: 'Backspace' })
      await act({ kind: 'click', x: 200, y: 350 })
      await until(
        () => runOf(id),
        (run) => run.log.filter((line) => line.message.includes('clicked at')).length === 2,
        'the second click',
      )
      const startedAt = Date.parse(waiting.startedAt ?? '')
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 16_000 - Date.now())))
      expect((await inTeam(builder.token, `/api/runs/${id}/continue`, {})).status).toBe(202)

      const done = await until(
        () => runOf(id),
        (run) => run.status !== 'running',
        'the end of the run',
      )
      expect(done.status, done.error ?? '').toBe('succeeded')
      expect(done.waiting).toBeNull()
      const said = done.log.map((line) => line.message)
      expect(said).toContain(`Step 2 (askPerson): ${builder.email} clicked at 200, 130 in the live view.`)
      expect(said).toContain(`Step 2 (askPerson): ${builder.email} typed 5 characters in the live view.`)
      expect(said).toContain(`Step 2 (askPerson): ${builder.email} pressed Backspace in the live view.`)
      expect(said).toContain(`Step 2 (askPerson): ${builder.email} pressed Continue.`)
      // What the person typed is theirs: never in the log, never kept as a step.
      expect(JSON.stringify(done)).not.toContain(PERSON_CODE)
      expect(done.timeline.map((step) => step.words)).toEqual([
        `${siteUrl}/code`,
        'waiting for a person: "Type the code from the SMS and press Verify"',
        '"Verified" on the page',
      ])
      // Once it goes on, nobody acts for it any more.
      expect((await inTeam(builder.token, `/api/runs/${id}/continue`, {})).status).toBe(409)
    } finally {
      await cloud.stop(1_000)
    }
  })

  it('does what a person did the moment the run showed it waits, before its worker was ready for them', async () => {
    const id = await startRun([
      { type: 'navigate', url: `${siteUrl}/code` },
      { type: 'askPerson', message: 'Press Continue' },
    ])
    // The member presses Continue as soon as the wait is announced, before the worker goes on.
    const people = t.services.personHelp
    const eager = {
      ...people,
      async ask(...args: Parameters<typeof people.ask>) {
        const waiting = await people.ask(...args)
        expect((await inTeam(builder.token, `/api/runs/${id}/continue`, {})).status).toBe(202)
        await new Promise((resolve) => setTimeout(resolve, 300))
        return waiting
      },
    }
    const cloud = createCloudWorker({ ...workerDeps(), people: eager, config: { ...workerConfig(), personWaitMs: 5_000 } })
    cloud.start()
    try {
      const done = await until(
        () => runOf(id),
        (run) => run.status !== 'queued' && run.status !== 'running',
        'the end of the run',
      )
      expect(done.status, done.error ?? '').toBe('succeeded')
      expect(done.log.map((line) => line.message)).toContain(`Step 2 (askPerson): ${builder.email} pressed Continue.`)
    } finally {
      await cloud.stop(1_000)
    }
  })

  it('fails when nobody comes within the wait, and the wait does not count toward the run time', async () => {
    const id = await startRun([{ type: 'navigate', url: `${siteUrl}/code` }, ...ASK])
    const cloud = worker({ personWaitMs: 1_500 })
    cloud.start()
    try {
      const done = await until(
        () => runOf(id),
        (run) => run.status !== 'running' && run.status !== 'queued',
        'the end of the run',
      )
      expect(done.status).toBe('failed')
      expect(done.error).toBe('Step 2 (askPerson): nobody pressed Continue within 1.5 s')
      expect(done.waiting).toBeNull()
    } finally {
      await cloud.stop(1_000)
    }
  })

  it('asks a person when a CAPTCHA-like check blocks a step, if the automation says so, then tries the step again', async () => {
    const steps: AutomationStep[] = [
      { type: 'navigate', url: `${siteUrl}/wall` },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Add to cart' }] },
      { type: 'assertText', text: 'In the cart' },
    ]
    // The run's own limit leaves a busy machine room to reach the wait (it stops counting there).
    const cloud = worker({ timeLimitMs: 30_000 })
    cloud.start()
    try {
      // Without the automation's say-so the step fails as any other.
      const plain = await startRun(steps)
      const failed = await until(
        () => runOf(plain),
        (run) => run.status === 'failed' || run.status === 'succeeded',
        'the end of the first run',
      )
      expect(failed.status).toBe('failed')
      expect(failed.error).toMatch(/^Step 2 \(click\): /)
      expect(failed.log.some((line) => line.message.includes('a person is asked'))).toBe(false)

      const id = await startRun(steps, { askPersonOnCaptcha: true })
      const waiting = await until(
        () => runOf(id),
        (run) => run.waiting !== null || (run.status !== 'queued' && run.status !== 'running'),
        'the wait',
      )
      expect(waiting.status, waiting.error ?? '').toBe('running')
      expect(waiting.waiting?.step).toBe(2)
      expect(waiting.waiting?.message).toBe(
        'Step 2 is blocked by a check that asks “Just a moment...”, which only a person can get past. Solve it in the live view, then press Continue: the step is tried again.',
      )
      // The box to tick, where the page shows it.
      expect((await inTeam(builder.token, `/api/runs/${id}/live/input`, { kind: 'click', x: 20, y: 120 })).status).toBe(202)
      const clicked = await until(
        () => runOf(id),
        (run) => run.log.some((line) => line.message.includes('clicked at 20, 120')) || run.status !== 'running',
        'the click',
      )
      expect(clicked.status, clicked.error ?? '').toBe('running')
      expect((await inTeam(builder.token, `/api/runs/${id}/continue`, {})).status).toBe(202)
      const done = await until(
        () => runOf(id),
        (run) => run.status !== 'running',
        'the end of the run',
      )
      expect(done.status, done.error ?? '').toBe('succeeded')
      const said = done.log.map((line) => line.message)
      expect(
        said.some((line) =>
          /^Step 2 \(click\): .+; the page shows a check that asks “Just a moment\.\.\.”, so a person is asked\.$/.test(line),
        ),
      ).toBe(true)
      expect(said).toContain(`Step 2 (click): ${builder.email} pressed Continue.`)
      expect(done.timeline.map((step) => [step.step, step.outcome])).toEqual([
        [1, 'done'],
        [2, 'done'],
        [3, 'done'],
      ])
    } finally {
      await cloud.stop(1_000)
    }
  })

  it('refuses to act for a run that does not wait, and fails the step where there is no live view', async () => {
    const id = await startRun([{ type: 'navigate', url: `${siteUrl}/code` }])
    expect((await inTeam(builder.token, `/api/runs/${id}/live/input`, { kind: 'type', text: 'x' })).status).toBe(409)
    expect((await inTeam(builder.token, `/api/runs/${id}/live/input`, { kind: 'press', key: 'F13' })).status).toBe(400)
    await t.db
      .update(automationRuns)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(and(eq(automationRuns.id, id)))
  })
})
