import { describe, expect, it } from 'vitest'
import { readElementPhrase } from './element-match.ts'

describe('phrases that say where an element sits', () => {
  it('read the container, its words and the element', () => {
    expect(readElementPhrase('Delete in the row for invoice 42')).toMatchObject({
      words: 'Delete',
      within: { kind: 'row', text: 'invoice 42' },
    })
    expect(readElementPhrase('the checkbox next to Pay the invoice')).toEqual({
      words: '',
      roles: ['checkbox', 'switch'],
      quoted: false,
      within: { kind: 'near', text: 'Pay the invoice' },
    })
    expect(readElementPhrase('the price in the card “Oak table”')).toMatchObject({
      words: 'price',
      within: { kind: 'card', text: 'Oak table' },
    })
    expect(readElementPhrase('Remove in the list item for Pears')).toMatchObject({
      words: 'Remove',
      within: { kind: 'item', text: 'Pears' },
    })
    expect(readElementPhrase('the OK button in the dialog')).toMatchObject({ words: 'OK', roles: ['button'], within: { kind: 'dialog' } })
    expect(readElementPhrase('Name in the Billing form')).toMatchObject({ words: 'Name', within: { kind: 'form', text: 'Billing' } })
    expect(readElementPhrase('Delete in the Invoice 42 row')).toMatchObject({
      words: 'Delete',
      within: { kind: 'row', text: 'Invoice 42' },
    })
    expect(readElementPhrase('the Red link under the heading Filters')).toMatchObject({
      words: 'Red',
      roles: ['link'],
      within: { kind: 'section', text: 'Filters' },
    })
  })

  it('read a position among several', () => {
    expect(readElementPhrase('the 2nd Edit link')).toEqual({ words: 'Edit', roles: ['link'], quoted: false, nth: 2 })
    expect(readElementPhrase('the third link in the section Filters')).toMatchObject({
      words: '',
      roles: ['link'],
      nth: 3,
      within: { kind: 'section', text: 'Filters' },
    })
  })

  it('leave phrases that name no container as they were', () => {
    expect(readElementPhrase('the Sign in button')).toEqual({ words: 'Sign in', roles: ['button'], quoted: false })
    expect(readElementPhrase('the first name field')).toEqual({
      words: 'first name',
      roles: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
      quoted: false,
    })
    expect(readElementPhrase('Log in')).toEqual({ words: 'Log in', roles: [], quoted: false })
    expect(readElementPhrase('the Sign in box').within).toBeUndefined()
  })
})
