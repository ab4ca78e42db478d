import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { ExploreFailure, withGuardedPage, type GuardedPageOptions } from '#server/browser/guarded-page.ts'
import { snapshotPage, type SnapshotElement } from '#server/browser/page-snapshot.ts'

/** How much of a long page the screenshot shows (the elements below it are still listed). */
const MAX_SCREENSHOT_HEIGHT = 2_400
const SCREENSHOT_QUALITY = 60
/**
 * What one inspection may wait for (docs/decisions/038): its whole time (loading, replaying
 * steps, snapshot and screenshot), each page load or step, and the page's settling before it is
 * read. One request holds a place of the cloud browser for at most the first.
 */
export interface InspectionLimits {
  timeLimitMs: number
  stepTimeoutMs: number
  settleMs: number
}
export const INSPECTION_LIMITS: InspectionLimits = { timeLimitMs: 20_000, stepTimeoutMs: 8_000, settleMs: 2_000 }

export interface Inspection {
  url: string
  title: string
  /** A JPEG of the page (from its top, at most 2,400 px tall), as a data: URL, with its size in CSS pixels. */
  screenshot: { dataUrl: string; width: number; height: number }
  elements: SnapshotElement[]
  truncated: boolean
  /** A step after the first that could not be replayed: the page is where it stopped (a first one that fails throws ExploreFailure). */
  stoppedAt: { step: number; message: string } | null
}

/**
 * Loads a page in the cloud browser behind the target guard, optionally after replaying steps (to
 * continue from the page a step leads to), and returns what a member needs to build steps by
 * pointing: a screenshot and the page's elements with the targets we suggest (page-snapshot.ts).
 */
export function createInspector(pageOptions: GuardedPageOptions, limits: InspectionLimits = INSPECTION_LIMITS) {
  // A page load or a step waits no longer than an inspection allows, whatever runs may wait.
  const options = { ...pageOptions, stepTimeoutMs: Math.min(pageOptions.stepTimeoutMs, limits.stepTimeoutMs) }
  return {
    async inspect(input: { steps: AutomationStep[] }, signal?: AbortSignal): Promise<Inspection> {
      return withGuardedPage(
        options,
        async ({ session, perform }) => {
          let stoppedAt: Inspection['stoppedAt'] = null
          for (const [index, step] of input.steps.entries()) {
            try {
              await perform(step, index + 1)
            } catch (error) {
              // A first page that did not open has nothing to show; reading a page still navigating would wait until the time limit.
              if (!(error instanceof ExploreFailure) || error.step === 1) throw error
              stoppedAt = { step: error.step, message: error.message }
              break
            }
          }
          const { page } = session
          const snapshot = await settled(page, limits.settleMs, () => snapshotPage(page))
          const size = await settled(page, limits.settleMs, () =>
            page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })),
          )
          // A page of no size still gets a picture: the browser window's.
          const clip = {
            x: 0,
            y: 0,
            width: Math.max(1, Math.min(size.width || VIEWPORT_WIDTH, VIEWPORT_WIDTH)),
            height: Math.max(1, Math.min(size.height || VIEWPORT_HEIGHT, MAX_SCREENSHOT_HEIGHT)),
          }
          const jpeg = await page.screenshot({
            type: 'jpeg',
            quality: SCREENSHOT_QUALITY,
            fullPage: true,
            clip,
            timeout: options.stepTimeoutMs,
          })
          return {
            url: snapshot.url,
            title: snapshot.title,
            screenshot: { dataUrl: `data:image/jpeg;base64,${jpeg.toString('base64')}`, width: clip.width, height: clip.height },
            elements: snapshot.elements,
            truncated: snapshot.truncated,
            stoppedAt,
          }
        },
        { timeLimitMs: limits.timeLimitMs, signal },
      )
    },
  }
}

const VIEWPORT_WIDTH = 1280
const VIEWPORT_HEIGHT = 800

/**
 * Reads the page once it has settled (or `settleMs` passed: a page still loading is read as it is);
 * a page that navigated meanwhile (a redirect after load) is read again.
 */
async function settled<T>(page: Page, settleMs: number, read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await page.waitForLoadState('load', { timeout: settleMs }).catch(() => {})
    try {
      return await read()
    } catch (error) {
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(error))) throw error
    }
  }
}

export type Inspector = ReturnType<typeof createInspector>
