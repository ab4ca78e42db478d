import { dataOf } from '#sdk'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { startWorkflowSite } from '#server/testing/workflow-site.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { runnerClient } from './aether-client.ts'
import { pairDevice } from './pairing.ts'
import { runAutomationLocally } from './run-locally.ts'

// The local runner runs an automation against a page on this machine with the cloud's executor,
// and reports it through the client-run API: the run shows in the history like any other.
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let t: TestApp
let site: Awaited<ReturnType<typeof startTestSite>>
let workflows: Awaited<ReturnType<typeof startWorkflowSite>>
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  t = await createTestApp()
  site = await startTestSite()
  workflows = await startWorkflowSite()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await workflows?.close()
  await t?.close()
})

const inProcess = (request: Request) => Promise.resolve(t.app.request(request))
let deviceToken = ''
const api = () => runnerClient({ server: 'http://aether.test', token: deviceToken, fetch: inProcess, version: '0.1.0' })

async function automation(steps: unknown[]) {
  const response = await t.request('/api/automations', { token: member.token, body: { name: 'Local form', steps } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

describe('the local runner', () => {
  it('pairs as a device: shows the code, waits for the member to approve it, and keeps the token', async () => {
    const shown: string[] = []
    const paired = await pairDevice(
      runnerClient({ server: 'http://aether.test', fetch: inProcess }),
      { name: 'Runner on the test machine', version: '0.1.0' },
      (pairing) => {
        shown.push(pairing.verificationUrl)
        // The member approves on the website, as /connect does.
        void t.services.pairings.approve(
          pairing.userCode,
          { id: member.id, email: member.email, twoFactorEnabled: false },
          member.id,
          t.freshIp(),
        )
      },
    )
    expect(shown[0]).toMatch(/\/connect\?code=[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    expect(paired).toMatchObject({ device: { name: 'Runner on the test machine', kind: 'runner' }, workspace: { id: member.id } })
    expect(paired.token).toMatch(/^dev_/)
    deviceToken = paired.token
    expect(await dataOf(api().GET('/devices/me'))).toMatchObject({ name: 'Runner on the test machine' })
  })

  it('fills a loopback form with an input, extracts the answer and reports a succeeded desktop run', async () => {
    const id = await automation([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.name}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
      { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
      { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
      { type: 'screenshot', name: 'After sending' },
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
      actionsPerformed: 6,
      creditsCharged: 0,
      extracted: [{ result: 'Thanks, Ada (free)' }],
      error: null,
    })
    const messages = run.log.map((line) => line.message)
    expect(messages.slice(0, 4)).toEqual([
      'Started by the desktop app.',
      'Running on this machine: 6 steps.',
      `Step 1 (navigate): ${site.url}/form`,
      'Step 2 (type): Field labelled “Name” (3 characters)',
    ])
    expect(messages.some((message) => message.startsWith('Finished: 6 steps in'))).toBe(true)
    // The screenshot went up with the report, and the run page serves it.
    expect(run.screenshots).toEqual([{ name: 'After sending', step: 6, url: expect.stringMatching(/\/screenshots\/step-6-1\.png$/) }])
    const picture = await t.request(run.screenshots[0]?.url ?? '', { token: member.token })
    expect(picture.status).toBe(200)
    expect(new Uint8Array(await picture.arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
    expect(site.hits.get('/form')).toBeGreaterThanOrEqual(1)

    // The timeline came with the reports (docs/decisions/057): each step, with its picture uploaded first.
    expect(run.timeline.map((step) => [step.step, step.outcome])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'done']))
    expect(run.timeline[1]).toMatchObject({ words: 'Field labelled “Name” (3 characters)', target: 'Field labelled “Name”' })
    expect(run.timeline[4]?.extracted).toEqual({ fields: ['result'], rows: [{ result: 'Thanks, Ada (free)' }], total: 1 })
    for (const step of run.timeline) {
      const after = await t.request(step.screenshotUrl ?? '', { token: member.token })
      expect(after.status).toBe(200)
      expect(after.headers.get('content-type')).toBe('image/jpeg')
    }
  })

  it('types an input that reads like a placeholder as the text it is (docs/decisions/039)', async () => {
    const id = await automation([
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'label', text: 'Name' }], text: '{{input.name}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] },
      { type: 'wait', target: [{ by: 'text', text: 'Thanks', exact: false }] },
      { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
    ])
    const name = '{{secrets.shop_password}} {{input.name}}'
    const run = await runAutomationLocally({ api: api(), automationId: id, inputs: { name }, chromiumPath: '/usr/bin/chromium', browsers })
    expect(run).toMatchObject({ status: 'succeeded', error: null, extracted: [{ result: `Thanks, ${name} (free)` }] })
  })

  it('reports a Chromium that does not start as this machine’s, with what to do (no cloud, no refund)', async () => {
    const id = await automation([{ type: 'navigate', url: `${site.url}/form` }])
    const run = await runAutomationLocally({ api: api(), automationId: id, chromiumPath: '/nonexistent/chromium' })
    expect(run.status).toBe('failed')
    expect(run.error).toBe(
      'Chromium could not start on this machine (Chromium was not found at /nonexistent/chromium). Pass --chromium <the path of Chrome or Chromium>, or set CHROMIUM_PATH.',
    )
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
    expect(run).toMatchObject({
      status: 'failed',
      error: 'Step 2 (click): no element matches Element “missing” (found by the page’s structure) within 1 s',
    })
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
      const list = (await (await t.request(`/api/runs?automationId=${id}`, { token: member.token })).json()) as {
        data: { id: string }[]
      }
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

  it('reads a CSV from an allowed folder, enters each row into a form and writes the results beside it; the cloud refuses such steps', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'aether-runner-orders-'))
    await writeFile(path.join(folder, 'orders.csv'), 'name,email\nAda,ada@example.com\nBob,bob@example.com\n')
    const steps = [
      { type: 'readData', path: 'orders.csv' },
      { type: 'forEachRow' },
      { type: 'navigate', url: `${workflows.url}/order` },
      { type: 'type', target: [{ by: 'label', text: 'Customer name' }], text: '{{row.name}}' },
      { type: 'type', target: [{ by: 'label', text: 'Email' }], text: '{{row.email}}' },
      { type: 'click', target: [{ by: 'role', role: 'button', name: 'Place order' }] },
      { type: 'extract', target: [{ by: 'role', role: 'status' }], field: 'confirmation' },
      { type: 'end' },
      { type: 'writeData', path: 'results.csv' },
      { type: 'moveFile', from: 'orders.csv', to: 'orders.done.csv' },
    ]
    const id = await automation(steps)
    const run = await runAutomationLocally({
      api: api(),
      automationId: id,
      chromiumPath: '/usr/bin/chromium',
      browsers,
      allowedFolders: [folder],
    })
    expect(run).toMatchObject({ status: 'succeeded', error: null })
    expect(run.dataRows).toEqual([
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Bob', email: 'bob@example.com' },
    ])
    expect(run.rowOutcomes.map((row) => row.status)).toEqual(['done', 'done'])
    expect(await readFile(path.join(folder, 'results.csv'), 'utf8')).toBe(
      'confirmation\r\nOrder saved for Ada ()\r\nOrder saved for Bob ()\r\n',
    )
    expect(await readdir(folder)).toEqual(['orders.done.csv', 'results.csv'])
    expect(workflows.orders.map((order) => order.name)).toEqual(['Ada', 'Bob'])

    // Outside the allowed folder: refused, nothing read.
    const outside = await automation([{ type: 'readData', path: path.join(tmpdir(), 'elsewhere.csv') }])
    const refused = await runAutomationLocally({
      api: api(),
      automationId: outside,
      chromiumPath: '/usr/bin/chromium',
      browsers,
      allowedFolders: [folder],
    })
    expect(refused.error).toBe(
      `Step 1 (readData): “${path.join(tmpdir(), 'elsewhere.csv')}” is outside the folders this runner may use (“${folder}”)`,
    )

    // The cloud does not run them, and says where they run.
    const cloud = await t.request(`/api/automations/${id}/runs`, { token: member.token, body: { where: 'cloud' } })
    expect(cloud.status).toBe(400)
    expect(((await cloud.json()) as { message: string }).message).toBe(
      `Step 1 (readData) works with files on your own machine, so this automation runs on the local runner, not in the cloud: \`aether-runner run ${id}\`, or set it to run on your runner.`,
    )
    await rm(folder, { recursive: true, force: true })
  })
})
