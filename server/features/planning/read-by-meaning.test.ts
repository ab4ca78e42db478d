import { describe, expect, it } from 'vitest'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'
import { eachOf, shapedPart, textOfThing, textUnderHeading, valueByMeaning } from './read-by-meaning.ts'

// Questions about a value ('how much is due'), a thing's text ('its ingredients') and lists of
// things ('A and B'), answered from a page's snapshot as the offline planner sees it.

let ref = 0
const text = (words: string, more: Partial<SnapshotElement> = {}): SnapshotElement => ({
  role: null,
  name: '',
  label: null,
  placeholder: null,
  text: words,
  testId: null,
  hint: null,
  tag: 'div',
  type: null,
  interactive: false,
  value: null,
  options: null,
  box: { x: 20, y: (ref + 1) * 30, width: 400, height: 20 },
  within: [],
  ref: ++ref,
  target: [{ by: 'text', text: words }],
  checked: false,
  ...more,
})

const MAIL = [
  text('Marathon training plan To: team@example.com', { role: 'link', tag: 'a', interactive: true }),
  text('Your March invoice'),
  text('From:'),
  text('Billing <billing@power.example>'),
  text('To:'),
  text('me@example.com'),
  text('Please return Wildwood is due back soon'),
  text('Amount due: 64.20 EUR, by 14 April.'),
]

describe('a value read by what the question means', () => {
  it.each([
    ['how much is due', 'Amount due: 64.20 EUR, by 14 April.'],
    ['who it was sent to', 'me@example.com'],
    ['who sent it', 'Billing <billing@power.example>'],
    ['the date it is due', 'Amount due: 64.20 EUR, by 14 April.'],
  ])('%s: %s', (question, answer) => {
    expect(valueByMeaning(question, MAIL)?.text).toBe(answer)
  })

  it('finds nothing when no text carries the words or what they stand for', () => {
    expect(valueByMeaning('the colour of the sky', MAIL)).toBeNull()
  })

  it('never reads a link or a button as the value', () => {
    expect(valueByMeaning('the marathon training plan', MAIL)).toBeNull()
  })

  it("reads 'the order number' as a number standing alone, not a count in braces beside the word", () => {
    const page = [
      text('Order 1042', { role: 'heading', tag: 'h1' }),
      text('order', { tag: 'td', box: { x: 20, y: 100, width: 60, height: 20 } }),
      text('{6}', { tag: 'td', box: { x: 90, y: 100, width: 60, height: 20 } }),
    ]
    expect(valueByMeaning('the top-level order number', page)?.text).toBe('Order 1042')
    expect(valueByMeaning('the number of orders', page)?.text).not.toBe('Order 1042')
  })

  it('reads a path inside a control’s words, which a number or a name there never is', () => {
    const page = [
      text('GET /loans List loans', { role: 'button', tag: 'button', interactive: true }),
      text('loans Who has borrowed what', { role: 'heading', tag: 'h3' }),
    ]
    expect(valueByMeaning('the loans endpoint path', page)?.text).toBe('GET /loans List loans')
    expect(shapedPart('the loans endpoint path', 'GET /loans List loans')).toBe('/loans')
    expect(shapedPart('the loans endpoint path', 'loans Who has borrowed what')).toBeNull()
  })
})

describe("a thing's text", () => {
  it('names the thing: its words, or the thing opened last', () => {
    expect(textOfThing('the text of the Welcome note', null)).toBe('Welcome')
    expect(textOfThing('its ingredients', 'Pancakes')).toBe('Pancakes')
    expect(textOfThing('its ingredients', null)).toBeNull()
    expect(textOfThing('the prices', 'Pancakes')).toBeNull()
  })

  it('is the longest text under its heading in its column, before the next heading', () => {
    const page = [
      text('Pancakes', { role: 'heading', tag: 'h2' }),
      text('a walker’s notebook and more', { box: { x: 900, y: 40, width: 200, height: 20 } }),
      text('Recipe'),
      text('200 g flour, 2 eggs, 300 ml milk, a pinch of salt.'),
      text('Flapjacks', { role: 'heading', tag: 'h2' }),
      text('250 g oats, 125 g butter, 125 g golden syrup and a long list of more.'),
    ]
    expect(textUnderHeading('pancakes', page)?.text).toBe('200 g flour, 2 eggs, 300 ml milk, a pinch of salt.')
    expect(textUnderHeading('Porridge', page)).toBeNull()
  })
})

describe('several things named at once', () => {
  it.each([
    ['the Reading list and the Packing list from the Welcome note', ['the Reading list', 'the Packing list']],
    ['Home, About and Contact', ['Home', 'About', 'Contact']],
    ['Pancakes', ['Pancakes']],
  ])('%s', (words, parts) => {
    expect(eachOf(words)).toEqual(parts)
  })
})
