import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stepInWords } from '#common/step-words.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { startLateRenderingSite } from '#server/testing/late-rendering-site.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// The offline planner on a page drawn by its script after load, usable only a while later, and
// drawn anew after each click (late-rendering-site.ts): it reads the page once it has settled.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let site: Awaited<ReturnType<typeof startLateRenderingSite>>
beforeAll(async () => {
  site = await startLateRenderingSite()
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
})

const plan = (description: string, start: string) =>
  withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    ({ session, perform }) =>
      planOffline(readInstructions(description), createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }), start),
    { timeLimitMs: 60_000 },
  )

describe('the offline planner on a page its script draws late', () => {
  it('finds the form the script draws after load, and what the click draws anew', async () => {
    const draft = await plan(
      'type Dune into Book title, then click Search, then check that "Found 2 books for Dune" appears',
      `${site.url}/`,
    )
    // No note: every step was found, and tried in the browser, worked (the check too).
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(stepInWords)).toEqual([
      'Type “Dune” into Text field named “Book title” (+2 fallbacks)',
      'Click Button named “Search” (+1 fallback)',
      'Check that the page shows “Found 2 books for Dune”',
    ])
  })

  it('looks again for a field a page draws well after it looked settled', async () => {
    // The script waits 1.5 s before it asks for anything: the page is quiet until then.
    const draft = await plan('type Dune into Book title', `${site.url}/?boot=1500`)
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(stepInWords)).toEqual(['Type “Dune” into Text field named “Book title” (+2 fallbacks)'])
  })
})
