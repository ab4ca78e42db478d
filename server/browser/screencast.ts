import type { Page } from 'playwright-core'

export interface ScreencastFrame {
  image: Buffer
  /** The page's viewport in CSS pixels when the frame was painted. */
  width: number
  height: number
}

/** Frames are at most this large: readable text, about 30–80 KB each as JPEG. */
const MAX_WIDTH = 1024
const MAX_HEIGHT = 800
const QUALITY = 50

/**
 * What a page shows, frame by frame as the browser paints it (the DevTools protocol's screencast):
 * nothing while the page is still, a frame at each change. Every frame is acknowledged at once, so
 * the browser never holds back the latest picture; the caller decides how many it keeps. Resolves
 * to the function that stops it; after that (or once `stop` is called) no frame is handed on.
 */
export async function startScreencast(page: Page, onFrame: (frame: ScreencastFrame) => void): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page)
  let live = true
  cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
    void cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {})
    if (live) onFrame({ image: Buffer.from(data, 'base64'), width: metadata.deviceWidth, height: metadata.deviceHeight })
  })
  const stop = async () => {
    if (!live) return
    live = false
    await cdp.send('Page.stopScreencast').catch(() => {})
    await cdp.detach().catch(() => {})
  }
  try {
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: QUALITY, maxWidth: MAX_WIDTH, maxHeight: MAX_HEIGHT })
  } catch (error) {
    await stop()
    throw error
  }
  return stop
}
