import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { TRACE_TOO_LARGE, type TraceMode } from '#common/run-trace.ts'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { openBrowserSession } from '#server/browser/browser-session.ts'
import { createTargetGuard } from '#server/browser/target-guard.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { runToEnd } from '#server/testing/run-to-end.ts'
import { startSignInSite, storeSignInSecrets, type SignInSite } from '#server/testing/sign-in-site.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import type { RunDto } from './run.dto.ts'
import { createRunRetention } from './run-retention.ts'
import { HIDDEN_SIGN_IN } from './trace-masking.ts'
import { startTraceRecorder } from './trace-recorder.ts'

// Replays (docs/decisions/060): a cloud run keeps a Playwright trace when its automation says so
// (always, or only when it fails), with no vault value (nor a code it made, nor a cookie) in it,
// counted in the run's files, served to those who may see the run and gone with its files.

const USER = 'traced-user-71c3@example.com'
const PASSWORD = 'Traced pa55 & <9f2e>'
const TOTP_SECRET = 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA'

let t: TestApp
let site: SignInSite
let pages: Awaited<ReturnType<typeof startTestSite>>
let member: Awaited<ReturnType<TestApp['signUp']>>
let outsider: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  site = await startSignInSite({ user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
  pages = await startTestSite()
  t = await createTestApp({ privateTargets: 'loopback' })
  member = await t.signUp()
  outsider = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
  await storeSignInSecrets(t, member.token, site, { user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
})
afterAll(async () => {
  await t?.close()
  await site?.close()
  await pages?.close()
})

const SIGN_IN = (url: string): AutomationStep[] => [
  { type: 'navigate', url: `${url}/login` },
  { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.shop_user}}' },
  { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{secrets.shop_password}}' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Sign in' }] },
  { type: 'type', target: [{ by: 'label', text: 'One-time code' }], text: '{{totp.shop_totp}}' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Verify' }] },
  { type: 'assertText', text: 'Your orders' },
]

async function runOnce(steps: AutomationStep[], trace: TraceMode, options: { timeLimitMs?: number } = {}) {
  const created = await t.request('/api/automations', { token: member.token, body: { name: 'Traced', steps, trace } })
  expect(created.status, await created.clone().text()).toBe(201)
  const automation = ((await created.json()) as { data: { id: string; trace: TraceMode } }).data
  expect(automation.trace).toBe(trace)
  const started = await t.request(`/api/automations/${automation.id}/runs`, { token: member.token, body: { where: 'cloud' } })
  expect(started.status, await started.clone().text()).toBe(201)
  const { id } = ((await started.json()) as { data: { id: string } }).data
  await runToEnd(t, id, { timeLimitMs: options.timeLimitMs })
  const response = await t.request(`/api/runs/${id}`, { token: member.token })
  return ((await response.json()) as { data: RunDto }).data
}

async function traceOf(run: RunDto) {
  const response = await t.request(`/api/runs/${run.id}/trace`, { token: member.token })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/zip')
  expect(response.headers.get('content-disposition')).toContain(`run-${run.id}-trace.zip`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  expect(bytes.byteLength).toBe(run.trace?.bytes)
  return unzipSync(bytes)
}

/** Every spelling a page or Playwright might give a value: as typed, in a form or URL, in JSON or HTML. */
const spellings = (value: string) => [
  value,
  encodeURIComponent(value),
  new URLSearchParams({ v: value }).toString().slice(2),
  JSON.stringify(value).slice(1, -1),
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
]

describe('a run that keeps its trace', { timeout: 120_000 }, () => {
  it('keeps it every time with each step in words, and no vault value, code or cookie in it', async () => {
    const run = await runOnce(SIGN_IN(site.url), 'always')
    expect(run.status, run.error ?? '').toBe('succeeded')
    expect(run.traceMode).toBe('always')
    expect(run.trace).toMatchObject({ url: `/api/runs/${run.id}/trace`, missing: null })
    expect(run.trace?.viewerUrl).toBe(`/trace-viewer/index.html?trace=${encodeURIComponent(`/api/runs/${run.id}/trace`)}`)
    const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, run.id))
    // Counted in the run's files, with its step pictures.
    expect(row?.storedBytes).toBeGreaterThan(run.trace?.bytes ?? Infinity)

    const entries = await traceOf(run)
    const names = Object.keys(entries)
    expect(names).toContain('trace.trace')
    expect(names).toContain('trace.network')
    // A run that types vault values records no pictures: a picture cannot be masked.
    expect(names.filter((name) => name.endsWith('.jpeg'))).toEqual([])
    const everything = Object.values(entries).map((bytes) => Buffer.from(bytes).toString('latin1'))
    // The code the run made and typed is one of these: each is made at most once a window.
    const codes = site.posted.map((fields) => fields.code).filter((code): code is string => Boolean(code))
    expect(codes.length).toBeGreaterThan(0)
    for (const value of [USER, PASSWORD, TOTP_SECRET, ...codes])
      for (const spelling of spellings(value))
        expect(
          everything.some((text) => text.includes(spelling)),
          spelling,
        ).toBe(false)

    const events = strFromU8(entries['trace.trace'] as Uint8Array)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { method?: string; params?: Record<string, unknown>; title?: string; stack?: unknown })
    // The fills carry the placeholders; the account page's snapshot shows one where the user name was.
    const filled = events.filter((event) => event.method === 'fill').map((event) => event.params?.value)
    expect(filled).toEqual(expect.arrayContaining(['{{secrets.shop_user}}', '{{secrets.shop_password}}', '{{totp.shop_totp}}']))
    expect(events.some((event) => JSON.stringify(event).includes('Signed in as {{secrets.shop_user}}'))).toBe(true)
    // Each step is a group named as the log names it.
    const groups = events.filter((event) => event.method === 'tracingGroup').map((event) => event.title)
    expect(groups).toEqual(
      expect.arrayContaining(['Step 2 (type): Field labelled “User name” (21 characters)', 'Step 6 (click): Button named “Verify”']),
    )
    // Where in our code each call was made is ours, not the member's.
    expect(events.filter((event) => event.stack !== undefined)).toEqual([])
    expect(names).not.toContain('trace.stacks')

    const network = strFromU8(entries['trace.network'] as Uint8Array)
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { snapshot?: { request: { headers: Header[] }; response: { headers: Header[]; cookies: Header[] } } },
      )
    type Header = { name: string; value: string }
    const signIns = network
      .flatMap((entry) => [...(entry.snapshot?.request.headers ?? []), ...(entry.snapshot?.response.headers ?? [])])
      .filter((header) => /^(set-)?cookie$/i.test(header.name))
    expect(signIns.length).toBeGreaterThan(0)
    expect(new Set(signIns.map((header) => header.value))).toEqual(new Set([HIDDEN_SIGN_IN]))

    // Those who may see the run have it; nobody else knows it exists.
    const stranger = await t.request(`/api/runs/${run.id}/trace`, { token: outsider.token })
    expect(stranger.status).toBe(404)
  })

  it('keeps it only when the run fails, with pictures when no vault value is typed, also when the time limit stops it', async () => {
    const passing = await runOnce([{ type: 'navigate', url: `${pages.url}/` }], 'onFailure')
    expect(passing.status).toBe('succeeded')
    expect(passing.trace).toBeNull()
    expect((await t.request(`/api/runs/${passing.id}/trace`, { token: member.token })).status).toBe(404)

    const failing = await runOnce(
      [
        { type: 'navigate', url: `${pages.url}/` },
        { type: 'assertText', text: 'A sentence this page never says' },
      ],
      'onFailure',
    )
    expect(failing.status).toBe('failed')
    const entries = await traceOf(failing)
    expect(Object.keys(entries).some((name) => name.endsWith('.jpeg'))).toBe(true)
    expect(strFromU8(entries['trace.trace'] as Uint8Array)).toContain('Step 2 (assertText): ')

    // Out of time in the middle of a step: the trace is written before the browser closes.
    const late = await runOnce(
      [
        { type: 'navigate', url: `${pages.url}/late?ms=20000` },
        { type: 'click', target: [{ by: 'role', role: 'button', name: 'Late' }] },
      ],
      'onFailure',
      { timeLimitMs: 3_000 },
    )
    expect(late.status).toBe('failed')
    expect(late.error).toContain('time limit')
    expect(late.trace?.bytes).toBeGreaterThan(0)
    expect(Object.keys(await traceOf(late))).toContain('trace.trace')
  })

  it('goes with the run’s files when its plan’s retention ends', async () => {
    const run = await runOnce([{ type: 'navigate', url: `${pages.url}/` }], 'always')
    expect(run.trace?.bytes).toBeGreaterThan(0)
    await t.db
      .update(automationRuns)
      .set({ finishedAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(eq(automationRuns.id, run.id))
    const retention = createRunRetention({ db: t.db, runFiles: t.services.runFiles, logger: pino({ level: 'silent' }) })
    expect(await retention.sweep()).toBeGreaterThanOrEqual(1)
    const after = ((await (await t.request(`/api/runs/${run.id}`, { token: member.token })).json()) as { data: RunDto }).data
    expect(after.trace).toBeNull()
    expect(after.filesRemovedAt).not.toBeNull()
    expect((await t.request(`/api/runs/${run.id}/trace`, { token: member.token })).status).toBe(404)
  })
})

describe('the trace recorder', { timeout: 60_000 }, () => {
  it('keeps no trace that would not fit in the run’s files, and drops one nobody wants', async () => {
    const browser = await t.services.browsers.acquire()
    const session = await openBrowserSession({ browser, guard: createTargetGuard({ policy: 'loopback' }) })
    try {
      const saved: Uint8Array[] = []
      const options = { hidden: new Map(), save: async (bytes: Uint8Array) => void saved.push(bytes) }
      const full = startTraceRecorder({ context: session.context, pictures: false, logger: pino({ level: 'silent' }), runId: 'x' })
      await session.page.goto(`${pages.url}/`)
      expect(await full.finish({ ...options, wanted: true, room: () => false })).toEqual({ missing: TRACE_TOO_LARGE })
      const unwanted = startTraceRecorder({ context: session.context, pictures: false, logger: pino({ level: 'silent' }), runId: 'y' })
      await session.page.goto(`${pages.url}/`)
      expect(await unwanted.finish({ ...options, wanted: false, room: () => true })).toBeNull()
      expect(saved).toEqual([])
    } finally {
      await session.close()
      t.services.browsers.release()
    }
  })
})
