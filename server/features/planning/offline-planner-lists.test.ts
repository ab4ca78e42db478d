import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { createExtractedTable } from '#common/extracted-table.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { listPage } from '#server/browser/list-pages.fixture.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { performStep, type StepContext } from '#server/browser/step-actions.ts'
import { createTargetGuard } from '#server/browser/target-guard.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// "extract the <things>" on pages drawn like real apps (issue 28 item 3): the repeated items
// whose words fit, never the counter beside them; tables and cards as records; every page.
// Each plan is judged by what its steps read when run.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = listPage(request.url ?? '/')
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'Not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Plans the sentence from the path, then runs the plan's steps on a fresh page: the plan and the rows it extracts. */
const planAndRun = (description: string, path: string) =>
  withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    async ({ session, perform }) => {
      const draft = await planOffline(
        readInstructions(description),
        createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }),
        `${site}${path}`,
      )
      const extracted = createExtractedTable()
      const context: StepContext = {
        page: session.page,
        guard: createTargetGuard({ policy: 'loopback' }),
        blocked: [],
        timeout: () => 5_000,
        stepSeconds: '5 s',
        running: () => true,
        browserConnected: () => true,
        stopSignal: new AbortController().signal,
        progress: { log: () => {} },
        extracted,
        takeScreenshot: async () => {},
        onRepaired: async () => {},
      }
      for (const [index, step] of draft.steps.entries()) await performStep(context, step, index + 1)
      return {
        ...draft,
        extract: draft.steps.find((step) => step.type === 'extract') as Extract<AutomationStep, { type: 'extract' }>,
        rows: extracted.rows(),
      }
    },
    { timeLimitMs: 90_000 },
  )

describe('extracting the repeated items a plural names', () => {
  it('reads the todos, not the "2 items left" counter beside them nor the filters', async () => {
    const { extract, rows, notes } = await planAndRun('extract the todos as todo', '/todos')
    expect(notes).toEqual([])
    expect(extract).toEqual({ type: 'extract', target: [{ by: 'css', selector: 'ul.todo-list > li' }], field: 'todo' })
    expect(rows).toEqual([{ todo: 'Buy milk' }, { todo: 'Walk the dog' }, { todo: 'Write the report' }])
  })

  it('reads a table as records, one field per header, not the "3 orders" beside it', async () => {
    const { extract, rows } = await planAndRun('extract the table as orders', '/orders')
    expect(extract.fields?.map((field) => [field.name, field.part])).toEqual([
      ['Item', [{ by: 'column', header: 'Item', exact: true }]],
      ['Placed on', [{ by: 'column', header: 'Placed on', exact: true }]],
      ['Amount', [{ by: 'column', header: 'Amount', exact: true }]],
    ])
    // The rows are named in words; header rows give no record.
    expect(extract.target[0]).toEqual({ by: 'role', role: 'row' })
    expect(rows).toEqual([
      { Item: 'Kettle', 'Placed on': '2026-03-02', Amount: '€24.90' },
      { Item: 'Teapot', 'Placed on': '2026-03-09', Amount: '€31.00' },
      { Item: 'Mugs (4)', 'Placed on': '2026-03-16', Amount: '€18.40' },
    ])
  })

  it('reads cards as records with the parts asked for; a card without a price keeps its row', async () => {
    const { extract, rows, notes } = await planAndRun('extract the products with name and price', '/shop')
    expect(notes).toEqual([])
    expect(extract.field).toBe('products')
    expect(extract.fields?.map((field) => field.name)).toEqual(['name', 'price'])
    expect(extract.fields?.[0]?.part?.[0]).toEqual({ by: 'role', role: 'heading' })
    expect(rows).toEqual([
      { name: 'Lamp', price: '$12.00' },
      { name: 'Chair', price: '$40.00' },
      { name: 'Desk', price: null },
    ])
  })

  it('reads every page by following Next, to the last page', { timeout: 90_000 }, async () => {
    const { extract, rows, notes } = await planAndRun('extract the books on every page', '/books?page=1')
    expect(notes).toEqual([])
    expect(extract.pages).toEqual({ next: expect.arrayContaining([{ by: 'role', role: 'link', name: 'Next ›' }]), max: 20 })
    expect(rows.map((row) => Object.values(row)[0])).toEqual(['Dune', 'Emma', 'Ulysses', 'Beloved', 'Solaris', 'Kindred'])
    expect(Object.keys(rows[0] ?? {})).toEqual(['title', 'author'])
  })
})
