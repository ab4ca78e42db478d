import type { CDPSession, Locator, Page } from 'playwright-core'
import { STEP_SHOT_QUALITY } from '#common/run-steps.ts'

/** A step's picture is the viewport at half its CSS size: small enough to take after every step. */
const SCALE = 0.5

const sessions = new WeakMap<Page, Promise<CDPSession>>()

/**
 * A small JPEG of what the page shows now, for the run's timeline (docs/decisions/057). Taken
 * through the DevTools protocol, which is about twice as fast as Playwright's screenshot (no
 * waiting for fonts and stable frames); while a field holds a vault value, Playwright's own
 * screenshot instead, which paints those fields over.
 */
export async function stepPicture(page: Page, options: { masked: Locator[]; timeoutMs: number }): Promise<Buffer> {
  if (options.masked.length > 0)
    return page.screenshot({ type: 'jpeg', quality: STEP_SHOT_QUALITY, timeout: options.timeoutMs, mask: options.masked })
  let session = sessions.get(page)
  if (!session) {
    session = page.context().newCDPSession(page)
    sessions.set(page, session)
    // A session that could not open is not kept: the next picture tries again.
    session.catch(() => sessions.delete(page))
  }
  const cdp = await session
  const capture = async () => {
    const { cssVisualViewport: view } = await cdp.send('Page.getLayoutMetrics')
    const { data } = await cdp.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: STEP_SHOT_QUALITY,
      clip: { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight, scale: SCALE },
    })
    return Buffer.from(data, 'base64')
  }
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the picture took longer than ${options.timeoutMs} ms`)), options.timeoutMs)
  })
  try {
    return await Promise.race([capture(), late])
  } finally {
    clearTimeout(timer)
  }
}
