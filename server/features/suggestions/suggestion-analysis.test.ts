import { describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import type { RunLogLine, RunRepair } from '#server/db/schema/index.ts'
import { stepDurations } from './run-timings.ts'
import { MAX_SUGGESTIONS, suggestionId, suggestionsFor, type AnalysedRun, type SuggestedAutomation } from './suggestion-analysis.ts'

const SIGN_IN: Target = [
  { by: 'role', role: 'button', name: 'Sign in' },
  { by: 'css', selector: '#login' },
]
const EMAIL: Target = [
  { by: 'label', text: 'Email' },
  { by: 'css', selector: 'input[name=email]' },
]

const automationOf = (steps: AutomationStep[], more: Partial<SuggestedAutomation> = {}): SuggestedAutomation => ({
  id: '6f1c1a4e-0000-4000-8000-000000000001',
  version: 3,
  steps,
  selfRepair: true,
  ...more,
})

const runOf = (steps: AutomationStep[], more: Partial<AnalysedRun> = {}): AnalysedRun => ({
  status: 'succeeded',
  steps,
  error: null,
  log: [],
  repairs: [],
  refundedAt: null,
  ...more,
})

const repairOf = (step: number, more: Partial<RunRepair> = {}): RunRepair => ({
  step,
  failed: { by: 'role', role: 'button', name: 'Sign in' },
  used: { by: 'css', selector: '#login' },
  how: 'alternative',
  at: '2025-05-01T10:00:00.000Z',
  ...more,
})

/** A cloud run's log: each step starting after the given number of milliseconds, then 'Finished'. */
function logOf(durations: number[]): RunLogLine[] {
  let at = Date.parse('2025-05-01T10:00:00.000Z')
  const lines: RunLogLine[] = [{ at: new Date(at).toISOString(), level: 'info', message: 'Running in the cloud: 3 steps.' }]
  durations.forEach((ms, index) => {
    lines.push({ at: new Date(at).toISOString(), level: 'info', message: `Step ${index + 1} (click): something` })
    at += ms
  })
  lines.push({ at: new Date(at).toISOString(), level: 'info', message: `Finished: ${durations.length} steps in 9 s.` })
  return lines
}

const kindsOf = (automation: SuggestedAutomation, runs: AnalysedRun[] = []) =>
  suggestionsFor(automation, runs).map((suggestion) => `${suggestion.kind} ${suggestion.step}`)

describe('fixed-wait', () => {
  const steps: AutomationStep[] = [
    { type: 'navigate', url: 'https://example.com/login' },
    { type: 'wait', ms: 3000 },
    { type: 'click', target: SIGN_IN },
  ]

  it('replaces a fixed wait before an element step by a wait for that element', () => {
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps), [])
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({ kind: 'fixed-wait', step: 2, title: 'Wait for “Sign in” instead of 3 s' })
    expect(suggestion?.change).toEqual({ steps: [steps[0], { type: 'wait', target: SIGN_IN }, steps[2]] })
  })

  it('leaves a short wait, a wait before a step without an element, and a wait for an element alone', () => {
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', ms: 300 },
          { type: 'click', target: SIGN_IN },
        ]),
      ),
    ).toEqual([])
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', ms: 3000 },
          { type: 'navigate', url: 'https://example.com/' },
        ]),
      ),
    ).toEqual([])
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', ms: 3000 },
          { type: 'press', key: 'Enter' },
        ]),
      ),
    ).toEqual([])
    expect(kindsOf(automationOf([{ type: 'wait', ms: 3000 }]))).toEqual([])
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', target: EMAIL },
          { type: 'click', target: SIGN_IN },
        ]),
      ),
    ).toEqual([])
  })

  it('counts from 500 ms', () => {
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', ms: 500 },
          { type: 'type', target: EMAIL, text: 'a@b.c' },
        ]),
      ),
    ).toEqual(['fixed-wait 1'])
    expect(
      kindsOf(
        automationOf([
          { type: 'wait', ms: 499 },
          { type: 'type', target: EMAIL, text: 'a@b.c' },
        ]),
      ),
    ).toEqual([])
  })
})

describe('often-repaired', () => {
  const steps: AutomationStep[] = [
    { type: 'navigate', url: 'https://example.com/login' },
    { type: 'click', target: SIGN_IN },
  ]
  const repaired = (more: Partial<RunRepair> = {}) => runOf(steps, { repairs: [repairOf(2, more)] })

  it('puts the way that worked first when a step was repaired in two recent runs', () => {
    const runs = [repaired(), runOf(steps), repaired(), ...Array.from({ length: 5 }, () => runOf(steps))]
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps), runs)
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({ kind: 'often-repaired', step: 2 })
    expect(suggestion?.detail).toContain('in 2 of the last 8 runs')
    expect(suggestion?.change.steps?.[1]).toEqual({
      type: 'click',
      target: [
        { by: 'css', selector: '#login' },
        { by: 'role', role: 'button', name: 'Sign in' },
      ],
    })
    expect(suggestion?.change.steps?.[0]).toEqual(steps[0])
  })

  it("uses the repair's whole target when it has one, then the old ways not in it", () => {
    const target: Target = [
      { by: 'text', text: 'Log in' },
      { by: 'css', selector: '#login' },
    ]
    const [suggestion] = suggestionsFor(automationOf(steps), [repaired({ how: 'similar', target }), repaired({ how: 'similar', target })])
    expect(suggestion?.change.steps?.[1]).toEqual({ type: 'click', target: [...target, SIGN_IN[0]] })
  })

  it('keeps at most 8 ways', () => {
    const many: Target = Array.from({ length: 8 }, (_, index) => ({ by: 'css' as const, selector: `#old-${index}` }))
    const wide: AutomationStep[] = [{ type: 'click', target: many }]
    const run = runOf(wide, { repairs: [repairOf(1, { used: { by: 'text', text: 'Go' } })] })
    const [suggestion] = suggestionsFor(automationOf(wide), [run, run])
    expect(suggestion?.change.steps?.[0]).toEqual({ type: 'click', target: [{ by: 'text', text: 'Go' }, ...many.slice(0, 7)] })
  })

  it('suggests after one run when every run since the step changed repaired it', () => {
    const older: AutomationStep[] = [steps[0] as AutomationStep, { type: 'click', target: [{ by: 'css', selector: '#old' }] }]
    expect(kindsOf(automationOf(steps), [repaired(), runOf(older), runOf(older)])).toEqual(['often-repaired 2'])
  })

  it('does not suggest for one repair in 10 runs, nor for repairs of an older version of the step', () => {
    expect(kindsOf(automationOf(steps), [runOf(steps), repaired(), ...Array.from({ length: 8 }, () => runOf(steps))])).toEqual([])
    expect(kindsOf(automationOf(steps), [runOf(steps), repaired(), runOf(steps)])).toEqual([])
    const older: AutomationStep[] = [steps[0] as AutomationStep, { type: 'click', target: [{ by: 'css', selector: '#old' }] }]
    const oldRepairs = Array.from({ length: 3 }, () => runOf(older, { repairs: [repairOf(2)] }))
    expect(kindsOf(automationOf(steps), [runOf(steps), ...oldRepairs])).toEqual([])
  })

  it('compares steps whatever the order of their keys (jsonb reorders them)', () => {
    const reordered = { target: SIGN_IN, type: 'click' } as AutomationStep
    const run = runOf([steps[0] as AutomationStep, reordered], { repairs: [repairOf(2)] })
    expect(kindsOf(automationOf(steps), [run, run])).toEqual(['often-repaired 2'])
  })
})

describe('slow-step', () => {
  it('replaces a slow fixed wait by a shorter one when no element follows it', () => {
    const steps: AutomationStep[] = [
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'wait', ms: 6000 },
      { type: 'screenshot', name: 'Page' },
    ]
    const runs = [runOf(steps, { log: logOf([800, 6000, 300]) }), runOf(steps, { log: logOf([700, 6100, 200]) })]
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps), runs)
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({ kind: 'slow-step', step: 2, title: 'Speed up step 2: wait 1 s instead of 6 s' })
    expect(suggestion?.detail).toContain('took 6.1 s on average in the last 2 successful runs')
    expect(suggestion?.change.steps).toEqual([steps[0], { type: 'wait', ms: 1000 }, steps[2]])
  })

  it('offers a slow fixed wait before an element once, as a fixed wait', () => {
    const steps: AutomationStep[] = [
      { type: 'wait', ms: 6000 },
      { type: 'click', target: SIGN_IN },
    ]
    expect(kindsOf(automationOf(steps), [runOf(steps, { log: logOf([6000, 100]) })])).toEqual(['fixed-wait 1'])
  })

  it("puts the way a run used first when the target's first way keeps failing", () => {
    const steps: AutomationStep[] = [
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'click', target: SIGN_IN },
    ]
    const runs = [runOf(steps, { log: logOf([500, 9000]), repairs: [repairOf(2)] }), runOf(steps, { log: logOf([500, 8000]) })]
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps), runs)
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({
      kind: 'slow-step',
      step: 2,
      title: 'Speed up step 2: look for Element “login” (found by the page’s structure) first',
    })
    expect(suggestion?.change.steps?.[1]).toEqual({ type: 'click', target: [SIGN_IN[1], SIGN_IN[0]] })
  })

  it('skips a slow step without a cause it can change, a fast one, and timings of failed runs', () => {
    const steps: AutomationStep[] = [
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'click', target: SIGN_IN },
    ]
    // (One unrepaired run each, so that the repair alone is no pattern of often-repaired.)
    const plain = (ms: number) => runOf(steps, { log: logOf([500, ms]) })
    // Slow, but its first way always worked (or only similar words found it): nothing to change.
    expect(kindsOf(automationOf(steps), [plain(9000), plain(9000)])).toEqual([])
    const similar = runOf(steps, { log: logOf([500, 9000]), repairs: [repairOf(2, { how: 'similar' })] })
    expect(kindsOf(automationOf(steps), [similar, plain(9000)])).toEqual([])
    // A cause, but not slow.
    expect(kindsOf(automationOf(steps), [runOf(steps, { log: logOf([500, 4900]), repairs: [repairOf(2)] }), plain(4900)])).toEqual([])
    // Slow only in a failed run.
    const failed = runOf(steps, { status: 'failed', log: logOf([500, 9000]), repairs: [repairOf(2)], error: 'Step 3 (click): boom' })
    expect(kindsOf(automationOf(steps), [failed, plain(1000)])).toEqual([])
  })
})

describe('stepDurations', () => {
  it('measures each step to the next one or to Finished, and starts afresh on a retry', () => {
    const first = logOf([1000, 2000])
    const retry = logOf([300, 400]).map((line) => ({ ...line, at: new Date(Date.parse(line.at) + 60_000).toISOString() }))
    expect([...stepDurations(logOf([1000, 2000, 3000]))]).toEqual([
      [1, 1000],
      [2, 2000],
      [3, 3000],
    ])
    // Attempt 1 stopped after step 1's line; its step 1 is measured up to nothing.
    expect([...stepDurations([...first.slice(0, 2), ...retry])]).toEqual([
      [1, 300],
      [2, 400],
    ])
  })
})

describe('repeated-navigation', () => {
  const home = { type: 'navigate', url: 'https://example.com' } as const

  it('removes a navigation to the page already open when only waits and screenshots came between', () => {
    const steps: AutomationStep[] = [
      home,
      { type: 'screenshot' },
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'click', target: SIGN_IN },
    ]
    const [suggestion] = suggestionsFor(automationOf(steps), [])
    expect(suggestion).toMatchObject({ kind: 'repeated-navigation', step: 3 })
    expect(suggestion?.change.steps).toEqual([steps[0], steps[1], steps[3]])
  })

  it('removes the first of two navigations in a row', () => {
    const steps: AutomationStep[] = [home, { type: 'navigate', url: 'https://example.com/login' }, { type: 'click', target: SIGN_IN }]
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps), [])
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({ kind: 'repeated-navigation', step: 1 })
    expect(suggestion?.change.steps).toEqual([steps[1], steps[2]])
  })

  it('leaves navigations with an action between them, or another page after a wait', () => {
    expect(kindsOf(automationOf([home, { type: 'click', target: SIGN_IN }, home]))).toEqual([])
    expect(kindsOf(automationOf([home, { type: 'wait', ms: 200 }, { type: 'navigate', url: 'https://example.com/b' }]))).toEqual([])
  })

  it('names a step once, however many pairs point at it', () => {
    const steps: AutomationStep[] = [home, { type: 'wait', ms: 200 }, home, { type: 'navigate', url: 'https://example.com/b' }]
    expect(kindsOf(automationOf(steps))).toEqual(['repeated-navigation 3'])
  })
})

describe('failure-cluster', () => {
  const steps: AutomationStep[] = [
    { type: 'navigate', url: 'https://example.com/login' },
    { type: 'type', target: EMAIL, text: 'ada@example.com' },
    { type: 'click', target: SIGN_IN },
  ]
  const failedAt = (n: number, type = 'click', more: Partial<AnalysedRun> = {}) =>
    runOf(steps, { status: 'failed', error: `Step ${n} (${type}): no element matches "#login" within 15 s`, ...more })

  it('turns self-repair on when it is off', () => {
    const [suggestion, ...rest] = suggestionsFor(automationOf(steps, { selfRepair: false }), [failedAt(3), runOf(steps), failedAt(3)])
    expect(rest).toEqual([])
    expect(suggestion).toMatchObject({ kind: 'failure-cluster', step: 3, change: { selfRepair: true } })
    expect(suggestion?.detail).toContain('2 of the recent failed runs stopped at step 3 (click)')
  })

  it('inserts a screenshot before the step when self-repair is on', () => {
    const [suggestion] = suggestionsFor(automationOf(steps), [failedAt(3), failedAt(3)])
    expect(suggestion).toMatchObject({ kind: 'failure-cluster', step: 3 })
    expect(suggestion?.change).toEqual({ steps: [steps[0], steps[1], { type: 'screenshot', name: 'Before step 3' }, steps[2]] })
  })

  it('does not suggest for a single failure, failures at different steps, refunded ones, or an older step', () => {
    expect(kindsOf(automationOf(steps), [failedAt(3), runOf(steps)])).toEqual([])
    expect(kindsOf(automationOf(steps), [failedAt(3), failedAt(2, 'type')])).toEqual([])
    expect(kindsOf(automationOf(steps), [failedAt(3), failedAt(3, 'click', { refundedAt: new Date() })])).toEqual([])
    const older = runOf(
      [steps[0] as AutomationStep, steps[1] as AutomationStep, { type: 'click', target: [{ by: 'css', selector: '#x' }] }],
      {
        status: 'failed',
        error: 'Step 3 (click): no element matches "#x" within 15 s',
      },
    )
    expect(kindsOf(automationOf(steps), [failedAt(3), older])).toEqual([])
    expect(kindsOf(automationOf(steps), [failedAt(3, 'click', { error: 'The cloud browser could not start' }), failedAt(3)])).toEqual([])
  })

  it('adds no screenshot after a screenshot', () => {
    const shot: AutomationStep[] = [steps[0] as AutomationStep, { type: 'screenshot' }, steps[2] as AutomationStep]
    const failed = runOf(shot, { status: 'failed', error: 'Step 3 (click): no element' })
    expect(kindsOf(automationOf(shot), [failed, failed])).toEqual([])
  })
})

describe('the list', () => {
  it('orders the kinds, gives each a deterministic id of the version, and keeps at most 20', () => {
    const steps: AutomationStep[] = [
      { type: 'navigate', url: 'https://example.com/a' },
      { type: 'navigate', url: 'https://example.com/login' },
      { type: 'wait', ms: 1000 },
      { type: 'click', target: SIGN_IN },
    ]
    const failed = runOf(steps, { status: 'failed', error: 'Step 4 (click): no element', repairs: [repairOf(4, { how: 'similar' })] })
    const automation = automationOf(steps)
    const suggestions = suggestionsFor(automation, [failed, failed])
    expect(suggestions.map((suggestion) => `${suggestion.kind} ${suggestion.step}`)).toEqual([
      'failure-cluster 4',
      'often-repaired 4',
      'fixed-wait 3',
      'repeated-navigation 1',
    ])
    expect(suggestions[0]?.id).toMatch(/^[0-9a-f]{16}$/)
    expect(suggestions[0]?.id).toBe(suggestionId(automation, 'failure-cluster', 4))
    expect(suggestionsFor(automation, [failed, failed])[0]?.id).toBe(suggestions[0]?.id)
    expect(suggestionsFor({ ...automation, version: 4 }, [failed, failed])[0]?.id).not.toBe(suggestions[0]?.id)
    expect(new Set(suggestions.map((suggestion) => suggestion.id)).size).toBe(suggestions.length)

    const waits: AutomationStep[] = Array.from({ length: 30 }, () => [
      { type: 'wait' as const, ms: 1000 },
      { type: 'click' as const, target: SIGN_IN },
    ]).flat()
    expect(suggestionsFor(automationOf(waits), [])).toHaveLength(MAX_SUGGESTIONS)
  })

  it('reads only the 20 most recent runs', () => {
    const steps: AutomationStep[] = [{ type: 'click', target: SIGN_IN }]
    const old = runOf(steps, { status: 'failed', error: 'Step 1 (click): no element' })
    expect(kindsOf(automationOf(steps), [...Array.from({ length: 20 }, () => runOf(steps)), old, old])).toEqual([])
    expect(kindsOf(automationOf(steps), [...Array.from({ length: 18 }, () => runOf(steps)), old, old])).toEqual(['failure-cluster 1'])
  })
})
