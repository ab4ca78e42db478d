import type { AutomationStep } from '#common/automation-steps.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { createExtractedTable } from './extracted-table.ts'
import type { BrowserSource } from './shared-browser.ts'
import { cleanMessage, performStep, seconds, StepFailure, type StepContext } from './step-actions.ts'
import { createTargetGuard, type LookupAll, type PrivateTargetPolicy } from './target-guard.ts'

export interface GuardedPageOptions {
  browsers: BrowserSource
  privateTargets: PrivateTargetPolicy
  /** How long one step (or a page load) may take. */
  stepTimeoutMs: number
  lookup?: LookupAll
}

/** A step that could not be done while exploring a page (inspection, planning): its number and why. */
export class ExploreFailure extends Error {
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A page to look at and act on outside a run (inspecting a page, planning from a sentence): a
 * guarded browser session of the shared browser (browser-session.ts) that performs steps exactly
 * as runs do (step-actions.ts), with a log of its own instead of a run's. `use` opens it, hands it
 * over and always closes it.
 */
export async function withGuardedPage<T>(
  options: GuardedPageOptions,
  use: (page: {
    session: BrowserSession
    /** Performs one step as a run would; throws ExploreFailure naming the step when it cannot. */
    perform(step: AutomationStep, n: number): Promise<void>
    log: string[]
  }) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const guard = createTargetGuard({ policy: options.privateTargets, lookup: options.lookup })
  const browser = await options.browsers.acquire()
  let session: BrowserSession | null = null
  const log: string[] = []
  try {
    session = await openBrowserSession({ browser, guard })
    const opened = session
    const context = (): StepContext => ({
      page: opened.page,
      guard,
      blocked: opened.blocked,
      timeout: () => options.stepTimeoutMs,
      stepSeconds: seconds(options.stepTimeoutMs),
      running: () => !signal?.aborted,
      browserConnected: () => browser.isConnected(),
      stopSignal: signal ?? new AbortController().signal,
      progress: { log: (_level, message) => void log.push(message) },
      extracted: createExtractedTable(),
      takeScreenshot: async () => {},
      onRepaired: async () => {},
    })
    return await use({
      session: opened,
      log,
      async perform(step, n) {
        try {
          await performStep(context(), step, n)
        } catch (error) {
          throw new ExploreFailure(n, error instanceof StepFailure ? error.message : cleanMessage(error))
        }
      },
    })
  } finally {
    await session?.close()
    options.browsers.release()
  }
}
