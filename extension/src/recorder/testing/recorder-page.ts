import pino from 'pino'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import type { Target } from '#common/targets.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { recorderBundle, type RecorderGlobal } from './recorder-bundle.ts'
import { serveTestPages } from './test-pages.ts'

/** A window of a test page, with the recorder loaded and the element it last named. */
export type RecorderWindow = Window & { aetherRecorder: RecorderGlobal; picked?: Element }

/**
 * Chromium (as the server's tests launch it) with the test pages served and the recorder loaded
 * into every page and frame, as the content script is (all frames).
 */
export async function openRecorderPages() {
  const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
  const [pages, bundle, browser] = await Promise.all([serveTestPages(), recorderBundle(), browsers.acquire()])
  const context: BrowserContext = await (browser as Browser).newContext()
  await context.addInitScript({ content: bundle })
  const page: Page = await context.newPage()
  return {
    page,
    async open(name: string) {
      await page.goto(`${pages.url}/${name}`)
    },
    /** The target the recorder chooses for the element (which it remembers as `window.picked`). */
    choose(locator: Locator): Promise<Target | null> {
      return locator.evaluate((element) => {
        const view = window as unknown as RecorderWindow
        view.picked = element
        return view.aetherRecorder.chooseTarget(element)
      })
    },
    async close() {
      await context.close()
      browsers.release()
      await browsers.close()
      await pages.close()
    },
  }
}
