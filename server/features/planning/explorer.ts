import { setTimeout as sleep } from 'node:timers/promises'
import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { ExploreFailure } from '#server/browser/guarded-page.ts'
import { settlePage, SETTLE } from '#server/browser/page-settle.ts'
import { snapshotPage, type PageSnapshot } from '#server/browser/page-snapshot.ts'
import { stepPicture } from './step-picture.ts'

/** How long a page may take to load before it is looked at anyway. */
const LOAD_MS = 3_000
/** How long a planner looks again for an element the page does not show (yet): apps draw late. */
const LATE_ELEMENT_MS = 5_000
const LOOK_AGAIN_MS = 150

/**
 * A planner's view of the cloud browser page it explores: look at the page (a quick snapshot,
 * its elements' targets unchecked), and try a step on it exactly as a run would.
 */
export interface Explorer {
  page: Page
  look(): Promise<PageSnapshot>
  /** Performs the step; the reason it could not, or null. */
  attempt(step: AutomationStep): Promise<string | null>
  /** Whether the last step attempted opened a browser dialog (a confirm, an alert): planning dismisses it. */
  openedDialog(): boolean
  /** A small picture of the page now, for the draft (null when it cannot be pictured). */
  picture(): Promise<string | null>
  /** The time left for planning, in ms (none once the member went away). */
  remaining(): number
  /**
   * What `find` answers, looked for again on a fresh look at the page each time it answers null
   * (an element an app draws late), until it answers or `boundMs` (and the planning time) passed.
   */
  waitFor<T>(find: (snapshot: PageSnapshot) => Promise<T | null>, boundMs?: number): Promise<T | null>
  /** Aborted when the member went away: questions to the model stop too. */
  signal?: AbortSignal
}

export function createExplorer(options: {
  page: Page
  perform: (step: AutomationStep, n: number) => Promise<void>
  deadline: number
  signal?: AbortSignal
}): Explorer {
  const { page } = options
  let performed = 0
  let dialogs = 0
  let openedDialog = false
  // Counted, then dismissed as Playwright does when nobody listens (a dialog step armed before answers it first).
  page.on('dialog', (dialog) => {
    dialogs += 1
    setTimeout(() => void dialog.dismiss().catch(() => {}), 0)
  })
  /** A step was just performed: it let the page settle (step-actions.ts), so the next look need not again. */
  let settledByStep = false
  const remaining = () => (options.signal?.aborted ? 0 : options.deadline - Date.now())
  async function settle() {
    await page.waitForLoadState('load', { timeout: Math.max(1, Math.min(LOAD_MS, remaining())) }).catch(() => {})
    await settlePage(page, { maxMs: Math.min(SETTLE.maxMs, remaining()), signal: options.signal })
  }
  async function look() {
    if (!settledByStep) await settle()
    settledByStep = false
    try {
      return await snapshotPage(page, { check: false })
    } catch {
      // The page was navigating while it was read: once more, after it settled.
      await settle()
      return snapshotPage(page, { check: false })
    }
  }
  return {
    page,
    signal: options.signal,
    remaining,
    picture: () => stepPicture(page),
    look,
    async waitFor(find, boundMs = LATE_ELEMENT_MS) {
      const until = Date.now() + boundMs
      for (;;) {
        const found = await find(await look())
        if (found !== null || Date.now() >= until || remaining() <= 0) return found
        // Each look lets the page settle first, which spaces the looks out; a page quiet already gets a pause.
        await sleep(LOOK_AGAIN_MS)
      }
    },
    openedDialog: () => openedDialog,
    async attempt(step) {
      performed += 1
      const before = dialogs
      try {
        await options.perform(step, performed)
        settledByStep = true
        return null
      } catch (error) {
        if (error instanceof ExploreFailure) return error.message
        throw error
      } finally {
        openedDialog = dialogs > before
      }
    },
  }
}
