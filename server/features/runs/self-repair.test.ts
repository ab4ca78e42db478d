import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, creditLedger, rateLimits, workspaces } from '#server/db/schema/index.ts'
import { modelCallLimitKey } from '#server/features/credits/model-calls.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { startPracticeSites, type PracticeSites } from '#server/testing/practice-sites.ts'
import { repairFromQuestion, scriptedRepair } from '#server/testing/scripted-model.ts'
import { createCloudWorker } from './cloud-worker.ts'
import { personalCaller } from '#server/testing/callers.ts'

// Self-repair (docs/decisions/019): an automation made on the original design of a site runs on
// its redesign. Ways of a target that survive the redesign stand in; similar words on the page
// and then the AI model look for what a broken target meant; "Apply fix" writes a repair into the
// automation, and the next run needs no repair.

let t: TestApp
let sites: PracticeSites
let model: FakeChatCompletions
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  sites = await startPracticeSites()
  model = await startFakeChatCompletions()
  t = await createTestApp({ privateTargets: 'loopback', ai: { baseUrl: model.baseUrl } })
  member = await t.signUp()
})
afterAll(async () => {
  await t?.close()
  await model?.close()
  await sites?.close()
})
beforeEach(async () => {
  sites.redesign('original')
  model.requests.length = 0
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
})

async function runOf(steps: AutomationStep[], options: { selfRepair?: boolean } = {}) {
  const automation = await t.services.automations.create(personalCaller(member), {
    name: 'Sign in',
    description: '',
    steps,
    schedule: null,
    enabled: true,
    ...options,
  })
  return runAgain(automation.id)
}

async function runAgain(automationId: string) {
  const caller = personalCaller(member)
  const started = await t.services.runs.start(automationId, caller, { runner: 'cloud', trigger: 'manual' })
  const worker = createCloudWorker({
    runQueue: t.services.runQueue,
    runFiles: t.services.runFiles,
    events: t.services.events,
    browsers: t.services.browsers,
    repairer: t.services.repairer,
    logger: pino({ level: 'silent' }),
    config: {
      concurrency: 1,
      chromiumPath: '/usr/bin/chromium',
      stepTimeoutMs: 3_000,
      timeLimitMs: 60_000,
      maxActions: 100,
      privateTargets: 'loopback',
      pollMs: 50,
    },
  })
  worker.start()
  try {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, started.id))
      if (row && ['succeeded', 'failed'].includes(row.status)) return { run: row, automationId }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('the run did not finish')
  } finally {
    await worker.stop(1_000)
  }
}

const SIGN_IN = (site: string): AutomationStep[] => [
  { type: 'navigate', url: `${site}/signin` },
  // What the planner and inspector write: words first, CSS as the machine's fallback.
  {
    type: 'type',
    target: [
      { by: 'label', text: 'Email' },
      { by: 'css', selector: '#user' },
    ],
    text: 'walker@example.com',
  },
  {
    type: 'type',
    target: [
      { by: 'css', selector: '#pass' },
      { by: 'label', text: 'Password' },
    ],
    text: 'trail-mix-42',
  },
  // Words the redesign changed ('Log in' is now 'Sign in'), and a CSS path it removed.
  {
    type: 'click',
    target: [
      { by: 'role', role: 'button', name: 'Log in' },
      { by: 'css', selector: '#go' },
    ],
  },
  { type: 'assertText', text: 'Welcome back' },
]

describe('runs that repair themselves', () => {
  it('uses a way of the target that survived the redesign, and similar words where none did; Apply fix makes the next run clean', async () => {
    sites.redesign()
    const { run, automationId } = await runOf(SIGN_IN(sites.url))
    expect(run.error).toBeNull()
    expect(run.status).toBe('succeeded')
    // Step 3's first way (#pass) is gone: its label stood in. Neither way of step 4 is left: a button saying the same was found.
    expect(run.repairs.map(({ step, how, used }) => ({ step, how, used }))).toEqual([
      { step: 3, how: 'alternative', used: { by: 'label', text: 'Password' } },
      { step: 4, how: 'similar', used: { by: 'role', role: 'button', name: 'Sign in' } },
    ])
    expect(run.repairs.every((repair) => repair.file && run.screenshots.some((shot) => shot.file === repair.file))).toBe(true)
    expect(run.log.map((line) => line.message)).toContain(
      'Step 4: Button named “Log in” was not found; similar words on the page found Button named “Sign in” instead.',
    )
    // No model was needed, so none was asked.
    expect(model.requests).toHaveLength(0)

    for (const step of [3, 4]) {
      const applied = await t.request(`/api/runs/${run.id}/repairs/${step}/apply`, { method: 'POST', token: member.token })
      expect(applied.status, await applied.clone().text()).toBe(200)
    }
    const automation = await t.services.automations.get(automationId, personalCaller(member))
    expect(automation.version).toBe(3)
    expect((automation.steps[3] as { target: unknown[] }).target[0]).toEqual({ by: 'role', role: 'button', name: 'Sign in' })
    // The old ways stay behind as fallbacks.
    expect((automation.steps[3] as { target: unknown[] }).target).toContainEqual({ by: 'css', selector: '#go' })
    const again = await t.request(`/api/runs/${run.id}/repairs/4/apply`, { method: 'POST', token: member.token })
    expect(again.status).toBe(409)

    const next = await runAgain(automationId)
    expect(next.run).toMatchObject({ status: 'succeeded', repairs: [] })
  })

  it('asks the AI model when nothing on the page says the same, paying one model call', async () => {
    sites.redesign()
    model.respondWith({ reply: scriptedRepair('Forgot password') })
    const steps: AutomationStep[] = [
      { type: 'navigate', url: `${sites.url}/signin` },
      { type: 'click', target: [{ by: 'css', selector: 'a.reset-link' }] },
    ]
    const { run } = await runOf(steps)
    expect(run.status).toBe('succeeded')
    expect(run.repairs).toMatchObject([{ step: 2, how: 'model', used: { by: 'role', role: 'link', name: 'Forgot password?' } }])
    expect(model.requests).toHaveLength(1)
    const calls = await t.db
      .select()
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.workspaceId, member.id),
          eq(creditLedger.reason, 'model_call'),
          eq(creditLedger.reference, `repair: run ${run.id}`),
        ),
      )
    expect(calls).toHaveLength(1)
    // Rate limited for the member who started the run (docs/decisions/020).
    const [counter] = await t.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, modelCallLimitKey({ workspaceId: member.id, memberId: member.id })))
    expect(counter?.count).toBe(1)
  })

  it('a model that reads only the question repairs a CSS-only step by the words of its classes', async () => {
    sites.redesign()
    // The way a version-1 automation names a link: its class, which the redesign dropped.
    model.respondWith({ reply: repairFromQuestion })
    const { run } = await runOf([
      { type: 'navigate', url: `${sites.url}/signin` },
      { type: 'click', target: [{ by: 'css', selector: 'a.forgot-password' }] },
    ])
    expect(run.status).toBe('succeeded')
    expect(run.repairs).toMatchObject([{ step: 2, how: 'model', used: { by: 'role', role: 'link', name: 'Forgot password?' } }])
    // Asked about a step whose ways say nothing the page says, it answers that nothing fits.
    model.requests.length = 0
    const unknown = await runOf([
      { type: 'navigate', url: `${sites.url}/signin` },
      { type: 'click', target: [{ by: 'css', selector: 'a.newsletter-archive' }] },
    ])
    expect(unknown.run.status).toBe('failed')
    expect(model.requests).toHaveLength(1)
  })

  it('never shows the model what a step types', async () => {
    sites.redesign()
    model.respondWith({ reply: scriptedRepair('Password') })
    const { run } = await runOf([
      { type: 'navigate', url: `${sites.url}/signin` },
      { type: 'type', target: [{ by: 'css', selector: 'input.pw-old' }], text: 'trail-mix-42' },
    ])
    expect(run.status).toBe('succeeded')
    expect(run.repairs).toMatchObject([{ step: 2, how: 'model' }])
    expect(model.requests).toHaveLength(1)
    expect(JSON.stringify(model.requests[0]?.body)).not.toContain('trail-mix-42')
  })

  it('does not repair when the automation turned self-repair off, nor ask the model on a plan without it', async () => {
    sites.redesign()
    const off = await runOf(SIGN_IN(sites.url), { selfRepair: false })
    expect(off.run.status).toBe('failed')
    expect(off.run.error).toBe(
      'Step 4 (click): no way to find the element worked within 3 s (Button named “Log in”: no element; Element “go” (found by the page’s structure): no element)',
    )

    // A member on Free, with this month's runs still to use.
    member = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'free', credits: 10 }).where(eq(workspaces.id, member.id))
    model.respondWith({ reply: scriptedRepair('Forgot password') })
    const free = await runOf([
      { type: 'navigate', url: `${sites.url}/signin` },
      { type: 'click', target: [{ by: 'css', selector: 'a.reset-link' }] },
    ])
    expect(free.run.status).toBe('failed')
    expect(model.requests).toHaveLength(0)
    expect(free.run.log.map((line) => line.message)).toContain(
      'Self-repair by the AI model is part of the Pro plan; you are on the Free plan. Upgrade to use it.',
    )
  })
})
