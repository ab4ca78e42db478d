import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSteps, type AutomationStep } from '#common/automation-steps.ts'
import { createExtractedTable } from '#common/extracted-table.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { listPage } from './list-pages.fixture.ts'
import { createSharedBrowser } from './shared-browser.ts'
import { performStep, type StepContext } from './step-actions.ts'
import { createTargetGuard } from './target-guard.ts'

// The extract step run as a run runs it: records from rows and cards, every page by the next
// control (links that load a page, a button a script answers), up to the step's cap.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let session: BrowserSession
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = listPage(request.url ?? '/')
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'Not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
})
afterAll(async () => {
  await session?.close()
  browsers.release()
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Runs the steps (checked as an automation's are) on the page; the rows extracted and the log. */
async function run(raw: unknown[]) {
  const parsed = parseSteps(raw)
  if (!parsed.ok) throw new Error(parsed.issues.map((issue) => issue.message).join('; '))
  const extracted = createExtractedTable()
  const log: string[] = []
  const context: StepContext = {
    page: session.page,
    guard: createTargetGuard({ policy: 'loopback' }),
    blocked: [],
    timeout: () => 4_000,
    stepSeconds: '4 s',
    running: () => true,
    browserConnected: () => true,
    stopSignal: new AbortController().signal,
    progress: { log: (_level, message) => void log.push(message) },
    extracted,
    takeScreenshot: async () => {},
    onRepaired: async () => {},
  }
  for (const [index, step] of parsed.steps.entries()) await performStep(context, step as AutomationStep, index + 1)
  return { rows: extracted.rows(), log, url: session.page.url() }
}

const books = { by: 'css', selector: 'ul.books > li' }
const next = [{ by: 'role', role: 'link', name: 'Next' }]

describe('extract on every page', () => {
  it('follows the Next link to the last page, reading each page once', async () => {
    const { rows, log, url } = await run([
      { type: 'navigate', url: `${site}/books?page=1` },
      {
        type: 'extract',
        target: [books],
        field: 'books',
        fields: [
          { name: 'title', part: [{ by: 'role', role: 'link' }] },
          { name: 'author', part: [{ by: 'css', selector: '.author' }] },
          { name: 'url', part: [{ by: 'role', role: 'link' }], attribute: 'href' },
        ],
        pages: { next },
      },
    ])
    expect(rows.map((row) => `${row.title} / ${row.author}`)).toEqual([
      'Dune / Frank Herbert',
      'Emma / Jane Austen',
      'Ulysses / James Joyce',
      'Beloved / Toni Morrison',
      'Solaris / Stanisław Lem',
      'Kindred / Octavia Butler',
    ])
    expect(rows[2]?.url).toBe(`${site}/book/2-0`)
    expect(url).toBe(`${site}/books?page=3`)
    expect(log.at(-1)).toBe('Step 2 (extract): 6 records of "books" from 3 pages.')
  })

  it('stops at the step’s cap of pages', async () => {
    const { rows } = await run([
      { type: 'navigate', url: `${site}/books?page=1` },
      { type: 'extract', target: [books], field: 'title', pages: { next, max: 2 } },
    ])
    expect(rows.map((row) => row.title)).toEqual([
      'Dune by Frank Herbert',
      'Emma by Jane Austen',
      'Ulysses by James Joyce',
      'Beloved by Toni Morrison',
    ])
  })

  it('pages a list a script redraws, until its Next button is disabled', async () => {
    const { rows, log } = await run([
      { type: 'navigate', url: `${site}/books-app` },
      {
        type: 'extract',
        target: [{ by: 'role', role: 'listitem' }],
        field: 'title',
        pages: { next: [{ by: 'role', role: 'button', name: 'Next' }] },
      },
    ])
    expect(rows.map((row) => row.title)).toEqual(['Dune', 'Emma', 'Ulysses', 'Beloved', 'Solaris', 'Kindred', 'Ubik'])
    expect(log.at(-1)).toBe('Step 2 (extract): 7 values for "title" from 3 pages.')
  })

  it('a step saved before pages and fields reads one page as it always did', async () => {
    const { rows } = await run([
      { type: 'navigate', url: `${site}/books?page=1` },
      { type: 'extract', selector: 'ul.books > li > a', field: 'title' },
    ])
    expect(rows).toEqual([{ title: 'Dune' }, { title: 'Emma' }])
  })
})

describe('records', () => {
  it('read every card whole: a card without a price gives an empty cell, not the next card’s price', async () => {
    const { rows } = await run([
      { type: 'navigate', url: `${site}/shop` },
      {
        type: 'extract',
        target: [{ by: 'css', selector: 'div.products > div' }],
        field: 'products',
        fields: [
          { name: 'name', part: [{ by: 'role', role: 'heading' }] },
          { name: 'price', part: [{ by: 'css', selector: '.price' }] },
          { name: 'picture', part: [{ by: 'role', role: 'img' }], attribute: 'src' },
        ],
      },
    ])
    expect(rows).toEqual([
      { name: 'Lamp', price: '$12.00', picture: `${site}/img/lamp.png` },
      { name: 'Chair', price: '$40.00', picture: `${site}/img/chair.png` },
      { name: 'Desk', price: null, picture: `${site}/img/desk.png` },
    ])
  })

  it('read a table’s rows by column header, the header row giving no record', async () => {
    const { rows } = await run([
      { type: 'navigate', url: `${site}/orders` },
      {
        type: 'extract',
        target: [{ by: 'role', role: 'row' }],
        field: 'orders',
        fields: [
          { name: 'amount', part: [{ by: 'column', header: 'Amount' }] },
          { name: 'item', part: [{ by: 'column', header: 'Item' }] },
        ],
      },
    ])
    expect(rows).toEqual([
      { amount: '€24.90', item: 'Kettle' },
      { amount: '€31.00', item: 'Teapot' },
      { amount: '€18.40', item: 'Mugs (4)' },
    ])
  })
})
