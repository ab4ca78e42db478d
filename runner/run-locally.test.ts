import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { createApiClient } from './api-client.ts'
import { runAutomationLocally } from './run-locally.ts'

// The local runner runs an automation against a page on this machine with the cloud's executor,
// and reports it through the client-run API: the run shows in the history like any other.
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let member: Awaited<ReturnType<TestApp['signUp']>>

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

const api = () =>
  createApiClient({ server: 'http://aether.test', token: member.token, fetch: (url, init) => Promise.resolve(t.app.request(url, init)) })

async function automation(steps: unknown[]) {
  const response = await t.request('/api/automations', { token: member.token, body: { name: 'Local form', steps } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

describe('the local runner', () => {
  it('fills a loopback form with an input, extracts the answer and reports a succeeded desktop run', async () => {
    const id = await automation([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.name}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
      { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
      { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
    ])
    const run = await runAutomationLocally({
      api: api(),
      automationId: id,
      inputs: { name: 'Ada' },
      chromiumPath: '/usr/bin/chromium',
      browsers,
    })
    expect(run).toMatchObject({
      status: 'succeeded',
      runner: 'client',
      trigger: 'desktop',
      inputs: { name: 'Ada' },
      actionsPerformed: 5,
      creditsCharged: 0,
      extracted: [{ result: 'Thanks, Ada (free)' }],
      error: null,
    })
    const messages = run.log.map((line) => line.message)
    expect(messages.slice(0, 4)).toEqual([
      'Started by the desktop app.',
      'Running on this machine: 5 steps.',
      `Step 1 (navigate): ${site.url}/form`,
      'Step 2 (type): Field labelled “Name” (3 characters)',
    ])
    expect(messages.some((message) => message.startsWith('Finished: 5 steps in'))).toBe(true)
    expect(site.hits.get('/form')).toBeGreaterThanOrEqual(1)
  })

  it('reports a failing step as the failed run, naming the step', async () => {
    const id = await automation([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'click', target: [{ by: 'css', selector: '#missing' }] },
    ])
    const run = await runAutomationLocally({
      api: api(),
      automationId: id,
      chromiumPath: '/usr/bin/chromium',
      browsers,
      limits: { stepTimeoutMs: 1_000 },
    })
    expect(run).toMatchObject({ status: 'failed', error: 'Step 2 (click): no element matches "#missing" within 1 s' })
    // The error is in the log once.
    expect(run.log.filter((line) => line.message === run.error)).toHaveLength(1)
  })

  it('stops when the member cancels the run on the website', async () => {
    const id = await automation([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'wait', ms: 20_000 },
    ])
    const client = api()
    const pending = runAutomationLocally({ api: client, automationId: id, chromiumPath: '/usr/bin/chromium', browsers })
    let runId: string | undefined
    for (let tries = 0; tries < 100 && !runId; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const list = (await (await t.request(`/api/runs?automationId=${id}`, { token: member.token })).json()) as { data: { id: string }[] }
      runId = list.data[0]?.id
    }
    expect(runId).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect((await t.request(`/api/runs/${runId}/cancel`, { token: member.token, body: {} })).status).toBe(200)
    const started = Date.now()
    const run = await pending
    expect(run.status).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
