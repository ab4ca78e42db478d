import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { openRecorderPages } from '../../extension/src/recorder/testing/recorder-page.ts'
import { snapshotPage } from './page-snapshot.ts'
import { locatorFor, resolveTarget } from './target-resolver.ts'

// Ways that name the row, list item, card, section, dialog or form an element sits in, and its
// position (docs/decisions/042), found with Playwright on a real page of repeated rows and cards.

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
  await pages.open('containers.html')
})
afterAll(async () => {
  await pages?.close()
})

const count = (alternative: TargetAlternative) => locatorFor(pages.page, alternative).count()
/** What the one element found shows: its text, or the text around it. */
const around = (alternative: TargetAlternative, container = 'tr, li') =>
  locatorFor(pages.page, alternative).evaluate((element, selector) => (element.closest(selector) as HTMLElement).innerText, container)

describe('ways that say where the element sits', () => {
  it('find the one button of a row among identical ones, and the unlabelled checkbox of a row', async () => {
    expect(await count({ by: 'role', role: 'button', name: 'Delete' })).toBe(3)
    const deleteOf42: TargetAlternative = { by: 'role', role: 'button', name: 'Delete', within: { kind: 'row', text: 'Invoice 42' } }
    expect(await count(deleteOf42)).toBe(1)
    expect(await around(deleteOf42)).toContain('Pay the invoice')
    const tick: TargetAlternative = { by: 'role', role: 'checkbox', within: { kind: 'row', text: 'pay the INVOICE' } }
    expect(await count(tick)).toBe(1)
    await locatorFor(pages.page, tick).check()
    expect(await pages.page.locator('tbody tr:nth-of-type(2) input').isChecked()).toBe(true)
  })

  it('count every element when the text fits two containers: ambiguous, not the first', async () => {
    expect(await count({ by: 'role', role: 'button', name: 'Delete', within: { kind: 'row', text: 'Invoice 4' } })).toBe(2)
    expect(await count({ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak' } })).toBe(2)
    expect(await count({ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak', exact: true } })).toBe(0)
    expect(await count({ by: 'role', role: 'button', within: { kind: 'card', text: 'Oak table', exact: true } })).toBe(1)
    // A hidden row's button is not counted; a row without the text gives nothing.
    expect(await count({ by: 'role', role: 'button', within: { kind: 'row', text: 'Invoice 99' } })).toBe(0)
    const result = await resolveTarget(pages.page, [{ by: 'role', role: 'button', within: { kind: 'row', text: 'Invoice 4' } }], {
      timeoutMs: 300,
      match: 'one',
    })
    expect(result).toEqual({ counts: [2] })
  })

  it('find the smallest card, list item, section, dialog and form that hold the text and the element', async () => {
    const card: TargetAlternative = { by: 'role', role: 'button', name: 'Add to cart', within: { kind: 'card', text: 'Pine chair' } }
    expect(await count(card)).toBe(1)
    expect(await around(card, '.card')).toContain('$45')
    // The inner list item, not the item around the inner list.
    expect(await count({ by: 'role', role: 'button', name: 'Remove', within: { kind: 'item', text: 'Pears' } })).toBe(1)
    expect(await count({ by: 'role', role: 'button', name: 'Remove', within: { kind: 'item', text: 'Groceries' } })).toBe(2)
    expect(await count({ by: 'role', role: 'link', within: { kind: 'item', text: 'Call the bank' } })).toBe(1)
    expect(await count({ by: 'role', role: 'link', within: { kind: 'section', text: 'Filters' } })).toBe(3)
    expect(await count({ by: 'role', role: 'button', name: 'OK' })).toBe(2)
    expect(await count({ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog' } })).toBe(1)
    expect(await count({ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog', text: 'Pay now' } })).toBe(1)
    expect(await count({ by: 'placeholder', text: 'Name', within: { kind: 'form', text: 'Billing' } })).toBe(1)
    expect(await count({ by: 'role', role: 'button', name: 'OK', within: { kind: 'dialog', text: 'confirm the payment' } })).toBe(1)
    expect(await count({ by: 'placeholder', text: 'Name', within: { kind: 'form' } })).toBe(2)
  })

  it('find an unlabelled control next to the words of its line', async () => {
    const next: TargetAlternative = { by: 'role', role: 'checkbox', within: { kind: 'near', text: 'Water the plants' } }
    expect(await count(next)).toBe(1)
    expect(await around(next)).toContain('Water the plants')
    expect(await count({ by: 'role', role: 'checkbox', within: { kind: 'near', text: 'Pay the invoice' } })).toBe(1)
    expect(await count({ by: 'role', role: 'link', within: { kind: 'near', text: 'Call the bank' } })).toBe(1)
  })

  it('find the nth of the matches, from 1', async () => {
    const second: TargetAlternative = { by: 'role', role: 'link', nth: 2, within: { kind: 'section', text: 'Filters' } }
    expect(await count(second)).toBe(1)
    expect(await locatorFor(pages.page, second).textContent()).toBe('Blue')
    expect(
      await locatorFor(pages.page, { by: 'role', role: 'button', name: 'Delete', nth: 3 }).evaluate(
        (button) => button.closest('tr')?.innerText,
      ),
    ).toContain('Invoice 57')
    // The hidden row's button is not among the matches.
    expect(await count({ by: 'role', role: 'button', name: 'Delete', nth: 4 })).toBe(0)
  })

  it('run version 2 targets as before', async () => {
    const v2: Target = [
      { by: 'role', role: 'button', name: 'Delete' },
      { by: 'css', selector: 'tbody tr:nth-of-type(3) button' },
    ]
    const result = await resolveTarget(pages.page, v2, { timeoutMs: 600, match: 'one' })
    expect('index' in result && result.index).toBe(1)
    expect(await count({ by: 'text', text: 'Pay the invoice' })).toBe(1)
  })
})

describe('suggested targets for elements whose own words repeat', () => {
  it('name them by their row, list item, card or the words next to them, checked to find exactly them', async () => {
    await pages.open('containers.html')
    const snapshot = await snapshotPage(pages.page)
    const leads = snapshot.elements.filter((element) => element.interactive).map((element) => element.target[0])
    expect(leads).toContainEqual({ by: 'role', role: 'checkbox', within: { kind: 'row', text: 'Invoice 42' } })
    expect(leads).toContainEqual({ by: 'role', role: 'button', name: 'Delete', within: { kind: 'row', text: 'Invoice 57' } })
    expect(leads).toContainEqual({ by: 'role', role: 'checkbox', within: { kind: 'item', text: 'Water the plants' } })
    expect(leads).toContainEqual({ by: 'role', role: 'link', name: 'Edit', within: { kind: 'item', text: 'Call the bank' } })
    expect(leads).toContainEqual({ by: 'role', role: 'button', name: 'Remove', within: { kind: 'item', text: 'Pears' } })
    expect(leads).toContainEqual({ by: 'role', role: 'button', name: 'Add to cart', within: { kind: 'card', text: 'Pine chair' } })
    // Words of its own still come first when they single it out.
    expect(leads).toContainEqual({ by: 'role', role: 'link', name: 'Blue' })
    for (const element of snapshot.elements.filter((candidate) => candidate.interactive)) {
      // Checking stops after a few seconds on a busy machine; what was checked must hold.
      if (!element.checked) continue
      const lead = element.target[0] as TargetAlternative
      expect(await count(lead), JSON.stringify(lead)).toBe(1)
      expect(JSON.stringify(element.target.slice(1)), 'ways by where it sits only when they lead').not.toContain(
        'within' in lead ? 'nothing' : '"within"',
      )
    }
  })
})
