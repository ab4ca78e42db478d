import { createHash } from 'node:crypto'
import type { AutomationStep } from '#common/automation-steps.ts'
import { describeAlternative, describeTarget, MAX_TARGET_ALTERNATIVES, type Target, type TargetAlternative } from '#common/targets.ts'
import type { automationRuns, automations, RunLogLine, RunRepair } from '#server/db/schema/index.ts'

/**
 * Optimisation suggestions for an automation (the Pro plan's "AI optimisation suggestions"): a
 * deterministic reading of its steps and its recent runs. No I/O: the service reads the rows and
 * applies the change. Each suggestion carries one change, the automation's whole new steps or its
 * self-repair switch, so that applying it is one click.
 */

/** How many of an automation's runs (newest first) the analysis reads. */
export const RECENT_RUNS = 20
/** The most suggestions one automation gets at a time. */
export const MAX_SUGGESTIONS = 20

/** The kinds, in the order they are listed. */
export const SUGGESTION_KINDS = ['failure-cluster', 'often-repaired', 'fixed-wait', 'slow-step', 'repeated-navigation'] as const
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number]

export interface SuggestionChange {
  /** The automation's whole new list of steps. */
  steps?: AutomationStep[]
  selfRepair?: boolean
}

export interface Suggestion {
  /** Stable for one version of the automation; it no longer matches once the automation changes. */
  id: string
  kind: SuggestionKind
  /** The step it is about (1-based), or null for the whole automation. */
  step: number | null
  title: string
  detail: string
  change: SuggestionChange
}

export type SuggestedAutomation = Pick<typeof automations.$inferSelect, 'id' | 'version' | 'steps' | 'selfRepair'>
export type AnalysedRun = Pick<typeof automationRuns.$inferSelect, 'status' | 'steps' | 'error' | 'log' | 'repairs' | 'refundedAt'>

/** A fixed wait shorter than this is left alone. */
const MIN_FIXED_WAIT_MS = 500
/** A step slower than this on average (in successful runs) is worth a look. */
const SLOW_STEP_MS = 5_000
/** A fixed wait at least this long may be the reason a step is slow… */
const LONG_WAIT_MS = 2_000
/** …and is shortened to this when there is no element to wait for instead. */
const SHORT_WAIT_MS = 1_000
/** Repairs (or failures) of one step in this many recent runs make a pattern. */
const PATTERN_RUNS = 2

/** The line the cloud worker logs when a step starts (step-executor.ts): 'Step 3 (click): …'. */
const STEP_START = /^Step (\d+) \([A-Za-z]+\): /
/** A run's error names the step it stopped at the same way. */
const FAILED_STEP = /^Step (\d+) \(/

export function suggestionId(automation: Pick<SuggestedAutomation, 'id' | 'version'>, kind: SuggestionKind, step: number | null): string {
  return createHash('sha256').update(`${automation.id}:${automation.version}:${kind}:${step}`).digest('hex').slice(0, 16)
}

/** The suggestions for an automation from its steps and its recent runs (newest first). */
export function suggestionsFor(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): Suggestion[] {
  const recent = runs.slice(0, RECENT_RUNS)
  const found = [
    ...failureClusters(automation, recent),
    ...oftenRepaired(automation, recent),
    ...fixedWaits(automation),
    ...slowSteps(automation, recent),
    ...repeatedNavigation(automation),
  ]
  const kinds = new Set<string>()
  const changes = new Set<string>()
  /** Steps whose wait or target a suggestion already changes: a slow-step fix for them would compete with it. */
  const stepsChanged = new Set<number | null>()
  const suggestions: Suggestion[] = []
  for (const candidate of found) {
    const key = `${candidate.kind}:${candidate.step}`
    // Two kinds may arrive at the very same change (a slow fixed wait is also a fixed wait): offer it once, as the first.
    const change = canonical(candidate.change)
    if (kinds.has(key) || changes.has(change)) continue
    if (candidate.kind === 'slow-step' && stepsChanged.has(candidate.step)) continue
    if (candidate.kind === 'often-repaired' || candidate.kind === 'fixed-wait') stepsChanged.add(candidate.step)
    kinds.add(key)
    changes.add(change)
    suggestions.push({ id: suggestionId(automation, candidate.kind, candidate.step), ...candidate })
  }
  return suggestions.slice(0, MAX_SUGGESTIONS)
}

type Candidate = Omit<Suggestion, 'id'>

// ---------------------------------------------------------------------------------------------
// The kinds, each in the order of its steps.

/** Runs that stopped at the same step more than once: self-repair, or a screenshot before it. */
function failureClusters(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): Candidate[] {
  const byStep = new Map<number, AnalysedRun[]>()
  for (const run of runs) {
    // A refunded failure was ours (the browser did not start or crashed): no change of the automation helps.
    if (run.status !== 'failed' || run.refundedAt) continue
    const n = failedStepOf(run)
    if (n === null || !sameStep(automation, run, n)) continue
    byStep.set(n, [...(byStep.get(n) ?? []), run])
  }
  const candidates: Candidate[] = []
  for (const [n, failed] of [...byStep].sort(([a], [b]) => a - b)) {
    if (failed.length < PATTERN_RUNS) continue
    const step = automation.steps[n - 1]
    if (!step) continue
    const why = `${failed.length} of the recent failed runs stopped at step ${n} (${step.type})${reasonOf(failed[0])}.`
    // Self-repair only finds elements again: for a step without one, it would change nothing.
    if (!automation.selfRepair && targetOf(step)) {
      candidates.push({
        kind: 'failure-cluster',
        step: n,
        title: `Turn on self-repair: step ${n} keeps failing`,
        detail: `${why} With self-repair on, a run that cannot find the element looks for it another way (similar words on the page, or the AI model when your plan includes it) and tells you what it used.`,
        change: { selfRepair: true },
      })
      continue
    }
    // A screenshot right before it already shows the page.
    if (automation.steps[n - 2]?.type === 'screenshot') continue
    const screenshot: AutomationStep = { type: 'screenshot', name: `Before step ${n}` }
    candidates.push({
      kind: 'failure-cluster',
      step: n,
      title: `Take a screenshot before step ${n}, which keeps failing`,
      detail: `${why} A screenshot named “Before step ${n}” right before it shows the page as the step found it the next time it fails.`,
      change: { steps: [...automation.steps.slice(0, n - 1), screenshot, ...automation.steps.slice(n - 1)] },
    })
  }
  return candidates
}

/** Steps that runs keep finding another way: make the way that worked the first. */
function oftenRepaired(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): Candidate[] {
  const candidates: Candidate[] = []
  automation.steps.forEach((step, index) => {
    const n = index + 1
    const target = targetOf(step)
    if (!target) return
    // Only runs of the step as it is now: a repair of an older version says nothing about this one.
    const same = runs.filter((run) => sameStep(automation, run, n))
    const repairs = same.flatMap((run) => repairOf(run, n) ?? [])
    const newest = repairs[0]
    if (!newest) return
    if (repairs.length < PATTERN_RUNS && !repairedEveryRunSinceChange(automation, runs, n)) return
    const merged = mergedTarget(newest.target ?? [newest.used], target)
    if (canonical(merged) === canonical(target)) return
    const first = merged[0] as TargetAlternative
    candidates.push({
      kind: 'often-repaired',
      step: n,
      title: `Find step ${n}'s element by ${describeAlternative(first)} first`,
      detail:
        `Runs repaired step ${n} (${step.type}) in ${repairs.length} of the last ${same.length} run${same.length === 1 ? '' : 's'}: ` +
        `${describeAlternative(newest.failed)} was not found, and ${describeAlternative(newest.used)} was used instead. ` +
        'This puts the way that worked first and keeps the others as fallbacks.',
      change: { steps: withStep(automation.steps, index, step, merged) },
    })
  })
  return candidates
}

/** A fixed pause before a step that acts on an element: wait for that element instead. */
function fixedWaits(automation: SuggestedAutomation): Candidate[] {
  const candidates: Candidate[] = []
  automation.steps.forEach((step, index) => {
    if (step.type !== 'wait' || step.ms === undefined || step.ms < MIN_FIXED_WAIT_MS) return
    const next = automation.steps[index + 1]
    const target = next && targetOf(next)
    if (!next || !target) return
    const n = index + 1
    candidates.push({
      kind: 'fixed-wait',
      step: n,
      title: `Wait for ${elementName(target)} instead of ${seconds(step.ms)}`,
      detail:
        `Step ${n} always waits ${seconds(step.ms)} before step ${n + 1} (${next.type}) looks for ${describeTarget(target)}. ` +
        'Waiting for that element goes on as soon as it appears, and waits longer when the page is slow.',
      change: { steps: replaced(automation.steps, index, { type: 'wait', target }) },
    })
  })
  return candidates
}

/**
 * Steps that take long in successful runs, when we can tell why and change it: a long fixed wait,
 * or a target whose first way keeps failing before another of its ways is found.
 */
function slowSteps(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): Candidate[] {
  const candidates: Candidate[] = []
  automation.steps.forEach((step, index) => {
    const n = index + 1
    const same = runs.filter((run) => sameStep(automation, run, n))
    const timings = same.flatMap((run) => {
      if (run.status !== 'succeeded') return []
      const ms = stepDurations(run.log).get(n)
      return ms === undefined ? [] : [ms]
    })
    if (timings.length === 0) return
    const average = timings.reduce((sum, ms) => sum + ms, 0) / timings.length
    if (average < SLOW_STEP_MS) return
    const slow = `Step ${n} (${step.type}) took ${seconds(average)} on average in the last ${timings.length} successful run${timings.length === 1 ? '' : 's'}.`

    if (step.type === 'wait' && step.ms !== undefined && step.ms >= LONG_WAIT_MS) {
      const nextTarget = automation.steps[index + 1] && targetOf(automation.steps[index + 1] as AutomationStep)
      candidates.push(
        nextTarget
          ? {
              kind: 'slow-step',
              step: n,
              title: `Speed up step ${n}: wait for ${elementName(nextTarget)} instead of ${seconds(step.ms)}`,
              detail: `${slow} It is a fixed wait of ${seconds(step.ms)}; waiting for the next step's element goes on as soon as it appears.`,
              change: { steps: replaced(automation.steps, index, { type: 'wait', target: nextTarget }) },
            }
          : {
              kind: 'slow-step',
              step: n,
              title: `Speed up step ${n}: wait ${seconds(SHORT_WAIT_MS)} instead of ${seconds(step.ms)}`,
              detail: `${slow} It is a fixed wait of ${seconds(step.ms)}; a shorter pause is usually enough.`,
              change: { steps: replaced(automation.steps, index, { type: 'wait', ms: SHORT_WAIT_MS }) },
            },
      )
      return
    }

    const target = targetOf(step)
    const repair = target && same.flatMap((run) => repairOf(run, n) ?? []).find((entry) => entry.how === 'alternative')
    if (!target || !repair) return
    const merged = mergedTarget([repair.used], target)
    if (canonical(merged) === canonical(target)) return
    candidates.push({
      kind: 'slow-step',
      step: n,
      title: `Speed up step ${n}: look for ${describeAlternative(repair.used)} first`,
      detail: `${slow} Its first way, ${describeAlternative(repair.failed)}, was not found, and the run waited for it before ${describeAlternative(repair.used)} worked. This tries that way first.`,
      change: { steps: withStep(automation.steps, index, step, merged) },
    })
  })
  return candidates
}

/** Opening the page that is already open, or a page that is left at once for another. */
function repeatedNavigation(automation: SuggestedAutomation): Candidate[] {
  const candidates: Candidate[] = []
  let previous: { index: number; url: string } | null = null
  automation.steps.forEach((step, index) => {
    if (step.type !== 'navigate') {
      // Waits and screenshots leave the page as it was; anything else may have changed it.
      if (step.type !== 'wait' && step.type !== 'screenshot') previous = null
      return
    }
    const before = previous
    previous = { index, url: step.url }
    if (!before) return
    if (before.index === index - 1) {
      const n = before.index + 1
      candidates.push({
        kind: 'repeated-navigation',
        step: n,
        title: `Remove step ${n}: step ${n + 1} opens another page right after it`,
        detail: `Step ${n} opens ${before.url}, and step ${n + 1} goes on to ${step.url} before anything is done there.`,
        change: { steps: automation.steps.filter((_, at) => at !== before.index) },
      })
    } else if (sameUrl(before.url, step.url)) {
      const n = index + 1
      candidates.push({
        kind: 'repeated-navigation',
        step: n,
        title: `Remove step ${n}: it opens ${step.url} again`,
        detail: `Step ${before.index + 1} opened the same page, and only waits or screenshots come between them, so step ${n} only loads it again.`,
        change: { steps: automation.steps.filter((_, at) => at !== index) },
      })
    }
  })
  return candidates
}

// ---------------------------------------------------------------------------------------------
// Reading runs.

/** The step a failed run stopped at (its error starts 'Step 3 (click): …'), or null. */
function failedStepOf(run: Pick<AnalysedRun, 'error'>): number | null {
  const match = run.error ? FAILED_STEP.exec(run.error) : null
  return match ? Number(match[1]) : null
}

/** What the newest of them said, after 'Step 3 (click): '. */
function reasonOf(run: AnalysedRun | undefined): string {
  const reason = run?.error?.replace(/^Step \d+ \([^)]*\):\s*/, '').trim()
  if (!reason) return ''
  return `, the last time with “${reason.length > 120 ? `${reason.slice(0, 119)}…` : reason}”`
}

function repairOf(run: Pick<AnalysedRun, 'repairs'>, n: number): RunRepair | undefined {
  return run.repairs.find((repair) => repair.step === n)
}

/**
 * Whether every finished run since the step last changed (newest first, until a run of another
 * version of it) and that got as far as it needed it repaired; at least one such run.
 */
function repairedEveryRunSinceChange(automation: SuggestedAutomation, runs: readonly AnalysedRun[], n: number): boolean {
  let reached = 0
  for (const run of runs) {
    if (run.status !== 'succeeded' && run.status !== 'failed') continue
    if (!sameStep(automation, run, n)) break
    const stoppedAt = failedStepOf(run)
    // A run that stopped before the step never tried it.
    if (run.status === 'failed' && (stoppedAt === null || stoppedAt < n)) continue
    if (!repairOf(run, n)) return false
    reached += 1
  }
  return reached >= 1
}

/**
 * How long each step of a cloud run took: from the line logged when it started to the line of the
 * next step or the final 'Finished: …'. A retried run logs its attempts one after the other; each
 * 'Running in the cloud' line starts afresh.
 */
export function stepDurations(log: readonly RunLogLine[]): Map<number, number> {
  const durations = new Map<number, number>()
  let open: { step: number; at: number } | null = null
  for (const line of log) {
    const at = Date.parse(line.at)
    const start = line.level === 'info' ? STEP_START.exec(line.message) : null
    const finished = line.level === 'info' && line.message.startsWith('Finished:')
    if (!start && !finished) {
      if (line.message.startsWith('Running in the cloud')) open = null
      continue
    }
    const next = start ? Number(start[1]) : null
    if (open && Number.isFinite(at) && at >= open.at && (next === null || next === open.step + 1)) {
      durations.set(open.step, at - open.at)
    }
    open = next !== null && Number.isFinite(at) ? { step: next, at } : null
  }
  return durations
}

// ---------------------------------------------------------------------------------------------
// Steps and targets.

/** Whether the run ran step n as the automation has it now. */
function sameStep(automation: SuggestedAutomation, run: Pick<AnalysedRun, 'steps'>, n: number): boolean {
  const current = automation.steps[n - 1]
  const then = run.steps[n - 1]
  return current !== undefined && then !== undefined && canonical(current) === canonical(then)
}

function targetOf(step: AutomationStep): Target | undefined {
  return 'target' in step && step.target ? step.target : undefined
}

/**
 * The new ways first, then the old ones not among them, at most MAX_TARGET_ALTERNATIVES: the rule
 * of automation.service.ts's mergedTarget (what "Apply fix" writes), repeated here because a
 * feature imports no value from another (eslint/local-rules.js) and this analysis has no I/O to
 * take it as a service.
 */
function mergedTarget(first: Target, then: Target): Target {
  const seen = new Set(first.map((way) => canonical(way)))
  return [...first, ...then.filter((way) => !seen.has(canonical(way)))].slice(0, MAX_TARGET_ALTERNATIVES)
}

function withStep(steps: readonly AutomationStep[], index: number, step: AutomationStep, target: Target): AutomationStep[] {
  return replaced(steps, index, { ...step, target } as AutomationStep)
}

function replaced(steps: readonly AutomationStep[], index: number, step: AutomationStep): AutomationStep[] {
  return steps.map((current, at) => (at === index ? step : current))
}

function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href : url)
  return normal(a) === normal(b)
}

/** An element as a title names it: “Sign in”, “Email”, “#submit”. */
function elementName(target: Target): string {
  const [first] = target
  if (!first) return 'the element'
  const words = (() => {
    switch (first.by) {
      case 'role':
        return first.name
      case 'label':
      case 'placeholder':
      case 'text':
        return first.text
      case 'testId':
        return first.id
      case 'column':
        return first.header
      case 'css':
        return first.selector
      case 'xpath':
        return first.path
    }
  })()
  if (!words) return describeAlternative(first).toLowerCase()
  return `“${words.length > 60 ? `${words.slice(0, 59)}…` : words}”`
}

/** '3 s', '1.5 s' (as the run log writes durations). */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}

/**
 * JSON with object keys sorted: steps read back from jsonb come with their keys in jsonb's order,
 * so two equal steps may serialise differently with JSON.stringify alone.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  )
}
