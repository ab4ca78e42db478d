import { dataOf } from '#sdk'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import { automationRuns, automations, workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { runnerClient } from './aether-client.ts'
import { pairDevice } from './pairing.ts'
import { serveQueuedRuns } from './serve.ts'

// Schedules that run on a device: the scheduler queues the run for the local runner the
// automation names, and the runner takes it up, runs it here and reports it.
const logger = pino({ level: 'silent' })
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })
let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let member: Awaited<ReturnType<TestApp['signUp']>>
const inProcess = (request: Request) => Promise.resolve(t.app.request(request))

beforeAll(async () => {
  t = await createTestApp()
  site = await startTestSite()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
})

async function pairRunner(name: string) {
  return pairDevice(runnerClient({ server: 'http://aether.test', fetch: inProcess }), { name, version: '0.1.0' }, (pairing) => {
    void t.services.pairings.approve(
      pairing.userCode,
      { id: member.id, email: member.email, twoFactorEnabled: false },
      member.id,
      t.freshIp(),
    )
  })
}

async function call(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const response = await t.request(path, { token: member.token, method, body })
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> & { id: string }; message?: string } }
}

describe('scheduled runs on a local runner', () => {
  it('the scheduler queues the run for the runner, which takes it up, runs it and reports it', async () => {
    const runner = await pairRunner('Office PC')
    const created = await call('/api/automations', {
      name: 'Nightly form',
      schedule: '0 2 * * *',
      deviceId: runner.device.id,
      steps: [
        { type: 'navigate', url: `${site.url}/form` },
        { type: 'extract', target: [{ by: 'css', selector: '.item a' }], field: 'link' },
      ],
    })
    expect(created.status, created.body.message).toBe(201)
    expect(created.body.data.deviceId).toBe(runner.device.id)

    const fired = await createScheduler({ db: t.db, runs: t.services.runs, logger }).tick(new Date(Date.now() + 25 * 3600_000))
    expect(fired).toEqual({ started: 1, refused: 0 })
    const [queued] = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, created.body.data.id))
    expect(queued).toMatchObject({ status: 'queued', runner: 'client', trigger: 'schedule', deviceId: runner.device.id, creditsCharged: 0 })

    // Another runner of the workspace is not given it.
    const other = await pairRunner('Laptop')
    const otherApi = runnerClient({ server: 'http://aether.test', token: other.token, fetch: inProcess })
    expect(await dataOf(otherApi.POST('/runs/claim'))).toBeNull()

    const stop = new AbortController()
    const done: RunDto[] = []
    await serveQueuedRuns({
      api: runnerClient({ server: 'http://aether.test', token: runner.token, fetch: inProcess }),
      chromiumPath: '/usr/bin/chromium',
      browsers,
      signal: stop.signal,
      pollMs: 50,
      onRun: (run) => {
        done.push(run)
        stop.abort()
      },
    })
    expect(done).toHaveLength(1)
    expect(done[0]).toMatchObject({
      id: queued?.id,
      status: 'succeeded',
      trigger: 'schedule',
      runner: 'client',
      extracted: [{ link: 'Alpha' }, { link: 'Beta' }],
    })
    expect(done[0]?.log.map((line) => line.message).slice(0, 3)).toEqual([
      'Queued for the local runner “Office PC”.',
      'The local runner took it up.',
      'Running on this machine: 2 steps.',
    ])
  })

  it('only a runner connected to the workspace can be chosen; disconnecting it pauses the schedule until the member chooses again', async () => {
    const refused = await call('/api/automations', {
      name: 'Nowhere',
      schedule: '0 3 * * *',
      deviceId: '00000000-0000-4000-8000-000000000000',
      steps: [{ type: 'navigate', url: `${site.url}/form` }],
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      'Scheduled runs can wait for a local runner connected to this workspace only: connect one, or run them in the cloud.',
    )

    const runner = await pairRunner('Old PC')
    const created = await call('/api/automations', {
      name: 'Weekly form',
      schedule: '0 4 * * 1',
      deviceId: runner.device.id,
      steps: [{ type: 'navigate', url: `${site.url}/form` }],
    })
    expect(created.status).toBe(201)
    const id = created.body.data.id
    expect((await t.request(`/api/devices/${runner.device.id}`, { token: member.token, method: 'DELETE' })).status).toBe(200)

    // Paused where it stands: still named for the runner, never moved to the cloud, and nothing fires.
    const paused = await call(`/api/automations/${id}`)
    expect(paused.body.data).toMatchObject({ deviceId: runner.device.id, schedule: { paused: true } })
    const later = new Date(Date.now() + 8 * 24 * 3600_000)
    await createScheduler({ db: t.db, runs: t.services.runs, logger }).tick(later)
    expect(await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, id))).toEqual([])
    expect(await t.services.devices.disconnectedRunners(member.id, [runner.device.id, null])).toEqual(
      new Map([[runner.device.id, 'Old PC']]),
    )

    // Resuming it on the disconnected runner is refused; other changes (the builder sends the runner as it was) are not.
    const resumed = await call(`/api/automations/${id}`, { enabled: true }, 'PUT')
    expect(resumed.status).toBe(400)
    expect(resumed.body.message).toBe(
      'The local runner this schedule runs on was disconnected: choose another runner or the cloud before its schedule runs again.',
    )
    const renamed = await call(`/api/automations/${id}`, { name: 'Weekly form (old PC)', deviceId: runner.device.id }, 'PUT')
    expect(renamed.status, renamed.body.message).toBe(200)
    const toCloud = await call(`/api/automations/${id}`, { deviceId: null, enabled: true }, 'PUT')
    expect(toCloud.status, toCloud.body.message).toBe(200)
    expect(toCloud.body.data).toMatchObject({ deviceId: null, schedule: { paused: false } })

    // A schedule left running on a runner disconnected before schedules were paused is refused when it fires, and says why.
    await t.db.update(automations).set({ deviceId: runner.device.id, enabled: true }).where(eq(automations.id, id))
    const fired = await createScheduler({ db: t.db, runs: t.services.runs, logger }).tick(later)
    expect(fired.refused).toBeGreaterThanOrEqual(1)
    const [failed] = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, id))
    expect(failed?.error).toBe(
      'The local runner “Old PC” this schedule runs on is no longer connected: choose another, or the cloud, in the automation.',
    )
  })

  it('a session cannot take runs meant for a device', async () => {
    expect((await t.request('/api/runs/claim', { token: member.token, body: {} })).status).toBe(403)
  })
})
