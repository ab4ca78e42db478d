import { onErrorOf, type AutomationStep, type OnError } from '#common/automation-steps.ts'
import { createExtractedTable, type ExtractedRecord } from '#common/extracted-table.ts'
import { describeStep, extractedInWords, short } from '#common/step-log-words.ts'
import { isWorkflowStep } from '#common/workflow-words.ts'
import { STEP_EXTRACTED_ROWS, type RunStep } from '#common/run-steps.ts'

/** A step that did not work (the element, the page or the text was not there): onError may retry, skip or go on. */
export class StepFailure extends Error {}

export interface LogLine {
  level: 'info' | 'warn' | 'error'
  message: string
}

/** What the loop reports after each step (the new log lines) and at the end (POST /progress, /finish). */
export interface Progress {
  actionsPerformed: number
  log: LogLine[]
  /** The steps carried out since the last report, for the run's timeline (docs/decisions/057). */
  steps: RunStep[]
}
export interface Outcome extends Progress {
  status: 'succeeded' | 'failed' | 'cancelled'
  error?: string
  extracted: Record<string, string | null>[]
}

/** What an extract step read: its values, or its records (a step with fields), and from how many pages. */
export interface ExtractRead {
  values?: (string | null)[]
  records?: ExtractedRecord[]
  pages?: number
}

export interface StepLoopDeps {
  /**
   * Performs one step in the tab within timeoutMs; an extract step answers its values. Throws
   * StepFailure when it did not work.
   */
  perform(step: AutomationStep, n: number, timeoutMs: number): Promise<ExtractRead | void>
  report(progress: Progress): Promise<void>
  sleep(ms: number): Promise<void>
  now(): number
  /** True once the member stopped the run. */
  cancelled(): boolean
  /** The picture of the page after step n, uploaded: its name in the run, or null when the browser could not take one. */
  picture?(n: number): Promise<string | null>
}

export interface RunPlan {
  steps: AutomationStep[]
  /** The run's limits: the automation's own (the run's timeLimitSeconds, stepLimit) or the extension's. */
  timeLimitMs: number
  maxActions: number
  stepTimeoutMs: number
}

/**
 * A fast run's steps go together: each report is a request counted in the API's rate limit (as
 * is each step's picture), and the outcome carries whatever was not reported yet.
 */
export const REPORT_EVERY_MS = 2_000

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`
class TimeLimit extends Error {}

/**
 * Runs a client run's steps as the cloud worker does (server/features/runs/step-executor.ts):
 * in order, each step's onError deciding what a failure means (docs/decisions/028: retries with a
 * pause, then fail, skip or continue, where continue ends the run failed after the last step),
 * within the run's time and action limits, reporting the steps' log lines and timeline as they go
 * (the first step at once, then at most every REPORT_EVERY_MS).
 */
export async function runSteps(plan: RunPlan, deps: StepLoopDeps): Promise<Outcome> {
  const deadline = deps.now() + plan.timeLimitMs
  const extracted = createExtractedTable()
  let pending: LogLine[] = []
  let steps: RunStep[] = []
  let actions = 0
  let failedGoingOn: string | null = null
  const log = (level: LogLine['level'], message: string) => pending.push({ level, message })
  let reportedAt = -Infinity
  /** Sends what happened since the last report; a step's own report waits until REPORT_EVERY_MS passed (`now` sends at once). */
  const flush = async (now = false) => {
    if (!now && deps.now() - reportedAt < REPORT_EVERY_MS) return
    reportedAt = deps.now()
    const report = { actionsPerformed: actions, log: pending, steps }
    pending = []
    steps = []
    await deps.report(report)
  }
  const end = (status: Outcome['status'], error?: string): Outcome => ({
    status,
    ...(error ? { error } : {}),
    actionsPerformed: actions,
    log: pending,
    steps,
    extracted: extracted.rows(),
  })
  /** The timeline's entry of step n, begun now: `done` records how it ended, with the picture after it. */
  const begin = (step: AutomationStep, n: number) => {
    const started = deps.now()
    const mark = extracted.mark()
    return async (outcome: RunStep['outcome'], error: string | null) => {
      steps.push({
        step: n,
        round: null,
        words: short(describeStep(step), 2000),
        target: null,
        repaired: null,
        startedAt: new Date(started).toISOString(),
        ms: Math.max(0, deps.now() - started),
        outcome,
        error,
        screenshot: outcome === 'skipped' || !deps.picture ? null : await deps.picture(n).catch(() => null),
        extracted: extracted.since(mark, STEP_EXTRACTED_ROWS),
      })
    }
  }
  /** One try of the step, given what is left of the run's time at most (perform keeps to it). */
  const attempt = async (step: AutomationStep, n: number) => {
    const left = deadline - deps.now()
    if (left <= 0) throw new TimeLimit()
    const read = await deps.perform(step, n, Math.max(1, Math.min(plan.stepTimeoutMs, left)))
    if (deps.now() > deadline) throw new TimeLimit()
    if (step.type === 'extract' && read) {
      const fields = step.fields?.map((field) => field.name)
      if (fields) extracted.addRecords(fields, read.records ?? [])
      else extracted.add(step.field, read.values ?? [])
      const count = (fields ? read.records : read.values)?.length ?? 0
      log('info', `Step ${n} (extract): ${extractedInWords(step, count, read.pages ?? 1)}.`)
    }
  }

  // Blocks, rows and scripts run where the whole workflow runs (docs/decisions/046), not in a tab's page.
  const workflow = plan.steps.findIndex(isWorkflowStep)
  if (workflow >= 0)
    return end(
      'failed',
      `Step ${workflow + 1} (${plan.steps[workflow]?.type}): blocks, data rows and scripts run in the cloud or on the local runner; the extension runs straight lists of steps.`,
    )
  for (const [index, step] of plan.steps.entries()) {
    const n = index + 1
    const label = `Step ${n} (${step.type})`
    if (deps.cancelled()) return end('cancelled', 'Stopped in the browser.')
    if (actions >= plan.maxActions) return end('failed', `${label}: the run's action limit of ${plan.maxActions} was reached`)
    log('info', `${label}: ${describeStep(step)}`)
    const record = begin(step, n)
    try {
      // A retry's pause is told at once, so the run page shows why the run waits.
      const done = await withOnError(
        () => attempt(step, n),
        onErrorOf(step),
        label,
        log,
        () => flush(true),
        deps,
      )
      if (done.kind === 'failedGoingOn') failedGoingOn ??= done.error
      if (done.kind === 'done') actions++
      await record(done.kind === 'failedGoingOn' ? 'failed' : done.kind, done.kind === 'failedGoingOn' ? done.error : null)
    } catch (error) {
      if (!(error instanceof TimeLimit) && deps.cancelled()) return end('cancelled', 'Stopped in the browser.')
      const message =
        error instanceof TimeLimit
          ? `${label}: the run's time limit of ${seconds(plan.timeLimitMs)} was reached`
          : `${label}: ${error instanceof Error ? error.message : String(error)}`
      await record('failed', message)
      return end('failed', message)
    }
    await flush()
  }
  return failedGoingOn ? end('failed', `${failedGoingOn} (the steps after it ran)`) : end('succeeded')
}

type StepEnd = { kind: 'done' } | { kind: 'skipped' } | { kind: 'failedGoingOn'; error: string }

/** A step under its onError, as the cloud's performWithOnError (server/features/runs/step-on-error.ts). */
async function withOnError(
  perform: () => Promise<void>,
  onError: OnError | undefined,
  label: string,
  log: (level: LogLine['level'], message: string) => void,
  flush: () => Promise<void>,
  deps: Pick<StepLoopDeps, 'sleep' | 'cancelled'>,
): Promise<StepEnd> {
  for (let retry = 1; ; retry++) {
    try {
      await perform()
      return { kind: 'done' }
    } catch (error) {
      if (!(error instanceof StepFailure) || !onError || deps.cancelled()) throw error
      if (retry <= onError.retries) {
        const pause = onError.delayMs ? ` in ${seconds(onError.delayMs)}` : ''
        log('warn', `${label}: ${error.message}; trying again${pause} (retry ${retry} of ${onError.retries}).`)
        await flush()
        await deps.sleep(onError.delayMs)
        continue
      }
      if (onError.then === 'fail') throw error
      if (onError.then === 'skip') {
        log('warn', `${label}: ${error.message}; the step is skipped and the run goes on.`)
        return { kind: 'skipped' }
      }
      log('error', `${label}: ${error.message}; the run goes on and ends as failed.`)
      return { kind: 'failedGoingOn', error: `${label}: ${error.message}` }
    }
  }
}
