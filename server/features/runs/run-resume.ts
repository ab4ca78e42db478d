import type { AutomationStep } from '#common/automation-steps.ts'
import { ValidationError } from '#common/errors.ts'
import { topLevelStart } from '#common/step-blocks.ts'
import type { DataRow, RowOutcome } from '#common/workflow-interpreter.ts'
import type { Run } from './run.service.ts'

/** How a resumed run starts (docs/decisions/046). */
export interface Resume {
  /** The run it continues. */
  from: string
  steps: AutomationStep[]
  /** The step it starts at, from 1: outside any block (a step inside one starts its outermost block). */
  startStep: number
  /** The page it opens before that step: where the earlier run stopped, when it starts past step 1. */
  url: string | null
  dataRows: DataRow[]
  /** The rows the earlier runs finished (done or skipped): kept, not run again. */
  finishedRows: RowOutcome[]
}

/** The step a failed run stopped at: as it recorded it, or as its error names it ('Step 4 (click): …'). */
function stoppedStep(run: Run): number | null {
  if (run.stoppedAt) return run.stoppedAt.step
  const named = /^Step (\d+) \(/.exec(run.error ?? '')
  return named ? Number(named[1]) : null
}

/**
 * What resuming `run` starts with: from `fromStep` (1 to the number of steps) or the step it
 * stopped at; a run that went through rows starts again where its rows block begins, with only
 * the rows that failed or were not run.
 */
export function resumeOf(run: Run, fromStep?: number): Resume {
  if (run.status !== 'failed' && run.status !== 'cancelled')
    throw new ValidationError('Only a run that failed or was cancelled can be resumed: this one has not stopped early.')
  if (fromStep !== undefined && (!Number.isInteger(fromStep) || fromStep < 1 || fromStep > run.steps.length))
    throw new ValidationError(`fromStep must be a step of the run, from 1 to ${run.steps.length}.`)
  const asked = fromStep ?? stoppedStep(run) ?? 1
  const startStep = topLevelStart(run.steps, Math.min(asked, run.steps.length) - 1) + 1
  const finishedRows = run.rowOutcomes.filter((row) => row.status === 'done' || row.status === 'skipped')
  if (run.dataRows.length > 0 && finishedRows.length === run.dataRows.length)
    throw new ValidationError('Every row of this run was finished: there is nothing to resume. Run it again instead.')
  const url = startStep > 1 ? (run.stoppedAt?.url ?? null) : null
  return { from: run.id, steps: run.steps, startStep, url, dataRows: run.dataRows, finishedRows }
}
