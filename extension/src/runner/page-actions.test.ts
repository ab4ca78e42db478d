import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRecorderPages, type RecorderWindow } from '../recorder/testing/recorder-page.ts'
import type { PageStep } from './page-actions.ts'

// The steps the extension performs in the page itself, in real Chromium on the recorder's test pages.

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
})
afterAll(async () => {
  await pages?.close()
})

const perform = (step: PageStep, timeoutMs = 1_000) =>
  pages.page.evaluate(
    ({ step, timeoutMs }) => (window as unknown as RecorderWindow).aetherRecorder.performInPage(document, step, timeoutMs),
    { step, timeoutMs },
  )

describe('performing steps in the page', () => {
  it('types, selects, clicks, presses and reads as the cloud does', async () => {
    await pages.open('form.html')
    const { page } = pages
    expect(await perform({ type: 'type', target: [{ by: 'label', text: 'Full name' }], text: 'Grace Hopper' })).toEqual({ ok: true })
    expect(await page.locator('#full-name').inputValue()).toBe('Grace Hopper')
    expect(await perform({ type: 'select', target: [{ by: 'label', text: 'Plan' }], value: 'Business' })).toEqual({ ok: true })
    expect(await page.locator('#plan').inputValue()).toBe('Business')
    expect(await perform({ type: 'click', target: [{ by: 'label', text: 'I accept the terms' }] })).toEqual({ ok: true })
    expect(await page.locator('input[name=terms]').isChecked()).toBe(true)
    expect(await perform({ type: 'click', target: [{ by: 'text', text: 'Open the menu' }] })).toEqual({ ok: true })
    expect(await page.locator('.menu-item').getAttribute('data-clicked')).toBe('yes')
    expect(await perform({ type: 'extract', target: [{ by: 'css', selector: 'label' }], field: 'labels' })).toMatchObject({
      ok: true,
      values: expect.arrayContaining(['Full name', 'Plan']),
    })
    expect(await perform({ type: 'extract', target: [{ by: 'label', text: 'Full name' }], field: 'name', attribute: 'value' })).toEqual({
      ok: true,
      values: ['Grace Hopper'],
    })
    expect(await perform({ type: 'press', target: [{ by: 'label', text: 'Full name' }], key: 'Enter' })).toEqual({ ok: true })
    expect(await perform({ type: 'assertText', text: 'Account created' })).toEqual({ ok: true })
  })

  it('answers why a step failed, as a failure onError may retry', async () => {
    await pages.open('form.html')
    expect(await perform({ type: 'click', target: [{ by: 'role', role: 'button', name: 'Nowhere' }] }, 300)).toEqual({
      ok: false,
      failure: true,
      error: 'no element matches Button named “Nowhere” within 0.3 s',
    })
    expect(await perform({ type: 'select', target: [{ by: 'label', text: 'Plan' }], value: 'Gold' })).toEqual({
      ok: false,
      failure: true,
      error: 'Field labelled “Plan” has no option "Gold"',
    })
    expect(await perform({ type: 'assertText', text: 'Welcome aboard' }, 300)).toMatchObject({
      ok: false,
      failure: true,
      error: 'the page does not show "Welcome aboard" (waited 0.3 s)',
    })
  })

  it('reads rows as records by column header, as the cloud does, and says when there is no next page', async () => {
    await pages.open('table.html')
    expect(
      await perform({
        type: 'extract',
        target: [{ by: 'role', role: 'row' }],
        field: 'orders',
        fields: [
          { name: 'total', part: [{ by: 'column', header: 'Total' }] },
          { name: 'who', part: [{ by: 'column', header: 'Customer' }] },
          { name: 'link', part: [{ by: 'role', role: 'link' }], attribute: 'href' },
        ],
      }),
    ).toEqual({
      ok: true,
      records: [
        { total: '42.00', who: 'Ada', link: `${new URL(pages.page.url()).origin}/table.html#ada` },
        { total: '17.50', who: 'Grace', link: `${new URL(pages.page.url()).origin}/table.html#grace` },
        { total: '9.99', who: 'Linus', link: `${new URL(pages.page.url()).origin}/table.html#linus` },
      ],
    })
    expect(await perform({ type: 'nextPage', next: [{ by: 'role', role: 'link', name: 'Next' }] })).toEqual({ ok: true, moved: false })
  })

  it('sets and checks boxes, hovers, double-clicks, clears, counts and waits for things to go, as the cloud does', async () => {
    await pages.open('verbs.html')
    const { page } = pages
    const label = (text: string) => [{ by: 'label' as const, text }]
    const dark = [{ by: 'role' as const, role: 'switch' as const, name: 'Dark mode' }]
    expect(await perform({ type: 'check', target: label('Remember me'), checked: true })).toEqual({ ok: true })
    expect(await perform({ type: 'check', target: label('Remember me'), checked: true })).toEqual({ ok: true })
    expect(await page.locator('#remember').isChecked()).toBe(true)
    expect(await perform({ type: 'check', target: label('Newsletter'), checked: false })).toEqual({ ok: true })
    expect(await page.locator('#news').isChecked()).toBe(false)
    expect(await perform({ type: 'check', target: dark, checked: true })).toEqual({ ok: true })
    expect(await page.locator('#dark').getAttribute('aria-checked')).toBe('true')
    expect(await perform({ type: 'assertChecked', target: dark, checked: true })).toEqual({ ok: true })
    expect(await perform({ type: 'assertChecked', target: label('Newsletter'), checked: true }, 300)).toEqual({
      ok: false,
      failure: true,
      error: 'Field labelled “Newsletter” is not ticked (waited 0.3 s)',
    })
    expect(await perform({ type: 'check', target: label('City'), checked: true })).toEqual({
      ok: false,
      failure: true,
      error: 'Field labelled “City” is not a checkbox, radio button or switch',
    })
    expect(await perform({ type: 'hover', target: [{ by: 'role', role: 'button', name: 'Account' }] })).toEqual({ ok: true })
    expect(await page.getByText('Sign out').isVisible()).toBe(true)
    expect(await perform({ type: 'doubleClick', target: [{ by: 'text', text: 'Quarterly report' }] })).toEqual({ ok: true })
    expect(await page.locator('#title').textContent()).toBe('Editing the title')
    expect(await perform({ type: 'clear', target: label('City') })).toEqual({ ok: true })
    expect(await page.locator('#city').inputValue()).toBe('')
    expect(await perform({ type: 'type', target: label('Start date'), text: '5 December 2026' })).toEqual({ ok: true })
    expect(await page.locator('#start').inputValue()).toBe('2026-12-05')
    expect(await perform({ type: 'select', target: label('Country'), value: 'france ' })).toEqual({ ok: true })
    expect(await page.locator('#country').inputValue()).toBe('fr')
    expect(await perform({ type: 'assertCount', target: [{ by: 'css', selector: '.row' }], count: 3 })).toEqual({ ok: true })
    expect(await perform({ type: 'assertCount', target: [{ by: 'css', selector: '.row' }], count: 2 }, 300)).toEqual({
      ok: false,
      failure: true,
      error: 'Element (found by the page’s structure) matches 3 elements, not 2 (waited 0.3 s)',
    })
    expect(await perform({ type: 'wait', target: [{ by: 'text', text: 'Loading…' }], gone: true })).toEqual({ ok: true })
    expect(await perform({ type: 'assertText', text: 'Loading…', absent: true })).toEqual({ ok: true })
    expect(await perform({ type: 'assertText', text: 'Remember me', absent: true }, 300)).toEqual({
      ok: false,
      failure: true,
      error: 'the page still shows "Remember me" (waited 0.3 s)',
    })
  })
})

describe('typing a vault value in the page', () => {
  it('types it only into a form field of the secret’s own sites, and masks that field while a screenshot is taken', async () => {
    await pages.open('form.html')
    const { page } = pages
    const origin = new URL(page.url()).origin
    const step = (origins: string[]): PageStep => ({
      type: 'type',
      target: [{ by: 'label', text: 'Full name' }],
      text: 'Ada Lovelace',
      typing: { placeholders: ['{{secrets.full_name}}'], origins, unconfirmed: [] },
    })
    expect(await perform(step(['https://shop.example.com']))).toEqual({
      ok: false,
      failure: true,
      error: `{{secrets.full_name}} may only be typed on https://shop.example.com; the field is on a page of ${origin} (the value was not typed)`,
    })
    expect(await page.locator('#full-name').inputValue()).toBe('')
    expect(await perform(step([origin]))).toEqual({ ok: true })
    expect(await page.locator('#full-name').inputValue()).toBe('Ada Lovelace')

    const mask = (on: boolean) =>
      page.evaluate((on) => (window as unknown as RecorderWindow).aetherRecorder.maskSecretFields(document, on), on)
    await mask(true)
    expect(await page.locator('#full-name').evaluate((field) => getComputedStyle(field).color)).toBe('rgba(0, 0, 0, 0)')
    await mask(false)
    expect(await page.locator('#full-name').getAttribute('data-aether-masked')).toBeNull()
  })
})
