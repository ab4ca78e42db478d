import { describe, expect, it } from 'vitest'
import type { AutomationStep, OnError } from '#common/automation-steps.ts'
import { REPORT_EVERY_MS, runSteps, StepFailure, type Progress, type StepLoopDeps } from './step-loop.ts'

const button = (name: string) => [{ by: 'role' as const, role: 'button' as const, name }]
const click = (name: string, onError?: OnError): AutomationStep => ({ type: 'click', target: button(name), onError })

/** A loop with a clock that moves only when it sleeps or a step takes time, and steps that fail as told. */
function harness(fails: (step: AutomationStep, attempt: number) => string | null, options: { stepMs?: number } = {}) {
  let clock = 0
  const attempts = new Map<AutomationStep, number>()
  const reports: Progress[] = []
  const performed: number[] = []
  let cancelled = false
  const deps: StepLoopDeps = {
    async perform(step, n) {
      const attempt = (attempts.get(step) ?? 0) + 1
      attempts.set(step, attempt)
      clock += options.stepMs ?? 10
      performed.push(n)
      const why = fails(step, attempt)
      if (why) throw new StepFailure(why)
      return step.type === 'extract' ? { values: ['Ada', 'Grace'] } : undefined
    },
    async report(progress) {
      reports.push(progress)
    },
    async sleep(ms) {
      clock += ms
    },
    now: () => clock,
    cancelled: () => cancelled,
  }
  return {
    deps,
    reports,
    performed,
    attempts,
    cancel: () => (cancelled = true),
    plan: (steps: AutomationStep[], limits: Partial<{ timeLimitMs: number; maxActions: number }> = {}) => ({
      steps,
      timeLimitMs: limits.timeLimitMs ?? 60_000,
      maxActions: limits.maxActions ?? 100,
      stepTimeoutMs: 5_000,
    }),
  }
}

describe('running a client run’s steps', () => {
  it('runs every step, reports each as time passes, and hands back the extracted table', async () => {
    const run = harness(() => null, { stepMs: REPORT_EVERY_MS })
    const steps: AutomationStep[] = [click('Go'), { type: 'extract', target: button('Name'), field: 'name' }]
    const outcome = await runSteps(run.plan(steps), run.deps)
    expect(outcome).toMatchObject({ status: 'succeeded', actionsPerformed: 2, extracted: [{ name: 'Ada' }, { name: 'Grace' }] })
    expect(run.reports.map((report) => report.actionsPerformed)).toEqual([1, 2])
    expect(run.reports[0]?.log[0]?.message).toBe('Step 1 (click): Button named “Go”')
    expect(run.reports[1]?.log.map((line) => line.message)).toContain('Step 2 (extract): 2 values for "name".')
  })

  it('reports a fast run’s first step at once and the next ones together, the last with the outcome', async () => {
    const run = harness(() => null, { stepMs: 400 })
    const outcome = await runSteps(run.plan([1, 2, 3, 4, 5, 6, 7].map((n) => click(`Button ${n}`))), run.deps)
    // Steps end at 400, 800, …, 2800 ms: reported after the 1st and the 6th (2 s on); the 7th comes with the outcome.
    expect(run.reports.map((report) => report.steps.map((step) => step.step))).toEqual([[1], [2, 3, 4, 5, 6]])
    expect(outcome.steps.map((step) => step.step)).toEqual([7])
    expect([...run.reports.flatMap((report) => report.log), ...outcome.log].map((line) => line.message)).toHaveLength(7)
  })

  it('reports each step for the timeline: words, time, outcome, the picture after it and what it extracted', async () => {
    const run = harness(
      (step, attempt) => (step.type === 'click' && attempt === 1 && JSON.stringify(step.target).includes('Next') ? 'not there' : null),
      {
        stepMs: 250,
      },
    )
    const taken: number[] = []
    run.deps.picture = async (n) => {
      taken.push(n)
      return n === 3 ? null : `after-${taken.length}.jpg`
    }
    const steps: AutomationStep[] = [
      click('Go'),
      click('Next', { retries: 0, delayMs: 0, then: 'skip' }),
      { type: 'extract', target: button('Name'), field: 'name' },
      click('Last'),
    ]
    const outcome = await runSteps(run.plan(steps), run.deps)
    expect(outcome.status).toBe('succeeded')
    const timeline = [...run.reports.flatMap((report) => report.steps), ...outcome.steps]
    expect(timeline.map((step) => [step.step, step.outcome, step.ms, step.screenshot])).toEqual([
      [1, 'done', 250, 'after-1.jpg'],
      [2, 'skipped', 250, null],
      [3, 'done', 250, null],
      [4, 'done', 250, 'after-3.jpg'],
    ])
    // No picture of a skipped step; the one the browser could not take is simply missing.
    expect(taken).toEqual([1, 3, 4])
    expect(timeline[0]).toMatchObject({ words: 'Button named “Go”', startedAt: new Date(0).toISOString(), error: null })
    expect(timeline[2]?.extracted).toEqual({ fields: ['name'], rows: [{ name: 'Ada' }, { name: 'Grace' }], total: 2 })
  })

  it('ends its timeline with the failed step, its error and its picture, sent with the outcome', async () => {
    const run = harness((step) => (step.type === 'click' ? 'no button' : null))
    run.deps.picture = async () => 'after-1.jpg'
    const outcome = await runSteps(run.plan([click('Go')]), run.deps)
    expect(outcome.steps).toEqual([
      expect.objectContaining({ step: 1, outcome: 'failed', error: 'Step 1 (click): no button', screenshot: 'after-1.jpg' }),
    ])
    expect(outcome.error).toBe('Step 1 (click): no button')
  })

  it('keeps an extract step’s records whole, with the pages they came from', async () => {
    const run = harness(() => null)
    run.deps.perform = async () => ({
      records: [
        { name: 'Lamp', price: '$12' },
        { name: 'Desk', price: null },
      ],
      pages: 2,
    })
    const step: AutomationStep = {
      type: 'extract',
      target: [{ by: 'css', selector: '.product' }],
      field: 'products',
      fields: [
        { name: 'name', part: [{ by: 'role', role: 'heading' }] },
        { name: 'price', part: [{ by: 'css', selector: '.price' }] },
      ],
      pages: { next: button('Next'), max: 20 },
    }
    const outcome = await runSteps(run.plan([step]), run.deps)
    expect(outcome.extracted).toEqual([
      { name: 'Lamp', price: '$12' },
      { name: 'Desk', price: null },
    ])
    expect(run.reports[0]?.log.map((line) => line.message)).toContain('Step 1 (extract): 2 records of "products" from 2 pages.')
  })

  it('fails the run at a failing step without onError, naming the step', async () => {
    const run = harness((step) => (step.type === 'click' ? 'no element matches Button named “Go”' : null))
    const outcome = await runSteps(run.plan([click('Go'), click('Next')]), run.deps)
    expect(outcome).toMatchObject({ status: 'failed', error: 'Step 1 (click): no element matches Button named “Go”', actionsPerformed: 0 })
    expect(run.performed).toEqual([1])
  })

  it('tries a step again as onError says, pausing between tries, then succeeds', async () => {
    const run = harness((_step, attempt) => (attempt < 3 ? 'not there yet' : null))
    const outcome = await runSteps(run.plan([click('Go', { retries: 2, delayMs: 500, then: 'fail' })]), run.deps)
    expect(outcome.status).toBe('succeeded')
    expect(run.performed).toEqual([1, 1, 1])
    const warnings = run.reports.flatMap((report) => report.log).filter((line) => line.level === 'warn')
    expect(warnings.map((line) => line.message)).toEqual([
      'Step 1 (click): not there yet; trying again in 0.5 s (retry 1 of 2).',
      'Step 1 (click): not there yet; trying again in 0.5 s (retry 2 of 2).',
    ])
  })

  it('skips a step that still fails with then: skip, and goes on', async () => {
    const broken = click('Gone', { retries: 1, delayMs: 0, then: 'skip' })
    const run = harness((step) => (step === broken ? 'no element' : null))
    const outcome = await runSteps(run.plan([broken, click('Next')]), run.deps)
    expect(outcome).toMatchObject({ status: 'succeeded', actionsPerformed: 1 })
    expect(run.performed).toEqual([1, 1, 2])
  })

  it('goes on after a step with then: continue and ends the run failed after the last step', async () => {
    const broken = click('Gone', { retries: 0, delayMs: 0, then: 'continue' })
    const run = harness((step) => (step === broken ? 'no element' : null))
    const outcome = await runSteps(run.plan([broken, click('Next'), click('Last')]), run.deps)
    expect(outcome).toMatchObject({ status: 'failed', error: 'Step 1 (click): no element (the steps after it ran)', actionsPerformed: 2 })
    expect(run.performed).toEqual([1, 2, 3])
  })

  it('fails a retried step at once when the failure is not a step failure', async () => {
    const run = harness(() => null)
    run.deps.perform = async () => {
      throw new Error('The tab was closed.')
    }
    const outcome = await runSteps(run.plan([click('Go', { retries: 3, delayMs: 0, then: 'skip' })]), run.deps)
    expect(outcome).toMatchObject({ status: 'failed', error: 'Step 1 (click): The tab was closed.' })
  })

  it('stops at the run’s action limit and at its time limit', async () => {
    const limited = harness(() => null)
    const byActions = await runSteps(limited.plan([click('A'), click('B'), click('C')], { maxActions: 2 }), limited.deps)
    expect(byActions).toMatchObject({ status: 'failed', error: "Step 3 (click): the run's action limit of 2 was reached" })
    expect(limited.performed).toEqual([1, 2])

    const slow = harness(() => null, { stepMs: 4_000 })
    const byTime = await runSteps(slow.plan([click('A'), click('B'), click('C')], { timeLimitMs: 6_000 }), slow.deps)
    expect(byTime).toMatchObject({ status: 'failed', error: "Step 2 (click): the run's time limit of 6 s was reached" })
    expect(slow.performed).toEqual([1, 2])
  })

  it('ends cancelled when the member stops it', async () => {
    const run = harness(() => null)
    run.deps.report = async () => {
      run.cancel()
    }
    const outcome = await runSteps(run.plan([click('A'), click('B')]), run.deps)
    expect(outcome).toMatchObject({ status: 'cancelled', actionsPerformed: 1 })
    expect(run.performed).toEqual([1])
  })
})
