import type { Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAlternative, type Target, type TargetAlternative } from '#common/targets.ts'
import { locatorFor, resolveTarget } from '#server/browser/target-resolver.ts'
import { openRecorderPages, type RecorderWindow } from './testing/recorder-page.ts'

// The recorder names elements in the page itself; the runners find them with Playwright's
// locators (server/browser/target-resolver.ts). These tests load the recorder into real pages and
// check both: the target it chooses, best way first, and that the server finds exactly that
// element with every way of it.

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
})
afterAll(async () => {
  await pages?.close()
})

/** The recorder's target for the element, checked: every way finds exactly it, and the runner uses the first. */
async function targetFor(locator: Locator): Promise<Target> {
  const target = await pages.choose(locator)
  if (!target) throw new Error('the recorder named no target')
  for (const alternative of target) {
    const found = locatorFor(pages.page, alternative)
    expect(await found.count(), describeAlternative(alternative)).toBe(1)
    expect(
      await found.evaluate((element) => element === (window as unknown as RecorderWindow).picked),
      describeAlternative(alternative),
    ).toBe(true)
  }
  const resolved = await resolveTarget(pages.page, target, { timeoutMs: 2_000, match: 'one' })
  expect('index' in resolved && resolved.index).toBe(0)
  return target
}

const kinds = (target: Target) => target.map((alternative) => alternative.by)
const css = (target: Target) =>
  target.find((alternative): alternative is Extract<TargetAlternative, { by: 'css' }> => alternative.by === 'css')

describe('the target the recorder chooses', () => {
  it('names a form’s fields by label, then role and placeholder, with the CSS path last', async () => {
    await pages.open('form.html')
    const { page } = pages
    expect(await targetFor(page.locator('#full-name'))).toEqual([
      { by: 'label', text: 'Full name' },
      { by: 'role', role: 'textbox', name: 'Full name' },
      { by: 'placeholder', text: 'Ada Lovelace' },
      { by: 'css', selector: '#full-name' },
    ])
    const email = await targetFor(page.locator('input[name=email]'))
    expect(email.slice(0, 3)).toEqual([
      { by: 'label', text: 'Email address' },
      { by: 'role', role: 'textbox', name: 'Email address' },
      { by: 'placeholder', text: 'you@example.com' },
    ])
    expect(kinds(email).at(-1)).toBe('css')
    expect((await targetFor(page.locator('input[type=search]')))[0]).toEqual({ by: 'role', role: 'searchbox', name: 'Search the docs' })
    expect((await targetFor(page.locator('input[name=coupon]'))).slice(0, 2)).toEqual([
      { by: 'role', role: 'textbox', name: 'Coupon code' },
      { by: 'placeholder', text: 'Coupon code' },
    ])
    expect((await targetFor(page.locator('#password')))[0]).toEqual({ by: 'label', text: 'Password' })
    expect((await targetFor(page.locator('#plan'))).slice(0, 2)).toEqual([
      { by: 'label', text: 'Plan' },
      { by: 'role', role: 'combobox', name: 'Plan' },
    ])
    expect((await targetFor(page.locator('#notes')))[0]).toEqual({ by: 'label', text: 'Notes' })
    expect((await targetFor(page.locator('input[name=terms]'))).slice(0, 2)).toEqual([
      { by: 'label', text: 'I accept the terms' },
      { by: 'role', role: 'checkbox', name: 'I accept the terms' },
    ])
  })

  it('names buttons by role and name, then test id; plain boxes by their text', async () => {
    await pages.open('form.html')
    const { page } = pages
    const help = await targetFor(page.getByTestId('help-button'))
    expect(help.slice(0, 2)).toEqual([
      { by: 'role', role: 'button', name: 'Help' },
      { by: 'testId', id: 'help-button' },
    ])
    expect(kinds(help)).toEqual(['role', 'testId', 'css'])
    expect((await targetFor(page.locator('button[type=submit]')))[0]).toEqual({ by: 'role', role: 'button', name: 'Create account' })
    expect((await targetFor(page.locator('.menu-item span')))[0]).toEqual({ by: 'text', text: 'Open the menu' })
  })

  it('names one row’s button in a table by its own name, and by its row when every row says the same', async () => {
    await pages.open('table.html')
    const { page } = pages
    expect((await targetFor(page.getByRole('button', { name: 'Delete the order of Grace' })))[0]).toEqual({
      by: 'role',
      role: 'button',
      name: 'Delete the order of Grace',
    })
    // Three buttons say "Edit": its own words name none of them, so its row does (version 3), its place last.
    const edit = await targetFor(page.getByRole('button', { name: 'Edit' }).nth(1))
    expect(edit[0]).toEqual({ by: 'role', role: 'button', name: 'Edit', within: { kind: 'row', text: 'Grace' } })
    expect(kinds(edit)).toEqual(['role', 'css'])
    expect(css(edit)?.selector).toContain('tr:nth-of-type(2)')
    expect((await targetFor(page.getByRole('link', { name: 'Details' }).nth(2)))[0]).toEqual({
      by: 'role',
      role: 'link',
      name: 'Details',
      within: { kind: 'row', text: 'Linus' },
    })
    // The cell of the row's buttons is named by them too ('… Delete the order of Grace …'): "Grace" alone is exact.
    expect((await targetFor(page.getByRole('cell', { name: 'Grace', exact: true })))[0]).toEqual({
      by: 'role',
      role: 'cell',
      name: 'Grace',
      exact: true,
    })
  })

  it('uses the exact words when looser ones find more, and skips words that find several elements', async () => {
    await pages.open('duplicates.html')
    const { page } = pages
    // "Save" is part of four names and the whole of two: only the place names each.
    expect(kinds(await targetFor(page.getByRole('button', { name: 'Save', exact: true }).first()))).toEqual(['css'])
    expect(kinds(await targetFor(page.getByRole('button', { name: 'Save draft' }).first()))).toEqual(['css'])
    // Two fields labelled "Email": the one with a placeholder is named by it, the other by its id.
    expect(await targetFor(page.locator('#billing-email'))).toEqual([{ by: 'css', selector: '#billing-email' }])
    expect(await targetFor(page.locator('#shipping-email'))).toEqual([
      { by: 'placeholder', text: 'Where we send it' },
      { by: 'css', selector: '#shipping-email' },
    ])
    // A hidden button with the same name does not count, as it does not for the runners.
    expect((await targetFor(page.getByRole('button', { name: 'Publish' })))[0]).toEqual({ by: 'role', role: 'button', name: 'Publish' })
  })

  it('prefers the exact words when the loose ones also find a longer name', async () => {
    await pages.open('duplicates.html')
    await pages.page.evaluate(() => document.querySelector('header')?.remove())
    expect((await targetFor(pages.page.getByRole('button', { name: 'Save', exact: true })))[0]).toEqual({
      by: 'role',
      role: 'button',
      name: 'Save',
      exact: true,
    })
  })

  it('names elements inside open shadow roots, nested ones included', async () => {
    await pages.open('shadow.html')
    const { page } = pages
    const email = await targetFor(page.getByLabel('Your email'))
    expect(email[0]).toEqual({ by: 'label', text: 'Your email' })
    expect(kinds(email).at(-1)).toBe('css')
    const subscribe = await targetFor(page.getByRole('button', { name: 'Subscribe' }))
    expect(subscribe[0]).toEqual({ by: 'role', role: 'button', name: 'Subscribe' })
    expect(css(subscribe)?.selector).toContain('fancy-button > button')
  })

  it('names elements in a frame of the same site by a path into the frame', async () => {
    await pages.open('frame.html')
    const { page } = pages
    const frame = page.frameLocator('#payment')
    const card = await targetFor(frame.getByLabel('Card number'))
    expect(card[0]).toEqual({ by: 'css', selector: '#payment >> internal:control=enter-frame >> internal:label="Card number"i' })
    const pay = await targetFor(frame.getByRole('button', { name: 'Pay' }))
    expect(pay[0]).toEqual({ by: 'css', selector: '#payment >> internal:control=enter-frame >> internal:role=button[name="Pay"i]' })
    // The page's own "Pay" button is named as usual: the frame's is not on the page itself.
    expect((await targetFor(page.getByRole('button', { name: 'Pay' })))[0]).toEqual({ by: 'role', role: 'button', name: 'Pay' })
  })
  it('names an element whose own words repeat by its row, list item, card or the words next to it (version 3)', async () => {
    await pages.open('containers.html')
    const { page } = pages
    expect((await targetFor(page.locator('tbody tr:nth-of-type(2) input')))[0]).toEqual({
      by: 'role',
      role: 'checkbox',
      within: { kind: 'row', text: 'Invoice 42' },
    })
    expect((await targetFor(page.getByRole('button', { name: 'Delete' }).nth(2)))[0]).toEqual({
      by: 'role',
      role: 'button',
      name: 'Delete',
      within: { kind: 'row', text: 'Invoice 57' },
    })
    expect((await targetFor(page.getByRole('checkbox').nth(3)))[0]).toEqual({
      by: 'role',
      role: 'checkbox',
      within: { kind: 'item', text: 'Water the plants' },
    })
    const cart = await targetFor(page.getByRole('button', { name: 'Add to cart' }).nth(1))
    expect(cart[0]).toEqual({ by: 'role', role: 'button', name: 'Add to cart', within: { kind: 'card', text: 'Pine chair' } })
    expect(kinds(cart).at(-1)).toBe('css')
    // Its own words still lead when they single it out; no container then.
    expect(await targetFor(page.getByRole('link', { name: 'Blue' }))).not.toContainEqual(
      expect.objectContaining({ within: expect.anything() }),
    )
  })
})
