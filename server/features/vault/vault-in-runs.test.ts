import { readFileSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { auditLog, automationRuns, automationSessions, workspaces } from '#server/db/schema/index.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { countPixels } from '#server/testing/png-pixels.ts'
import { scriptedPlanner, scriptedRepair } from '#server/testing/scripted-model.ts'
import { startSignInSite, storeSignInSecrets, type SignInSite } from '#server/testing/sign-in-site.ts'

// Vault values in cloud runs (docs/decisions/025): a run signs in to a site protected by a
// password and a one-time code with the vault's values and a live code, and no value (nor a code
// it made) appears in anything the run stores or answers: its log, error, extracted rows, exports,
// the automation, the activity, the AI model's requests. Screenshots mask the fields it typed.

const USER = 'planted-user-4b1e@example.com'
const PASSWORD = 'Planted-Pa55-9c2d7e'
const TOTP_SECRET = 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA'
const PLANTED = [USER, PASSWORD, TOTP_SECRET]
/** Playwright's mask colour. */
const MAGENTA: [number, number, number] = [255, 0, 255]

let t: TestApp
let site: SignInSite
let model: FakeChatCompletions
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  site = await startSignInSite({ user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
  model = await startFakeChatCompletions()
  t = await createTestApp({ privateTargets: 'loopback', ai: { baseUrl: model.baseUrl } })
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
  await storeSignInSecrets(t, member.token, site, { user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
})
afterAll(async () => {
  await t?.close()
  await model?.close()
  await site?.close()
})
beforeEach(() => {
  model.requests.length = 0
})

const SIGN_IN = (url: string): AutomationStep[] => [
  { type: 'navigate', url: `${url}/account` },
  { type: 'click', target: [{ by: 'role', role: 'link', name: 'Sign in' }] },
  { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.shop_user}}' },
  { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{secrets.shop_password}}' },
  { type: 'screenshot', name: 'Typed' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Sign in' }] },
  { type: 'type', target: [{ by: 'label', text: 'One-time code' }], text: '{{totp.shop_totp}}' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Verify' }] },
  { type: 'assertText', text: 'Your orders' },
]

async function automationOf(steps: AutomationStep[]) {
  const created = await t.request('/api/automations', { token: member.token, body: { name: 'Shop orders', steps } })
  expect(created.status, await created.clone().text()).toBe(201)
  return ((await created.json()) as { data: { id: string } }).data.id
}

/** Starts a cloud run through the API and lets a cloud worker (with the vault, as main.ts wires it) run it. */
async function run(automationId: string) {
  const started = await t.request(`/api/automations/${automationId}/runs`, { token: member.token, body: { where: 'cloud' } })
  expect(started.status, await started.clone().text()).toBe(201)
  const { id } = ((await started.json()) as { data: { id: string } }).data
  const worker = createCloudWorker({
    runQueue: t.services.runQueue,
    runFiles: t.services.runFiles,
    events: t.services.events,
    browsers: t.services.browsers,
    repairer: t.services.repairer,
    vault: t.services.vault,
    logger: pino({ level: 'silent' }),
    config: {
      concurrency: 1,
      chromiumPath: '/usr/bin/chromium',
      stepTimeoutMs: 5_000,
      timeLimitMs: 90_000,
      maxActions: 100,
      privateTargets: 'loopback',
      pollMs: 50,
    },
  })
  worker.start()
  try {
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, id))
      if (row && ['succeeded', 'failed'].includes(row.status)) return row
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('the run did not finish')
  } finally {
    await worker.stop(1_000)
  }
}

/** Every answer and record a member (or a model) could read about a run, as text. */
async function everythingAbout(runId: string, automationId: string): Promise<Record<string, string>> {
  const get = async (url: string) => {
    const response = await t.request(url, { token: member.token })
    expect(response.status, url).toBe(200)
    return response.text()
  }
  const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId))
  return {
    run: await get(`/api/runs/${runId}`),
    runs: await get('/api/runs?limit=100'),
    csv: await get(`/api/runs/${runId}/extracted.csv`),
    json: await get(`/api/runs/${runId}/extracted.json`),
    automation: await get(`/api/automations/${automationId}`),
    vault: await get('/api/vault'),
    activity: await get('/api/workspaces/current/activity'),
    stored: JSON.stringify(row),
    audit: JSON.stringify(await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, member.id))),
    model: JSON.stringify(model.requests),
  }
}

function expectNoneOf(values: string[], places: Record<string, string>) {
  const leaks = Object.entries(places).flatMap(([place, text]) =>
    values.filter((value) => text.includes(value)).map((value) => `${value} in ${place}`),
  )
  expect(leaks).toEqual([])
}

describe('vault values in cloud runs', () => {
  it('signs in with the vault values and a live one-time code, and writes none of them down anywhere', async () => {
    // After signing in, a step whose only way of finding its element is gone: the AI model is asked (with the page, which shows the user name).
    model.respondWith({ reply: scriptedRepair('Sign out') })
    const automationId = await automationOf([
      ...SIGN_IN(site.url),
      { type: 'extract', target: [{ by: 'css', selector: '#who' }], field: 'who' },
      { type: 'click', target: [{ by: 'css', selector: '#sign-out-button' }] },
    ])
    const signInsBefore = site.signIns
    const row = await run(automationId)
    expect(row.error).toBeNull()
    expect(row.status).toBe('succeeded')
    expect(site.signIns).toBe(signInsBefore + 1)

    // The site was sent the real values and a code its own authenticator library accepted.
    const sent = site.posted.slice(-2)
    expect(sent[0]).toEqual({ user: USER, password: PASSWORD })
    const code = sent[1]?.code ?? ''
    expect(code).toMatch(/^\d{6}$/)

    // What the run stores says where a value was, not what it was.
    expect(row.extracted).toEqual([{ who: 'Signed in as {{secrets.shop_user}}' }])
    // So does its timeline (docs/decisions/057): the typed steps counted, the extracted value with its placeholder.
    expect(row.timeline.find((step) => step.step === 3)?.words).toBe('Field labelled “User name” (21 characters)')
    expect(row.timeline.find((step) => step.step === 10)?.extracted?.rows).toEqual([{ who: 'Signed in as {{secrets.shop_user}}' }])
    expect(row.steps[2]).toMatchObject({ text: '{{secrets.shop_user}}' })
    expect(row.repairs.map((repair) => repair.how)).toEqual(['model'])
    expect(model.requests.length).toBeGreaterThan(0)
    // The model saw the page with the placeholder where the page showed the user name.
    expect(JSON.stringify(model.requests)).toContain('{{secrets.shop_user}}')

    const places = await everythingAbout(row.id, automationId)
    expectNoneOf(PLANTED, places)
    // Nor the one-time code the run typed.
    expectNoneOf([code], { log: JSON.stringify(row.log), extracted: JSON.stringify(row.extracted), model: places.model ?? '' })

    // The screenshot after typing masks both fields (Playwright paints them over in magenta).
    const typed = row.screenshots.find((shot) => shot.name === 'Typed')
    expect(typed).toBeDefined()
    const png = readFileSync(path.join(t.dataDir, 'runs', row.id, typed?.file ?? ''))
    expect(countPixels(png, MAGENTA)).toBeGreaterThan(1_000)
  }, 120_000)

  it('plans from a task that names secrets with the model seeing placeholders only (the planner never reads the vault)', async () => {
    model.respondWith({ reply: scriptedPlanner([{ type: 'type', element: 'User name', text: '{{secrets.shop_user}}' }]) })
    const planned = await t.request('/api/automations/plan', {
      token: member.token,
      body: { description: 'Sign in as {{secrets.shop_user}} with the password {{secrets.shop_password}}', startUrl: `${site.url}/login` },
    })
    const text = await planned.text()
    expect(planned.status, text).toBe(200)
    expect(model.requests.length).toBeGreaterThan(0)
    expect(JSON.stringify(model.requests)).toContain('{{secrets.shop_user}}')
    expectNoneOf(PLANTED, { answer: text, model: JSON.stringify(model.requests) })
  }, 120_000)

  it('refuses to start a client run of steps that name secrets without a device: only the cloud and allowed devices fill them in', async () => {
    const automationId = await automationOf(SIGN_IN(site.url))
    const started = await t.request(`/api/automations/${automationId}/runs`, { token: member.token, body: { where: 'client' } })
    expect(started.status).toBe(400)
    expect(((await started.json()) as { message: string }).message).toBe(
      'This automation uses {{secrets.shop_user}} from the vault, which only cloud runs and devices allowed vault values fill in: run it in the cloud.',
    )
  })

  it('hides a value the page shows in a failing step’s error and log', async () => {
    // A secret is no longer written into an expected text (docs/decisions/039), but the page may show one back.
    const automationId = await automationOf([
      ...SIGN_IN(site.url),
      { type: 'assertText', target: [{ by: 'css', selector: '#who' }], text: 'Signed in as nobody' },
    ])
    const row = await run(automationId)
    expect(row.status).toBe('failed')
    expect(row.error).toContain('does not contain "Signed in as nobody" (it reads "Signed in as {{secrets.shop_user}}")')
    expectNoneOf(PLANTED, await everythingAbout(row.id, automationId))
  }, 120_000)

  it('runs no script on a page a vault value was typed into; a new page may run one, and its result hides a value', async () => {
    const refused = await run(
      await automationOf([
        { type: 'navigate', url: `${site.url}/account` },
        { type: 'click', target: [{ by: 'role', role: 'link', name: 'Sign in' }] },
        { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.shop_user}}' },
        { type: 'script', code: "return document.querySelector('input').value", storeAs: 'typed', extract: true },
      ]),
    )
    expect(refused.error).toBe('Step 4 (script): a vault value was typed on this page, so no script may run on it: open another page first')
    expect(refused.extracted).toEqual([])
    const automationId = await automationOf([
      ...SIGN_IN(site.url),
      { type: 'navigate', url: `${site.url}/account` },
      { type: 'script', code: "return document.querySelector('#who')?.textContent ?? ''", storeAs: 'who', extract: true },
    ])
    const row = await run(automationId)
    expect(row.error).toBeNull()
    expect(row.extracted).toEqual([{ who: 'Signed in as {{secrets.shop_user}}' }])
    // So does its timeline (docs/decisions/057): the typed steps counted, the extracted value with its placeholder.
    expect(row.timeline.find((step) => step.step === 3)?.words).toBe('Field labelled “User name” (21 characters)')
    expect(row.timeline.find((step) => step.step === 11)?.extracted?.rows).toEqual([{ who: 'Signed in as {{secrets.shop_user}}' }])
    expectNoneOf(PLANTED, await everythingAbout(row.id, automationId))
  }, 120_000)

  it('fails the step naming a secret that was deleted after the automation was saved', async () => {
    const created = await t.request('/api/vault', {
      token: member.token,
      body: { name: 'short_lived', kind: 'value', value: 'gone-soon-123', origins: [site.url] },
    })
    const { id } = ((await created.json()) as { data: { id: string } }).data
    const automationId = await automationOf([
      { type: 'navigate', url: `${site.url}/login` },
      { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.short_lived}}' },
    ])
    expect((await t.request(`/api/vault/${id}`, { method: 'DELETE', token: member.token })).status).toBe(200)
    const row = await run(automationId)
    expect(row.status).toBe('failed')
    expect(row.error).toBe('Step 2 (type): {{secrets.short_lived}} could not be filled: the vault has no secret named short_lived')
    expect(row.refundedAt).toBeNull()
    // The vault is read as the run starts: the member's own services answer the same.
    expect((await t.services.vault.valuesFor(personalCaller(member).workspace.id, ['short_lived'])).size).toBe(0)
  }, 120_000)
})

describe('kept browser sessions and the sign-in block', () => {
  const BLOCK = {
    from: 2,
    to: 8,
    check: { target: [{ by: 'role', role: 'link', name: 'Sign in' }], present: 'signedOut' },
  } as const

  async function keepingAutomation(): Promise<string> {
    const created = await t.request('/api/automations', {
      token: member.token,
      body: { name: 'Orders, signed in once', steps: SIGN_IN(site.url), keepSession: true, signInBlock: BLOCK },
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const { data } = (await created.json()) as { data: { id: string; keepSession: boolean; signInBlock: unknown } }
    expect(data).toMatchObject({ keepSession: true, signInBlock: BLOCK })
    return data.id
  }

  const sessionRow = async (automationId: string) =>
    (await t.db.select().from(automationSessions).where(eq(automationSessions.automationId, automationId)))[0]

  it('signs in on the first run and keeps the session; the next run finds itself signed in and skips the sign-in', async () => {
    const automationId = await keepingAutomation()
    const before = site.signIns

    const first = await run(automationId)
    expect(first.error).toBeNull()
    expect(first.status).toBe('succeeded')
    expect(site.signIns).toBe(before + 1)
    const firstLog = first.log.map((line) => line.message)
    expect(firstLog).toContain('No kept browser session yet: starting signed out.')
    expect(firstLog).toContain('Kept the browser session for the next run.')
    const kept = await sessionRow(automationId)
    expect(kept?.sealedState).toMatch(/^v1\./)
    expect(kept?.sealedState).not.toContain('127.0.0.1')
    expect(kept?.savedByRun).toBe(first.id)

    const second = await run(automationId)
    expect(second.error).toBeNull()
    expect(second.status).toBe('succeeded')
    expect(site.signIns).toBe(before + 1)
    const secondLog = second.log.map((line) => line.message)
    expect(secondLog).toContain('Starting with the browser session kept from an earlier run.')
    expect(secondLog).toContain('Step 2: signed in already, so the sign-in steps 2 to 8 are skipped.')
    // Step 1 (open the account page) and step 9 (check the orders) only.
    expect(second.actionsPerformed).toBe(2)
    expectNoneOf(PLANTED, await everythingAbout(second.id, automationId))

    // Forget session: the next run signs in again.
    const forgotten = await t.request(`/api/automations/${automationId}/session`, { method: 'DELETE', token: member.token })
    expect(forgotten.status).toBe(200)
    expect(((await forgotten.json()) as { data: { forgotten: boolean } }).data.forgotten).toBe(true)
    expect(await sessionRow(automationId)).toBeUndefined()
    const third = await run(automationId)
    expect(third.status).toBe('succeeded')
    expect(site.signIns).toBe(before + 2)
    expect(third.log.map((line) => line.message)).not.toContain('Step 2: signed in already, so the sign-in steps 2 to 8 are skipped.')
  }, 240_000)

  it('forgets the session when keeping it is turned off, and only its workspace may forget it', async () => {
    const automationId = await keepingAutomation()
    await run(automationId)
    expect(await sessionRow(automationId)).toBeDefined()
    const stranger = await t.signUp()
    expect((await t.request(`/api/automations/${automationId}/session`, { method: 'DELETE', token: stranger.token })).status).toBe(404)
    expect(await sessionRow(automationId)).toBeDefined()
    const off = await t.request(`/api/automations/${automationId}`, { method: 'PUT', token: member.token, body: { keepSession: false } })
    expect(off.status).toBe(200)
    expect(await sessionRow(automationId)).toBeUndefined()
    const again = await t.request(`/api/automations/${automationId}/session`, { method: 'DELETE', token: member.token })
    expect(((await again.json()) as { data: { forgotten: boolean } }).data.forgotten).toBe(false)
  }, 120_000)

  it('refuses a sign-in block outside the steps, or one that starts at step 1', async () => {
    const outside = await t.request('/api/automations', {
      token: member.token,
      body: { name: 'Bad block', steps: SIGN_IN(site.url), signInBlock: { ...BLOCK, to: 12 } },
    })
    expect(outside.status).toBe(400)
    expect(((await outside.json()) as { message: string }).message).toBe(
      'The sign-in block ends at step 12, but the automation has 9 steps.',
    )
    const first = await t.request('/api/automations', {
      token: member.token,
      body: { name: 'Bad block', steps: SIGN_IN(site.url), signInBlock: { ...BLOCK, from: 1 } },
    })
    expect(first.status).toBe(400)
  })
})
