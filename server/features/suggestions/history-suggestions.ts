import type { AutomationStep } from '#common/automation-steps.ts'
import { describeAlternative, type TargetAlternative } from '#common/targets.ts'
import { canonical } from './canonical-json.ts'
import { failedStepOf, reasonOf, repairedEveryRunSinceChange, repairOf, sameStep } from './run-history.ts'
import { stepDurations } from './run-timings.ts'
import { mergedTarget, replaced, targetOf, withStep } from './step-edits.ts'
import type { AnalysedRun, SuggestedAutomation, SuggestionCandidate } from './suggestion-analysis.ts'
import { elementName, seconds } from './suggestion-wording.ts'

// The kinds read from the recent runs, each in the order of its steps.

/** Repairs (or failures) of one step in this many recent runs make a pattern. */
const PATTERN_RUNS = 2
/** A step slower than this on average (in successful runs) is worth a look. */
const SLOW_STEP_MS = 5_000
/** A fixed wait at least this long may be the reason a step is slow… */
const LONG_WAIT_MS = 2_000
/** …and is shortened to this when there is no element to wait for instead. */
const SHORT_WAIT_MS = 1_000

/** Runs that stopped at the same step more than once: self-repair, or a screenshot before it. */
export function failureClusters(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): SuggestionCandidate[] {
  const byStep = new Map<number, AnalysedRun[]>()
  for (const run of runs) {
    // A refunded failure was ours (the browser did not start or crashed): no change of the automation helps.
    if (run.status !== 'failed' || run.refundedAt) continue
    const n = failedStepOf(run)
    if (n === null || !sameStep(automation, run, n)) continue
    byStep.set(n, [...(byStep.get(n) ?? []), run])
  }
  const candidates: SuggestionCandidate[] = []
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
export function oftenRepaired(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): SuggestionCandidate[] {
  const candidates: SuggestionCandidate[] = []
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

/**
 * Steps that take long in successful runs, when we can tell why and change it: a long fixed wait,
 * or a target whose first way keeps failing before another of its ways is found.
 */
export function slowSteps(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): SuggestionCandidate[] {
  const candidates: SuggestionCandidate[] = []
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
