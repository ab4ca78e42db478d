import { setTimeout as sleep } from 'node:timers/promises'
import type { OnError } from '#common/automation-steps.ts'
import { seconds, StepFailure } from '#server/browser/step-actions.ts'
import type { RunLogLine } from '#server/db/schema/index.ts'

/**
 * How a step ended under its `onError` (docs/decisions/028): done, skipped after failing, or
 * failed with the run going on ('continue': the run ends failed after its last step).
 */
export type StepEnd = { kind: 'done' } | { kind: 'skipped' } | { kind: 'failedGoingOn'; error: string }

/**
 * Performs a step, trying it again as its `onError` says when it fails (a step failure: the
 * element, the page or the text was not there), then failing, skipping it or going on. A stop,
 * a lost browser or an internal error is never retried: it is thrown as it came.
 */
export async function performWithOnError(args: {
  perform: () => Promise<void>
  onError: OnError | undefined
  /** 'Step 3 (click)' */
  label: string
  log: (level: RunLogLine['level'], message: string) => void
  /** Stores the log before a pause, so the run page shows the retry while it waits. */
  flush: () => Promise<unknown>
  running: () => boolean
  signal: AbortSignal
}): Promise<StepEnd> {
  const { onError, label } = args
  for (let retry = 1; ; retry++) {
    try {
      await args.perform()
      return { kind: 'done' }
    } catch (error) {
      if (!(error instanceof StepFailure) || !onError || !args.running()) throw error
      if (retry <= onError.retries) {
        const pause = onError.delayMs ? ` in ${seconds(onError.delayMs)}` : ''
        args.log('warn', `${label}: ${error.message}; trying again${pause} (retry ${retry} of ${onError.retries}).`)
        await args.flush()
        await sleep(onError.delayMs, undefined, { signal: args.signal }).catch(() => {})
        if (!args.running()) throw error
        continue
      }
      if (onError.then === 'fail') throw error
      if (onError.then === 'skip') {
        args.log('warn', `${label}: ${error.message}; the step is skipped and the run goes on.`)
        return { kind: 'skipped' }
      }
      args.log('error', `${label}: ${error.message}; the run goes on and ends as failed.`)
      return { kind: 'failedGoingOn', error: `${label}: ${error.message}` }
    }
  }
}
