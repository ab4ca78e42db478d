import type { RunRepair } from '#server/db/schema/index.ts'
import { canonical } from './canonical-json.ts'
import type { AnalysedRun, SuggestedAutomation } from './suggestion-analysis.ts'

/** A run's error names the step it stopped at as the step's log line does: 'Step 3 (click): …'. */
const FAILED_STEP = /^Step (\d+) \(/

/** Whether the run ran step n as the automation has it now. */
export function sameStep(automation: SuggestedAutomation, run: Pick<AnalysedRun, 'steps'>, n: number): boolean {
  const current = automation.steps[n - 1]
  const then = run.steps[n - 1]
  return current !== undefined && then !== undefined && canonical(current) === canonical(then)
}

/** The step a failed run stopped at (its error starts 'Step 3 (click): …'), or null. */
export function failedStepOf(run: Pick<AnalysedRun, 'error'>): number | null {
  const match = run.error ? FAILED_STEP.exec(run.error) : null
  return match ? Number(match[1]) : null
}

/** What the newest of them said, after 'Step 3 (click): '. */
export function reasonOf(run: AnalysedRun | undefined): string {
  const reason = run?.error?.replace(/^Step \d+ \([^)]*\):\s*/, '').trim()
  if (!reason) return ''
  return `, the last time with “${reason.length > 120 ? `${reason.slice(0, 119)}…` : reason}”`
}

export function repairOf(run: Pick<AnalysedRun, 'repairs'>, n: number): RunRepair | undefined {
  return run.repairs.find((repair) => repair.step === n)
}

/**
 * Whether every finished run since the step last changed (newest first, until a run of another
 * version of it) and that got as far as it needed it repaired; at least one such run.
 */
export function repairedEveryRunSinceChange(automation: SuggestedAutomation, runs: readonly AnalysedRun[], n: number): boolean {
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
