import type { Page } from 'playwright-core'
import { loadPlaywright } from '#server/browser/playwright.ts'
import type { BrowserProfile } from './browser-profile.ts'
import { chromiumSandbox } from './run-locally.ts'

/**
 * `aether-runner sign-in <url> --profile <folder>`: opens Chromium in a window at the address with
 * the profile's session, the member signs in by hand (their password and codes never pass through
 * Aether), and when they close the window its cookies and storage are kept in the profile. Runs
 * with `--profile <folder>` then start signed in.
 */
export async function signInWithProfile(options: {
  url: string
  chromiumPath: string
  profile: BrowserProfile
  /** Tests drive the page themselves, without a window; the member's sign-in is always headed. */
  headless?: boolean
  onPage?: (page: Page) => Promise<void>
}): Promise<void> {
  const { chromium } = await loadPlaywright()
  const browser = await chromium.launch({
    executablePath: options.chromiumPath,
    headless: options.headless ?? false,
    chromiumSandbox: chromiumSandbox(),
  })
  try {
    const kept = await options.profile.load()
    const context = await browser.newContext({ storageState: kept ? JSON.parse(kept) : undefined, viewport: null })
    const page = await context.newPage()
    await page.goto(options.url)
    // The window may close with its context: what it holds is read as it changes, and once more at the end.
    let state = await context.storageState()
    const reading = setInterval(() => {
      context.storageState().then(
        (latest) => (state = latest),
        () => {},
      )
    }, 1_000)
    const closed = new Promise<void>((resolve) => {
      page.once('close', () => resolve())
      browser.once('disconnected', () => resolve())
    })
    await options.onPage?.(page)
    await closed
    clearInterval(reading)
    state = await context.storageState().catch(() => state)
    await options.profile.save(JSON.stringify(state))
  } finally {
    await browser.close().catch(() => {})
  }
}
