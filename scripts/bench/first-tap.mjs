// The first taps on a phone (issue 31, target 4), in Chromium: on each reading page the menu
// toggle, and on the home page 'Watch Demo'. For each: the JavaScript the tap loaded (gzip -9, as
// js-size.mjs counts) and the time from the tap (its pointerdown) until the first frame in which
// what it opens is visible, measured in the page.
import { chromium } from '@playwright/test'
import { measure } from './js-size.mjs'

const TAPS = [
  { control: 'Open menu', opens: '#mobile-menu' },
  { control: 'Watch Demo', opens: 'dialog[aria-labelledby="demo-title"]', only: '/' },
]

/**
 * @returns {Promise<{path: string, control: string, files: number, gzipBytes: number, answeredMs: number}[]>}
 */
export async function firstTaps(base, paths, { executablePath }) {
  const browser = await chromium.launch({ executablePath })
  try {
    const results = []
    for (const path of paths) {
      for (const tap of TAPS.filter((entry) => !entry.only || entry.only === path)) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
        try {
          const page = await context.newPage()
          await page.goto(new URL(path, base).href, { waitUntil: 'load' })
          const scripts = new Set()
          page.on('request', (request) => {
            if (request.resourceType() === 'script') scripts.add(request.url())
          })
          const button = page.getByRole('button', { name: tap.control })
          await button.waitFor({ state: 'visible' })
          const answered = button.evaluate(untilShown, tap.opens)
          await button.tap()
          const answeredMs = await answered
          // Whatever the tap started loading, let it finish before counting.
          await page.waitForLoadState('networkidle')
          const size = await measure(base, scripts)
          results.push({ path, control: tap.control, files: size.files, gzipBytes: size.gzipBytes, answeredMs: Math.round(answeredMs) })
        } finally {
          await context.close()
        }
      }
    }
    return results
  } finally {
    await browser.close()
  }
}

/** In the page: milliseconds from the next pointerdown on `button` to the first frame in which `selector` is visible. */
function untilShown(button, selector) {
  return new Promise((resolve) => {
    button.addEventListener(
      'pointerdown',
      (event) => {
        const check = () => {
          const element = document.querySelector(selector)
          if (element?.checkVisibility()) resolve(performance.now() - event.timeStamp)
          else requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      },
      { once: true, capture: true },
    )
  })
}
