import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { startVerbSite } from '#server/testing/verb-site.ts'
import type { BrowserSession } from './browser-session.ts'
import { ExploreFailure, withGuardedPage } from './guarded-page.ts'
import { createSharedBrowser } from './shared-browser.ts'

// The verb steps performed as runs perform them (step-actions.ts, verb-actions.ts), in real
// Chromium, on pages that answer the way web apps do.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let site: Awaited<ReturnType<typeof startVerbSite>>
beforeAll(async () => {
  site = await startVerbSite()
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
})

type Use = (session: BrowserSession, perform: (step: AutomationStep) => Promise<string | null>, log: string[]) => Promise<void>

/** Opens the page and hands over a perform that answers null when the step worked, else why not. */
function on(path: string, use: Use, stepTimeoutMs = 2_000) {
  return withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs },
    async ({ session, perform, log }) => {
      let n = 0
      const attempt = async (step: AutomationStep) => {
        try {
          await perform(step, ++n)
          return null
        } catch (error) {
          if (error instanceof ExploreFailure) return error.message
          throw error
        }
      }
      expect(await attempt({ type: 'navigate', url: `${site.url}${path}` })).toBeNull()
      await use(session, attempt, log)
    },
    { timeLimitMs: 60_000 },
  )
}

const label = (text: string) => [{ by: 'label' as const, text }]

describe('verb steps in the cloud runner', () => {
  it('ticks and unticks boxes and switches, leaving one already so alone', async () => {
    await on('/controls', async (session, perform) => {
      const { page } = session
      expect(await perform({ type: 'check', target: label('Remember me'), checked: true })).toBeNull()
      expect(await page.locator('#remember').isChecked()).toBe(true)
      // Already ticked: a blind click would untick it.
      expect(await perform({ type: 'check', target: label('Remember me'), checked: true })).toBeNull()
      expect(await page.locator('#remember').isChecked()).toBe(true)
      expect(await perform({ type: 'check', target: label('Newsletter'), checked: false })).toBeNull()
      expect(await page.locator('#news').isChecked()).toBe(false)
      expect(await perform({ type: 'check', target: [{ by: 'role', role: 'switch', name: 'Dark mode' }], checked: true })).toBeNull()
      expect(await page.locator('#dark').getAttribute('aria-checked')).toBe('true')
      expect(
        await perform({ type: 'assertChecked', target: [{ by: 'role', role: 'switch', name: 'Dark mode' }], checked: true }),
      ).toBeNull()
      expect(await perform({ type: 'assertChecked', target: label('Newsletter'), checked: true })).toBe(
        'Field labelled “Newsletter” is not ticked (waited 2 s)',
      )
      expect(await perform({ type: 'check', target: label('City'), checked: true })).toBe(
        'Field labelled “City” is not a checkbox, radio button or switch',
      )
    })
  })

  it('hovers, double-clicks, clears, and counts', async () => {
    await on('/controls', async (session, perform) => {
      const { page } = session
      expect(await perform({ type: 'hover', target: [{ by: 'role', role: 'button', name: 'Account' }] })).toBeNull()
      expect(await page.getByText('Sign out').isVisible()).toBe(true)
      expect(await perform({ type: 'doubleClick', target: [{ by: 'text', text: 'Quarterly report' }] })).toBeNull()
      expect(await page.locator('#title').textContent()).toBe('Editing the title')
      expect(await perform({ type: 'clear', target: label('City') })).toBeNull()
      expect(await page.locator('#city').inputValue()).toBe('')
      expect(await perform({ type: 'assertCount', target: [{ by: 'css', selector: '.row' }], count: 3 })).toBeNull()
      expect(await perform({ type: 'assertCount', target: [{ by: 'css', selector: '.row' }], count: 4 })).toBe(
        'Element (found by the page’s structure) matches 3 elements, not 4 (waited 2 s)',
      )
      expect(await perform({ type: 'assertCount', target: [{ by: 'css', selector: '.nothing' }], count: 0 })).toBeNull()
    })
  })

  it('waits until an element is gone, and checks that a text is not shown', async () => {
    await on('/controls', async (_session, perform) => {
      expect(await perform({ type: 'wait', target: [{ by: 'text', text: 'Loading…' }], gone: true })).toBeNull()
      expect(await perform({ type: 'assertText', text: 'Loading…', absent: true })).toBeNull()
      expect(await perform({ type: 'wait', target: [{ by: 'text', text: 'Quarterly report' }], gone: true })).toBe(
        'Text “Quarterly report” was still there after 2 s',
      )
      expect(await perform({ type: 'assertText', text: 'Quarterly', absent: true })).toBe('the page still shows "Quarterly" (waited 2 s)')
    })
  })

  it('types dates and numbers in the format their fields take, into rich-text fields too, and chooses by label', async () => {
    await on('/controls', async (session, perform) => {
      const { page } = session
      expect(await perform({ type: 'type', target: label('Start date'), text: '5 December 2026' })).toBeNull()
      expect(await page.locator('#start').inputValue()).toBe('2026-12-05')
      expect(await perform({ type: 'type', target: label('Start date'), text: '12/06/2026' })).toBeNull()
      expect(await page.locator('#start').inputValue()).toBe('2026-12-06')
      expect(await perform({ type: 'type', target: label('Amount'), text: '1,234.50' })).toBeNull()
      expect(await page.locator('#amount').inputValue()).toBe('1234.50')
      expect(
        await perform({ type: 'type', target: [{ by: 'role', role: 'textbox', name: 'Notes' }], text: 'Call back on Monday' }),
      ).toBeNull()
      expect(await page.locator('#notes').textContent()).toBe('Call back on Monday')
      expect(await perform({ type: 'select', target: label('Country'), value: 'France' })).toBeNull()
      expect(await page.locator('#country').inputValue()).toBe('fr')
      expect(await perform({ type: 'select', target: label('Country'), value: ' germany' })).toBeNull()
      expect(await page.locator('#country').inputValue()).toBe('de')
    })
  })

  it("answers the browser's confirm and prompt as armed, and dismisses an unanswered one", async () => {
    await on('/controls', async (session, perform, log) => {
      const { page } = session
      const deleteButton = [{ by: 'role' as const, role: 'button' as const, name: 'Delete' }]
      expect(await perform({ type: 'dialog', action: 'accept' })).toBeNull()
      expect(await perform({ type: 'click', target: deleteButton })).toBeNull()
      await expect.poll(() => page.locator('#outcome').textContent()).toBe('Deleted')
      expect(log).toContain('Step 2 (dialog): accepted the confirm “Delete the report?”.')
      // Armed for one dialog only: the next is dismissed.
      expect(await perform({ type: 'click', target: deleteButton })).toBeNull()
      await expect.poll(() => page.locator('#outcome').textContent()).toBe('Kept')
      expect(await perform({ type: 'dialog', action: 'accept', text: 'Q3' })).toBeNull()
      expect(await perform({ type: 'click', target: [{ by: 'role', role: 'button', name: 'Name it' }] })).toBeNull()
      await expect.poll(() => page.locator('#outcome').textContent()).toBe('Named Q3')
    })
  })

  it('goes on in the tab a link opened, and goes back', async () => {
    await on('/controls', async (session, perform) => {
      expect(await perform({ type: 'switchTab' })).toBe('no new tab or popup opened within 2 s')
      expect(await perform({ type: 'click', target: [{ by: 'role', role: 'link', name: 'Open help' }] })).toBeNull()
      expect(await perform({ type: 'switchTab' })).toBeNull()
      expect(await perform({ type: 'assertText', text: 'Help page' })).toBeNull()
      expect(new URL(session.page.url()).pathname).toBe('/help')
      expect(await perform({ type: 'goBack' })).toBe('there is no previous page to go back to')
    })
    await on('/controls', async (session, perform) => {
      expect(await perform({ type: 'click', target: [{ by: 'role', role: 'link', name: 'Next page' }] })).toBeNull()
      await session.page.waitForURL(/\/second$/)
      expect(await perform({ type: 'goBack' })).toBeNull()
      expect(new URL(session.page.url()).pathname).toBe('/controls')
    })
  })

  it('scrolls a list that loads more until the item shows, within its bound', async () => {
    await on(
      '/feed',
      async (session, perform) => {
        expect(await perform({ type: 'scroll', target: [{ by: 'text', text: 'Item 35', exact: true }] })).toBeNull()
        expect(await session.page.getByText('Item 35', { exact: true }).isVisible()).toBe(true)
        expect(await perform({ type: 'scroll', target: [{ by: 'text', text: 'Item 99', exact: true }], maxScrolls: 2 })).toBe(
          'Text “Item 99” did not appear after scrolling 2 screens',
        )
      },
      10_000,
    )
  })
})
