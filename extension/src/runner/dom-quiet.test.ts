import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRecorderPages, type RecorderWindow } from '../recorder/testing/recorder-page.ts'
import { DOM_QUIET } from './dom-quiet.ts'
import type { PageStep } from './page-actions.ts'

// After an action the extension's runner waits for the page to stop changing before the next
// step (run-in-tab.ts asks the page, dom-quiet.ts answers), in real Chromium on a test page.

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
})
afterAll(async () => {
  await pages?.close()
})

const perform = (step: PageStep) =>
  pages.page.evaluate((step) => (window as unknown as RecorderWindow).aetherRecorder.performInPage(document, step, 1_000), step)

/** Whether the page's elements settled, and how long that took. */
const settle = (maxMs: number) =>
  pages.page.evaluate(async (maxMs) => {
    const started = Date.now()
    const quiet = await (window as unknown as RecorderWindow).aetherRecorder.waitForDomQuiet(document, { maxMs })
    return { quiet, ms: Date.now() - started }
  }, maxMs)

const results = () => pages.page.locator('#results li').allInnerTexts()
const button = (name: string): PageStep => ({ type: 'click', target: [{ by: 'role', role: 'button', name }] })

describe('waiting for the page to stop changing', () => {
  it('returns after about the quiet window on a quiet page', async () => {
    await pages.open('late.html')
    const { quiet, ms } = await settle(5_000)
    expect(quiet).toBe(true)
    expect(ms).toBeGreaterThanOrEqual(DOM_QUIET.quietMs - 20)
    expect(ms).toBeLessThan(DOM_QUIET.quietMs + 1_000)
  })

  it('waits until what a click draws is drawn, every pass of it', async () => {
    await pages.open('late.html')
    expect(await perform(button('Load results'))).toEqual({ ok: true })
    expect((await settle(5_000)).quiet).toBe(true)
    expect(await results()).toEqual(['Ada', 'Grace'])
  })

  it('is bounded on a page that never stops changing', async () => {
    await pages.open('late.html')
    expect(await perform(button('Start the clock'))).toEqual({ ok: true })
    const { quiet, ms } = await settle(800)
    expect(quiet).toBe(false)
    expect(ms).toBeGreaterThanOrEqual(790)
    expect(ms).toBeLessThan(1_500)
  })
})
