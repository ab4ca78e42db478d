import type { Page } from 'playwright-core'

/** The picture's size against the browser window: a quarter (1280×800 becomes 320×200). */
const SCALE = 0.25
const QUALITY = 55

/**
 * A small picture of what the browser window shows as a step left it, for the member reviewing a
 * draft (a JPEG data URL of a few kilobytes), or null when the page cannot be pictured. Chromium's
 * own capture scales it down; Playwright's screenshot would be full size.
 */
export async function stepPicture(page: Page): Promise<string | null> {
  const session = await page
    .context()
    .newCDPSession(page)
    .catch(() => null)
  if (!session) return null
  try {
    const view = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY, width: innerWidth, height: innerHeight }))
    const { data } = await session.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: QUALITY,
      clip: { ...view, scale: SCALE },
    })
    return `data:image/jpeg;base64,${data}`
  } catch {
    return null
  } finally {
    await session.detach().catch(() => {})
  }
}
