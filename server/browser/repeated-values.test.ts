import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeTarget } from '#common/targets.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { findRepeatedValues, repeatedValuesTarget } from './repeated-values.ts'
import { createSharedBrowser } from './shared-browser.ts'
import { createTargetGuard } from './target-guard.ts'
import { resolveTarget } from './target-resolver.ts'

// Repeated values to extract (docs/decisions/024): read the way people read them where the page
// says so — a table's column by its header, a test id they share — with the CSS selector kept as
// the fallback; only values known by nothing but their classes keep the selector alone.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let session: BrowserSession

beforeAll(async () => {
  session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
})
afterAll(async () => {
  await session?.close()
  browsers.release()
  await browsers.close()
})

const ORDERS = (
  cells: (row: string[]) => string,
) => `<h1>Your orders</h1><table><thead><tr><th>Item</th><th>Placed on</th><th>Amount</th></tr></thead><tbody>
${[
  ['Kettle', '2026-03-02', '€24.90'],
  ['Teapot', '2026-03-09', '€31.00'],
  ['Mugs (4)', '2026-03-16', '€18.40'],
]
  .map((row) => `<tr>${cells(row)}</tr>`)
  .join('')}</tbody></table>`

async function targetFor(html: string, words: string) {
  await session.page.setContent(`<!doctype html><html><body>${html}</body></html>`)
  const repeated = await findRepeatedValues(session.page, words)
  if (!repeated) return null
  return { repeated, target: await repeatedValuesTarget(session.page, repeated) }
}

/** What the target reads on the page now, as a run's extract step would. */
async function valuesRead(target: Parameters<typeof resolveTarget>[1]) {
  const resolved = await resolveTarget(session.page, target, { timeoutMs: 2_000, match: 'any' })
  if (!('locator' in resolved)) return null
  return { way: resolved.index, values: await resolved.locator.allInnerTexts() }
}

describe('repeated values', () => {
  it('a column whose header is not the words asked for is read by its header, the CSS behind it', async () => {
    const found = await targetFor(
      ORDERS(([item, date, amount]) => `<td class="it">${item}</td><td class="dt">${date}</td><td class="amt">${amount}</td>`),
      'prices',
    )
    expect(found?.target).toEqual([
      { by: 'column', header: 'Amount' },
      { by: 'css', selector: 'td.amt' },
    ])
    expect(describeTarget(found?.target ?? [])).toBe('Column “Amount” (+1 fallback)')
    // A redesign that moves the column and renames every class still reads the amounts, by their header.
    await session.page.setContent(
      `<table><tr><th>Amount</th><th>Item</th></tr><tr><td class="x9">€24.90</td><td>Kettle</td></tr><tr><td class="x9">€31.00</td><td>Teapot</td></tr></table>`,
    )
    expect(await valuesRead(found?.target ?? [])).toEqual({ way: 0, values: ['€24.90', '€31.00'] })
  })

  it('finds a column of cells that have no classes at all', async () => {
    const found = await targetFor(
      ORDERS(([item, date, amount]) => `<td>${item}</td><td>${date}</td><td>${amount}</td>`),
      'the dates',
    )
    expect(found?.target).toEqual([
      { by: 'column', header: 'Placed on' },
      { by: 'css', selector: 'td:nth-child(2)' },
    ])
    expect(await valuesRead(found?.target ?? [])).toEqual({ way: 0, values: ['2026-03-02', '2026-03-09', '2026-03-16'] })
  })

  it('keeps a header only if it reads exactly the same values (two tables with the same header)', async () => {
    const table = (n: number) =>
      `<table><tr><th>Name</th><th>Price</th></tr><tr><td>A${n}</td><td class="${n === 1 ? 'p' : 'q'}">$${n}.50</td></tr><tr><td>B${n}</td><td class="${n === 1 ? 'p' : 'q'}">$${n}.75</td></tr></table>`
    const found = await targetFor(`<h2>Shop one</h2>${table(1)}<h2>Shop two</h2>${table(2)}`, 'prices')
    // The column "Price" would read both tables: not the values found, so not offered.
    expect(found?.target).toEqual([{ by: 'css', selector: 'td.p' }])
  })

  it('values that share a test id are read by it', async () => {
    const cards = ['Lamp', 'Chair', 'Desk']
      .map((name, index) => `<div class="card"><h3>${name}</h3><span class="pp" data-testid="card-price">$${index + 10}.00</span></div>`)
      .join('')
    const found = await targetFor(`<nav><a href="/">Home</a></nav><div class="grid">${cards}</div>`, 'prices')
    expect(found?.target).toEqual([
      { by: 'testId', id: 'card-price' },
      { by: 'css', selector: 'span.pp' },
    ])
    expect(describeTarget(found?.target ?? [])).toBe('Test id “card-price” (+1 fallback)')
  })

  it('values known only by their classes keep the CSS selector alone', async () => {
    const posts = ['Why tests matter', 'Shipping small']
      .map((title, index) => `<div class="post"><a class="post-link" href="/p/${index}">${title}</a></div>`)
      .join('')
    const found = await targetFor(`<nav><a href="/archive">Archive</a></nav><div class="posts">${posts}</div>`, 'titles of posts')
    expect(found?.target).toEqual([{ by: 'css', selector: 'a.post-link' }])
  })
})

describe('a count beside a list', () => {
  it('is never the values: the counter is left out, the items are read', async () => {
    const todos = ['Buy milk', 'Walk the dog']
      .map((text) => `<li><input type="checkbox" class="toggle"><label>${text}</label></li>`)
      .join('')
    const found = await targetFor(
      `<ul class="todo-list">${todos}</ul><span class="todo-count"><strong>2</strong> items left</span>`,
      'todos',
    )
    expect(found?.repeated.selector).not.toBe('span.todo-count')
  })
})

describe('rows with a modifier class of their own', () => {
  it('hold the same kind of value as their plain siblings: one group, in the page’s order', async () => {
    const rows = [
      ['id', ''],
      ['title', ' required'],
      ['author', ' required'],
      ['year', ''],
    ]
      .map(([name, modifier]) => `<tr class="property-row${modifier}"><td>${name}</td><td>string</td></tr>`)
      .join('')
    const found = await targetFor(`<h4>Book</h4><table class="model"><tbody>${rows}</tbody></table>`, 'property names')
    expect(found?.repeated.count).toBe(4)
    expect((await valuesRead(found?.target ?? []))?.values).toEqual(['id', 'title', 'author', 'year'])
  })
})
