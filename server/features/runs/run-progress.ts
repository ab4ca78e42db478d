import { short } from '#server/browser/step-actions.ts'
import type { RunFile, RunLogLine, RunRepair, RunScreenshot } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { RowOutcome } from '#common/workflow-interpreter.ts'
import type { RunStep } from '#common/run-steps.ts'
import type { RunTrace } from '#common/run-trace.ts'
import type { RunOutcome, RunProgress as ProgressReport } from './run-queue.ts'

/**
 * Where a run's progress goes: the cloud queue under the worker's lease (run-queue.ts), or the
 * client-run API for the local runner (runner/run-reporter.ts).
 */
export interface RunReporting {
  /** False when the run is no longer this executor's (cancelled, or taken over): it stops. */
  progress(runId: string, workerId: string, progress: ProgressReport): Promise<boolean>
  /** The stored run, or null when the outcome could not be stored because the run is not ours any more. */
  finish(runId: string, workerId: string, outcome: RunOutcome, progress?: ProgressReport): Promise<object | null>
}

/**
 * What a cloud run has done so far, reported under the worker's lease: log lines, screenshots and
 * the count of actions are kept until the next report (a step's end or the heartbeat), one report
 * at a time. A report the queue refuses means the lease is gone (the member cancelled, or another
 * worker took the run over): `onLeaseLost` is called and nothing more is sent. A report that
 * fails (the database is away) keeps its lines for the next one.
 */
export function createRunProgress(deps: {
  reporting: RunReporting
  runId: string
  workerId: string
  logger: Logger
  /** Whether reports should still be sent (false once the run was stopped or given back). */
  active: () => boolean
  onLeaseLost: () => void
  /** Puts placeholders back where a vault value shows (docs/decisions/025): applied to everything reported. */
  redact?: (text: string) => string
}) {
  const redact = deps.redact ?? ((text: string) => text)
  const { reporting, runId, workerId, logger } = deps
  let actions = 0
  let restart = true
  let storedBytes = 0
  let trace: RunTrace | null = null
  type Pending = { log: RunLogLine[]; screenshots: RunScreenshot[]; repairs: RunRepair[]; files: RunFile[]; timeline: RunStep[] }
  const nothing = (): Pending => ({ log: [], screenshots: [], repairs: [], files: [], timeline: [] })
  let pending = nothing()
  let chain = Promise.resolve()

  const flush = () =>
    (chain = chain.then(async () => {
      if (!deps.active()) return
      const batch = pending
      pending = nothing()
      try {
        const held = await reporting.progress(runId, workerId, {
          actionsPerformed: actions,
          storedBytes,
          ...batch,
          restart,
        })
        restart = false
        if (!held) deps.onLeaseLost()
      } catch (error) {
        // If the database stays away the lease runs out and another worker takes the run over.
        pending = {
          log: [...batch.log, ...pending.log],
          screenshots: [...batch.screenshots, ...pending.screenshots],
          repairs: [...batch.repairs, ...pending.repairs],
          files: [...batch.files, ...pending.files],
          timeline: [...batch.timeline, ...pending.timeline],
        }
        logger.warn({ err: error, runId }, 'cloud run: progress report failed')
      }
    }))

  return {
    get actions() {
      return actions
    },
    countAction() {
      actions += 1
    },
    log(level: RunLogLine['level'], message: string) {
      pending.log.push({ at: new Date().toISOString(), level, message: short(redact(message), 2000) })
    },
    addScreenshot(screenshot: RunScreenshot) {
      pending.screenshots.push(screenshot)
    },
    addRepair(repair: RunRepair) {
      pending.repairs.push(repair)
    },
    addFile(file: RunFile) {
      pending.files.push({ ...file, name: redact(file.name) })
    },
    /** A step as it was carried out, for the timeline: its words, error and extracted values with placeholders put back. */
    addStep(step: RunStep) {
      const hide = (value: string | null) => (value === null ? null : redact(value))
      pending.timeline.push({
        ...step,
        words: short(redact(step.words), 2000),
        target: step.target === null ? null : short(redact(step.target), 500),
        error: step.error === null ? null : short(redact(step.error), 2000),
        extracted: step.extracted && {
          ...step.extracted,
          rows: step.extracted.rows.map((row) => Object.fromEntries(Object.entries(row).map(([field, value]) => [field, hide(value)]))),
        },
      })
    },
    /** What the run's files take on disk so far (reported with every report). */
    stored(bytes: number) {
      storedBytes = bytes
    },
    flush,
    /** What became of the run's trace (docs/decisions/060), told with the outcome. */
    trace(kept: RunTrace | null) {
      trace = kept
    },

    /** Stores the outcome with the last lines and the extracted table, once; null when it could not be stored. */
    async finish(
      outcome: RunOutcome,
      extracted: Record<string, string | null>[],
      rowOutcomes: RowOutcome[] = [],
      stoppedAt: ProgressReport['stoppedAt'] = null,
      dataRows?: ProgressReport['dataRows'],
    ) {
      await chain
      try {
        const stored: RunOutcome = outcome.status === 'failed' ? { ...outcome, error: redact(outcome.error) } : outcome
        return await reporting.finish(runId, workerId, stored, {
          actionsPerformed: actions,
          storedBytes,
          ...pending,
          extracted: extracted.map((row) =>
            Object.fromEntries(Object.entries(row).map(([field, value]) => [field, value === null ? null : redact(value)])),
          ),
          restart,
          ...(trace ? { trace } : {}),
          ...(dataRows ? { dataRows } : {}),
          ...(stoppedAt ? { stoppedAt: { step: stoppedAt.step, url: stoppedAt.url && redact(stoppedAt.url) } } : {}),
          ...(rowOutcomes.length
            ? { rowOutcomes: rowOutcomes.map((row) => (row.error ? { ...row, error: redact(row.error) } : row)) }
            : {}),
        })
      } catch (error) {
        // The lease runs out and the run is taken up again (or failed and refunded).
        logger.warn({ err: error, runId }, 'cloud run: could not store the outcome')
        return null
      }
    },
  }
}

export type RunProgress = ReturnType<typeof createRunProgress>
