import type { AutomationStep } from '#common/automation-steps.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { createExtractedTable } from '#common/extracted-table.ts'
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

/** The exploration's time ran out, or the member went away: the page was closed under it. */
export class ExplorationStopped extends Error {}

/** A step that could not be done while exploring a page (inspection, planning): its number and why. */
export class ExploreFailure extends Error {
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(message)
  }
}

/** Why the target guard refuses an address (null when it may be opened), without a browser. */
export async function refusedAddress(options: Pick<GuardedPageOptions, 'privateTargets' | 'lookup'>, url: string): Promise<string | null> {
  const verdict = await createTargetGuard({ policy: options.privateTargets, lookup: options.lookup }).checkUrl(url)
  return verdict.allowed ? null : verdict.reason
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
  limits: { timeLimitMs: number; signal?: AbortSignal },
): Promise<T> {
  const deadline = Date.now() + limits.timeLimitMs
  const timeUp = AbortSignal.timeout(limits.timeLimitMs)
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeUp]) : timeUp
  // A step's own timeout ends at the deadline too, and may fire before the time-up signal does.
  const stopped = () => signal.aborted || Date.now() >= deadline
  const guard = createTargetGuard({ policy: options.privateTargets, lookup: options.lookup })
  const browser = await options.browsers.acquire()
  let session: BrowserSession | null = null
  // Whatever the page is doing (a script that never yields, a load that never ends), closing it
  // ends every call waiting on it.
  const stop = () => void session?.context.close().catch(() => {})
  signal.addEventListener('abort', stop, { once: true })
  const log: string[] = []
  try {
    session = await openBrowserSession({ browser, guard })
    if (signal.aborted) stop()
    const opened = session
    // A switchTab step moves on to the newest tab: the session's page is the one acted on.
    const context = (): StepContext => ({
      page: opened.page,
      switchPage: (next) => {
        opened.page = next
      },
      guard,
      blocked: opened.blocked,
      timeout: () => Math.max(1, Math.min(options.stepTimeoutMs, deadline - Date.now())),
      stepSeconds: seconds(options.stepTimeoutMs),
      running: () => !signal.aborted,
      browserConnected: () => browser.isConnected(),
      stopSignal: signal,
      progress: { log: (_level, message) => void log.push(message) },
      extracted: createExtractedTable(),
      takeScreenshot: async () => {},
      onRepaired: async () => {},
    })
    const result = await use({
      session: opened,
      log,
      async perform(step, n) {
        if (signal.aborted) throw new ExplorationStopped('stopped')
        try {
          await performStep(context(), step, n)
        } catch (error) {
          if (stopped()) throw new ExplorationStopped('stopped')
          throw new ExploreFailure(n, error instanceof StepFailure ? error.message : cleanMessage(error))
        }
      },
    })
    if (signal.aborted) throw new ExplorationStopped('stopped')
    return result
  } catch (error) {
    if (stopped() && !(error instanceof ExplorationStopped)) throw new ExplorationStopped('stopped')
    throw error
  } finally {
    signal.removeEventListener('abort', stop)
    await session?.close()
    options.browsers.release()
  }
}
