import type { Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { resolveTarget } from '#server/browser/target-resolver.ts'
import { openRecorderPages, type RecorderWindow } from '../recorder/testing/recorder-page.ts'

// The extension runs steps without Playwright: its resolver (resolve-target.ts) reads the page
// itself. These tests resolve the same targets on the same pages with both and expect the same
// answer: the same alternative, the same elements, or the same counts when nothing fits.

type ResolvingWindow = RecorderWindow & { resolved?: Element[] }

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
})
afterAll(async () => {
  await pages?.close()
})

async function inPage(target: Target, match: 'one' | 'any', timeoutMs: number) {
  return pages.page.evaluate(
    async ({ target, match, timeoutMs }) => {
      const view = window as unknown as ResolvingWindow
      const result = await view.aetherRecorder.resolveInPage(document, target, { timeoutMs, match })
      if ('counts' in result) return { counts: result.counts }
      view.resolved = result.elements
      return { index: result.index, count: result.elements.length }
    },
    { target, match, timeoutMs },
  )
}

/** Whether the locator's elements are the ones the in-page resolver found, in order (frames included). */
const sameElements = (locator: Locator) =>
  locator.evaluateAll((elements) => {
    const found = (window.top as ResolvingWindow).resolved ?? []
    return elements.length === found.length && elements.every((element, index) => found[index] === element)
  })

/** Resolves with both and expects the same outcome; returns the in-page one. */
async function expectSame(target: Target, match: 'one' | 'any' = 'one', timeoutMs = 1_200) {
  const [server, page] = [await resolveTarget(pages.page, target, { timeoutMs, match }), await inPage(target, match, timeoutMs)]
  if ('counts' in server) {
    expect(page).toEqual({ counts: server.counts })
  } else {
    expect(page).toEqual({ index: server.index, count: await server.locator.count() })
    expect(await sameElements(server.locator)).toBe(true)
  }
  return page
}

describe('the in-page resolver finds what the server finds', () => {
  it('on a form: by label, role, placeholder, test id, text and CSS', async () => {
    await pages.open('form.html')
    for (const target of [
      [{ by: 'label', text: 'Full name' }],
      [{ by: 'label', text: 'full NAME' }],
      [{ by: 'role', role: 'textbox', name: 'Email address' }],
      [{ by: 'role', role: 'searchbox', name: 'Search the docs' }],
      [{ by: 'role', role: 'button', name: 'Create account' }],
      [{ by: 'role', role: 'combobox', name: 'Plan' }],
      [{ by: 'role', role: 'checkbox', name: 'I accept the terms' }],
      [{ by: 'placeholder', text: 'you@example.com' }],
      [{ by: 'testId', id: 'help-button' }],
      [{ by: 'text', text: 'Open the menu' }],
      [{ by: 'css', selector: '#full-name' }],
    ] satisfies Target[]) {
      expect(await expectSame(target), JSON.stringify(target)).toMatchObject({ index: 0, count: 1 })
    }
  })

  it('every way the recorder names an element, on every test page', async () => {
    const picks: [string, (page: typeof pages.page) => Locator][] = [
      ['form.html', (page) => page.locator('#password')],
      ['form.html', (page) => page.locator('input[name=coupon]')],
      ['table.html', (page) => page.getByRole('button', { name: 'Edit' }).nth(1)],
      ['duplicates.html', (page) => page.locator('#shipping-email')],
      ['shadow.html', (page) => page.getByLabel('Your email')],
      ['shadow.html', (page) => page.getByRole('button', { name: 'Subscribe' })],
      ['frame.html', (page) => page.frameLocator('#payment').getByLabel('Card number')],
      ['frame.html', (page) => page.frameLocator('#payment').getByRole('button', { name: 'Pay' })],
    ]
    for (const [name, pick] of picks) {
      await pages.open(name)
      const target = await pages.choose(pick(pages.page))
      expect(target, name).not.toBeNull()
      for (const alternative of target ?? []) {
        expect(await expectSame([alternative]), JSON.stringify(alternative)).toMatchObject({ index: 0, count: 1 })
      }
    }
  })

  it('counts the same when an alternative finds several elements, none, or cannot be read', async () => {
    await pages.open('duplicates.html')
    const counted = await expectSame([
      { by: 'role', role: 'button', name: 'Save' },
      { by: 'css', selector: '#nowhere' },
      { by: 'css', selector: 'button[' },
    ])
    expect(counted).toMatchObject({ counts: [expect.any(Number), 0, -1] })
    expect((counted as { counts: number[] }).counts[0]).toBeGreaterThan(1)
    // Exactly "Save" still names two buttons; a hidden "Publish" is not counted.
    await expectSame([{ by: 'role', role: 'button', name: 'Save', exact: true }])
    expect(await expectSame([{ by: 'role', role: 'button', name: 'Publish' }])).toMatchObject({ index: 0, count: 1 })
  })

  it('finds the same inside rows, list items, cards, sections, dialogs and forms, next to words, and the nth (version 3)', async () => {
    await pages.open('containers.html')
    const placed: [TargetAlternative, number][] = [
      [{ by: 'role', role: 'button', name: 'Delete', within: { kind: 'row', text: 'Invoice 42' } }, 1],
      [{ by: 'role', role: 'checkbox', within: { kind: 'row', text: 'pay the INVOICE' } }, 1],
      [{ by: 'role', role: 'button', name: 'Delete', within: { kind: 'row', text: 'Invoice 4' } }, 2],
      [{ by: 'role', role: 'button', within: { kind: 'row', text: 'Invoice 99' } }, 0],
      [{ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak' } }, 2],
      [{ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak', exact: true } }, 0],
      [{ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak table', exact: true } }, 1],
      [{ by: 'role', role: 'button', name: 'Add to cart', within: { kind: 'card', text: 'Pine chair' } }, 1],
      [{ by: 'role', role: 'button', name: 'Remove', within: { kind: 'item', text: 'Pears' } }, 1],
      [{ by: 'role', role: 'button', name: 'Remove', within: { kind: 'item', text: 'Groceries' } }, 2],
      [{ by: 'role', role: 'link', within: { kind: 'section', text: 'Filters' } }, 3],
      [{ by: 'role', role: 'link', nth: 2, within: { kind: 'section', text: 'Filters' } }, 1],
      [{ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog' } }, 1],
      [{ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog', text: 'confirm the payment' } }, 1],
      [{ by: 'placeholder', text: 'Name', within: { kind: 'form', text: 'Billing' } }, 1],
      [{ by: 'placeholder', text: 'Name', within: { kind: 'form' } }, 2],
      [{ by: 'role', role: 'checkbox', within: { kind: 'near', text: 'Water the plants' } }, 1],
      [{ by: 'role', role: 'checkbox', within: { kind: 'near', text: 'Pay the invoice' } }, 1],
      [{ by: 'text', text: 'Edit', within: { kind: 'near', text: 'Call the bank' } }, 1],
      [{ by: 'role', role: 'button', name: 'Delete', nth: 3 }, 1],
      [{ by: 'role', role: 'button', name: 'Delete', nth: 4 }, 0],
    ]
    for (const [alternative, count] of placed) {
      const found = await expectSame([alternative], 'any')
      expect(found, JSON.stringify(alternative)).toEqual(count ? { index: 0, count } : { counts: [0] })
    }
    // Ambiguous for a step: two rows show “Invoice 4”.
    expect(await expectSame([placed[2]?.[0] as TargetAlternative], 'one', 300)).toEqual({ counts: [2] })
  })

  it('finds every cell of a column and every match of a loose word, for extraction', async () => {
    await pages.open('table.html')
    const cells = await expectSame([{ by: 'column', header: 'total' }], 'any')
    expect(cells).toMatchObject({ index: 0 })
    expect((cells as { count: number }).count).toBeGreaterThan(1)
    await expectSame([{ by: 'role', role: 'button', name: 'Edit' }], 'any')
    await expectSame([{ by: 'xpath', path: '//tbody/tr' }], 'any')
  })

  it('lets a later alternative stand in only after the first had its time, and waits for late elements', async () => {
    await pages.open('form.html')
    expect(
      await expectSame(
        [
          { by: 'css', selector: '#gone' },
          { by: 'label', text: 'Full name' },
        ],
        'one',
        3_000,
      ),
    ).toMatchObject({
      index: 1,
      count: 1,
    })
    await pages.page.evaluate(() =>
      setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<button type="button">Arrived late</button>'), 400),
    )
    const started = Date.now()
    const late = await inPage([{ by: 'role', role: 'button', name: 'Arrived late' }], 'one', 3_000)
    expect(late).toEqual({ index: 0, count: 1 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(300)
  })
})
