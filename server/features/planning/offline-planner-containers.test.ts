import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAlternative } from '#common/targets.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { serveTestPages } from '../../../extension/src/recorder/testing/test-pages.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// Sentences that name an element by the row, card or words it sits next to (docs/decisions/042),
// planned on a page of repeated rows whose buttons all say the same; judged by what the page
// shows after the planner tried each step.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let pages: Awaited<ReturnType<typeof serveTestPages>>

beforeAll(async () => {
  pages = await serveTestPages()
})
afterAll(async () => {
  await browsers.close()
  await pages?.close()
})

/** Plans the sentence on the page of invoices; the steps in words, the notes, and the rows and ticks it left. */
async function plan(description: string) {
  return withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 3_000 },
    async ({ session, perform }) => {
      const explorer = createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 })
      const draft = await planOffline(readInstructions(description), explorer, `${pages.url}/containers.html`)
      const rows = await session.page
        .locator('tbody tr')
        .evaluateAll((found) =>
          found.map(
            (row) =>
              `${(row.querySelector('td:nth-child(2)') as HTMLElement).innerText}${(row.querySelector('input') as HTMLInputElement).checked ? ' ✓' : ''}`,
          ),
        )
      return {
        steps: draft.steps
          .slice(1)
          .map((step) => `${step.type} ${'target' in step && step.target?.[0] ? describeAlternative(step.target[0]) : ''}`),
        notes: draft.notes,
        rows,
        url: session.page.url(),
      }
    },
    { timeLimitMs: 60_000 },
  )
}

// Each plan opens a browser page and tries every step: slow on a busy machine.
describe('offline planning by where an element sits', { timeout: 90_000 }, () => {
  it('ticks the unlabelled checkbox next to its words and deletes the right row', async () => {
    const result = await plan('tick the checkbox next to Pay the invoice, then click Delete in the row for invoice 57')
    expect(result.notes).toEqual([])
    expect(result.steps).toEqual(['check Checkbox next to “Pay the invoice”', 'click Button named “Delete” in the row “invoice 57”'])
    expect(result.rows).toEqual(['Invoice 41', 'Invoice 42 ✓', 'Invoice 99'])
  })

  it('deletes the row a sentence names by quotes or by its words, and nothing when two rows fit', async () => {
    const quoted = await plan(`click Delete in the row "Invoice 42"`)
    expect(quoted.steps).toEqual(['click Button named “Delete” in the row “Invoice 42”'])
    expect(quoted.rows).toEqual(['Invoice 41', 'Invoice 57', 'Invoice 99'])

    const ambiguous = await plan('click Delete in the row for invoice 4')
    expect(ambiguous.steps).toEqual([])
    expect(ambiguous.notes).toEqual([expect.stringContaining('Could not find exactly one “Delete in the row for invoice 4”')])
    expect(ambiguous.rows).toEqual(['Invoice 41', 'Invoice 42', 'Invoice 57', 'Invoice 99'])
  })

  it('finds the button of a card, a checkbox in a row, the nth link and a button in the dialog', async () => {
    const result = await plan(
      'check the box in the row for Invoice 41, click Add to cart in the card Pine chair, click the 2nd Edit link, click OK in the dialog',
    )
    expect(result.notes).toEqual([])
    expect(result.steps).toEqual([
      'check Checkbox in the row “Invoice 41”',
      'click Button named “Add to cart” in the card “Pine chair”',
      'click 2nd Link named “Edit”',
      'click Button named “OK” in the dialog',
    ])
    expect(result.rows[0]).toBe('Invoice 41 ✓')
    expect(new URL(result.url).hash).toBe('#bank')
  })
})
