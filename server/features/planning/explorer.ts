import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { ExploreFailure } from '#server/browser/guarded-page.ts'
import { snapshotPage, type PageSnapshot } from '#server/browser/page-snapshot.ts'
import { stepPicture } from './step-picture.ts'

/** How long a page may take to settle after a step before it is looked at anyway. */
const SETTLE_MS = 3_000

/**
 * A planner's view of the cloud browser page it explores: look at the page (a quick snapshot,
 * its elements' targets unchecked), and try a step on it exactly as a run would.
 */
export interface Explorer {
  page: Page
  look(): Promise<PageSnapshot>
  /** Performs the step; the reason it could not, or null. */
  attempt(step: AutomationStep): Promise<string | null>
  /** A small picture of the page now, for the draft (null when it cannot be pictured). */
  picture(): Promise<string | null>
  /** The time left for planning, in ms (none once the member went away). */
  remaining(): number
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
  async function settle() {
    await page.waitForLoadState('load', { timeout: SETTLE_MS }).catch(() => {})
  }
  return {
    page,
    signal: options.signal,
    remaining: () => (options.signal?.aborted ? 0 : options.deadline - Date.now()),
    picture: () => stepPicture(page),
    async look() {
      await settle()
      try {
        return await snapshotPage(page, { check: false })
      } catch {
        // The page was navigating while it was read: once more, after it settled.
        await settle()
        return snapshotPage(page, { check: false })
      }
    },
    async attempt(step) {
      performed += 1
      try {
        await options.perform(step, performed)
        // A click or a key may have sent a form: what it leads to is what the next step looks at.
        if (step.type === 'click' || step.type === 'press' || step.type === 'select') {
          await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => {})
        }
        return null
      } catch (error) {
        if (error instanceof ExploreFailure) return error.message
        throw error
      }
    },
  }
}
