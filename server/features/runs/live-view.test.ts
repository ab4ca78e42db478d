import { eq } from 'drizzle-orm'
import pino from 'pino'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { stepPicture } from '#server/browser/step-picture.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { eventReader } from '#server/testing/event-stream-reader.ts'
import { startSignInSite, storeSignInSecrets, type SignInSite } from '#server/testing/sign-in-site.ts'
import type { LiveFrame } from '#common/live-view.ts'
import type { LiveFeed } from './live-view.ts'

// The live view of cloud runs (docs/decisions/058): members who may see a running cloud run watch
// its browser over server-sent events; frames stop while a vault value is typed or on the page.

const USER = 'live-user-51c2@example.com'
const PASSWORD = 'Live-Pa55-e81f0a'
const TOTP_SECRET = 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA'
const logger = pino({ level: 'silent' })

let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let signIn: SignInSite
let member: Awaited<ReturnType<TestApp['signUp']>>
let other: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  site = await startTestSite()
  signIn = await startSignInSite({ user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
  t = await createTestApp({ privateTargets: 'loopback' })
  member = await t.signUp()
  other = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
  await storeSignInSecrets(t, member.token, signIn, { user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
})
afterAll(async () => {
  await t?.close()
  await site?.close()
  await signIn?.close()
})

async function startRun(steps: AutomationStep[]): Promise<string> {
  const created = await t.request('/api/automations', { token: member.token, body: { name: 'Watched', steps } })
  expect(created.status, await created.clone().text()).toBe(201)
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const started = await t.request(`/api/automations/${automationId}/runs`, { token: member.token, body: { where: 'cloud' } })
  expect(started.status, await started.clone().text()).toBe(201)
  return ((await started.json()) as { data: { id: string } }).data.id
}

/** A cloud worker as main.ts wires it, with the live view (or a stand-in feed that records what the executor asks of it). */
function worker(live: Parameters<typeof createCloudWorker>[0]['live'] = t.services.liveView) {
  return createCloudWorker({
    runQueue: t.services.runQueue,
    runFiles: t.services.runFiles,
    events: t.services.events,
    browsers: t.services.browsers,
    vault: t.services.vault,
    live,
    logger,
    config: {
      concurrency: 1,
      chromiumPath: '/usr/bin/chromium',
      stepTimeoutMs: 5_000,
      timeLimitMs: 60_000,
      maxActions: 100,
      privateTargets: 'loopback',
      pollMs: 50,
    },
  })
}

async function statusOf(id: string) {
  const [row] = await t.db.select({ status: automationRuns.status }).from(automationRuns).where(eq(automationRuns.id, id))
  return row?.status
}

async function until(check: () => Promise<boolean>, what: string, ms = 30_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${what} did not happen in time`)
}

/** Every frame of the stream until it ends (the run did). */
async function framesUntilEnd(response: Response): Promise<LiveFrame[]> {
  const reader = eventReader(response)
  const frames: LiveFrame[] = []
  expect((await reader.next()).event).toBe('ready')
  for (;;) {
    const event = await reader.next(30_000).catch((error: Error) => error)
    if (event instanceof Error) {
      expect(event.message).toBe('the stream ended')
      return frames
    }
    expect(event.event).toBe('frame')
    frames.push(JSON.parse(event.data) as LiveFrame)
  }
}

// Each runs Chromium and watches it for seconds: slow when the machine is busy.
describe('the live view of a cloud run', { timeout: 90_000 }, () => {
  it('streams the browser while the run waits for the page to change, and ends with the run', async () => {
    const id = await startRun([
      { type: 'navigate', url: `${site.url}/late?ms=2500` },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Late' }] },
      { type: 'wait', ms: 1_000 },
    ])
    const cloud = worker()
    cloud.start()
    try {
      await until(async () => (await statusOf(id)) === 'running', 'the run starting')
      const response = await t.request(`/api/runs/${id}/live`, { token: member.token })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/event-stream')
      const frames = await framesUntilEnd(response)
      expect(await statusOf(id)).toBe('succeeded')
      // "waiting", then the button, then "Clicked": the page changed while the run watched for it.
      const pictures = new Set(frames.map((frame) => frame.image))
      expect(pictures.size, `${frames.length} frames`).toBeGreaterThanOrEqual(2)
      for (const frame of frames) {
        expect(frame.image).not.toBeNull()
        expect(Buffer.from(frame.image as string, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
        expect([frame.width, frame.height]).toEqual([1280, 800])
      }
      // Nothing is kept once the run ended.
      expect(await t.services.runFiles.readLiveFrame(id)).toBeNull()
      // A finished run has nothing to show: an empty answer, which stops an EventSource without an error status.
      const after = await t.request(`/api/runs/${id}/live`, { token: member.token })
      expect(after.status).toBe(204)
      expect(await after.text()).toBe('')
    } finally {
      await cloud.stop(1_000)
    }
  })

  it('is not shown to visitors or other workspaces', async () => {
    const id = await startRun([{ type: 'navigate', url: `${site.url}/form` }])
    await t.db.update(automationRuns).set({ status: 'running', startedAt: new Date() }).where(eq(automationRuns.id, id))
    expect((await t.request(`/api/runs/${id}/live`)).status).toBe(401)
    expect((await t.request(`/api/runs/${id}/live`, { token: other.token })).status).toBe(404)
    expect((await t.request('/api/runs/not-a-run/live', { token: member.token })).status).toBe(404)
    await t.db.update(automationRuns).set({ status: 'cancelled', finishedAt: new Date() }).where(eq(automationRuns.id, id))
  })

  /** A page of the shared browser with this content, and a run to show it as. */
  async function pageAndRun(content: string) {
    const browser = await t.services.browsers.acquire()
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.setContent(content)
    const id = await startRun([{ type: 'navigate', url: `${site.url}/form` }])
    const feed = t.services.liveView.forRun(id, (target) => stepPicture(target, { masked: [], timeoutMs: 3_000 }))
    const seen: { frame: LiveFrame; at: number }[] = []
    let stopWatching = () => {}
    return {
      page,
      feed,
      seen,
      id,
      watch() {
        stopWatching = t.services.liveView.watch(id, (frame) => seen.push({ frame, at: Date.now() }))
      },
      async close() {
        stopWatching()
        await feed.close()
        await context.close()
        t.services.browsers.release()
        await t.db.update(automationRuns).set({ status: 'cancelled', finishedAt: new Date() }).where(eq(automationRuns.id, id))
      },
    }
  }
  // Something changes ten times a second.
  const TICKING = '<p id="n">0</p><script>let n = 0; setInterval(() => { document.getElementById("n").textContent = ++n }, 100)</script>'

  it('takes at most two pictures a second, none the moment it is paused, and takes them again when resumed', async () => {
    const live = await pageAndRun(TICKING)
    try {
      live.watch()
      live.feed.follow(live.page)
      await until(async () => live.seen.filter((s) => s.frame.image).length >= 3, 'three frames')
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const pictures = live.seen.filter((s) => s.frame.image)
      const perSecond = (pictures.length - 1) / (((pictures.at(-1)?.at ?? 0) - (pictures[0]?.at ?? 0)) / 1000)
      expect(perSecond).toBeLessThanOrEqual(2.2)
      for (const { frame } of live.seen) expect([frame.width, frame.height]).toEqual([1280, 800])

      await live.feed.pause()
      await until(async () => live.seen.at(-1)?.frame.image === null, 'the paused frame')
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      // Judged by the frames' order, not by when they arrived: a picture taken before the pause may
      // reach a watcher after pause() returned (the event bus delivers later on a busy machine).
      const paused = live.seen.findIndex((s) => s.frame.image === null)
      expect(live.seen.slice(paused).filter((s) => s.frame.image !== null)).toEqual([])
      expect(live.seen.map((s) => s.frame.seq)).toEqual([...live.seen.map((s) => s.frame.seq)].sort((a, b) => a - b))

      live.feed.resume()
      await until(async () => live.seen.at(-1)?.frame.image !== null, 'a frame after resuming')
    } finally {
      await live.close()
    }
    expect(await t.services.runFiles.readLiveFrame(live.id)).toBeNull()
  })

  it('sends a still page once, and tells a page that starts watching late what there is', async () => {
    const live = await pageAndRun('<p>Nothing moves here</p>')
    try {
      live.watch()
      live.feed.follow(live.page)
      await until(async () => live.seen.length >= 1, 'the first frame')
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(live.seen).toHaveLength(1)
      const late: LiveFrame[] = []
      const stop = t.services.liveView.watch(live.id, (frame) => late.push(frame))
      await until(async () => late.length >= 1, 'the late watcher’s frame')
      stop()
      expect(late[0]?.image).toBe(live.seen[0]?.frame.image)
    } finally {
      await live.close()
    }
  })

  it('takes no pictures unless someone watches', async () => {
    const live = await pageAndRun(TICKING)
    try {
      live.feed.follow(live.page)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await t.services.runFiles.readLiveFrame(live.id)).toBeNull()
    } finally {
      await live.close()
    }
  })

  it('pauses before a vault value is typed and resumes only once no field holding one is on the page', async () => {
    const calls: { call: string; url: string }[] = []
    const recording = {
      forRun: (): LiveFeed => {
        let page: Page | null = null
        let paused = false
        const note = (call: string) => calls.push({ call, url: page ? new URL(page.url(), 'about:blank').pathname : '' })
        return {
          follow(next) {
            page = next
            note('follow')
          },
          pause() {
            if (!paused) note('pause')
            paused = true
            return Promise.resolve()
          },
          resume() {
            paused = false
            note('resume')
          },
          get paused() {
            return paused
          },
          close() {
            note('close')
            return Promise.resolve()
          },
        }
      },
    }
    const id = await startRun([
      { type: 'navigate', url: `${signIn.url}/account` },
      { type: 'click', target: [{ by: 'role', role: 'link', name: 'Sign in' }] },
      { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.shop_user}}' },
      { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{secrets.shop_password}}' },
      { type: 'wait', ms: 200 },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Sign in' }] },
      { type: 'type', target: [{ by: 'label', text: 'One-time code' }], text: '{{totp.shop_totp}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Verify' }] },
      { type: 'assertText', text: 'Your orders' },
    ])
    const cloud = worker(recording)
    cloud.start()
    try {
      await until(async () => ['succeeded', 'failed'].includes((await statusOf(id)) ?? ''), 'the run finishing', 60_000)
    } finally {
      await cloud.stop(1_000)
    }
    expect(await statusOf(id)).toBe('succeeded')
    const pauses = calls.filter((c) => c.call === 'pause')
    const resumes = calls.filter((c) => c.call === 'resume')
    // Paused on the sign-in form before its first value, and again on the code's page.
    expect(pauses.map((c) => c.url)).toEqual(['/login', '/login/code'])
    // Never resumed while the form with the typed user name was on screen (the wait step after it did not resume it).
    expect(resumes.length).toBeGreaterThanOrEqual(1)
    for (const resume of resumes) expect(resume.url).not.toBe('/login')
    expect(calls.filter((c) => c.call !== 'close').at(-1)?.call).toBe('resume')
    expect(calls.at(-1)?.call).toBe('close')
  })
})
