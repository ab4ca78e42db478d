import { errors } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { isPlaywrightTimeout, loadPlaywright } from './playwright.ts'

describe('playwright-core loaded on demand', () => {
  it('is the same module a static import gives', async () => {
    expect((await loadPlaywright()).errors.TimeoutError).toBe(errors.TimeoutError)
  })

  it("tells Playwright's timeouts from other failures", async () => {
    expect(await isPlaywrightTimeout(new errors.TimeoutError('locator.click: Timeout 1000ms exceeded.'))).toBe(true)
    expect(await isPlaywrightTimeout(new Error('locator.click: Target page, context or browser has been closed'))).toBe(false)
    expect(await isPlaywrightTimeout('Timeout')).toBe(false)
  })
})
