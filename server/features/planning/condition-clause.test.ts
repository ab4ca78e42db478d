import { describe, expect, it } from 'vitest'
import { parseSteps } from '#common/automation-steps.ts'
import { guardSteps, skipsOutsideLoops } from './condition-clause.ts'
import { readInstructions } from './instructions.ts'

const read = (text: string) =>
  readInstructions(text).map((entry) => ('instruction' in entry ? entry.instruction : { unread: entry.unread }))

describe('conditions said in words', () => {
  it.each([
    ['If the page shows "Out of stock", skip it', { when: 'textShown', text: 'Out of stock', then: 'skip' }],
    ["if it says 'Sold out' then go on to the next row", { when: 'textShown', text: 'Sold out', then: 'skip' }],
    ['When “No results” is shown, stop.', { when: 'textShown', text: 'No results', then: 'succeed' }],
    [
      'If the page does not show "Welcome back", stop the run as failed with "Not signed in"',
      { when: 'textNotShown', text: 'Welcome back', then: 'fail', message: 'Not signed in' },
    ],
    ['Unless the page says "In stock", skip this product', { when: 'textNotShown', text: 'In stock', then: 'skip' }],
    ['if "Error" appears, fail', { when: 'textShown', text: 'Error', then: 'fail' }],
    ['If there is no "Next", stop', { when: 'textNotShown', text: 'Next', then: 'succeed' }],
  ])('%s', (sentence, guard) => {
    expect(read(sentence)).toEqual([{ kind: 'guard', guard }])
  })

  it('keeps its place among the other steps; "otherwise" is the steps after it', () => {
    expect(read('Open https://shop.example/item. If the page shows "Out of stock", skip it. Otherwise, click "Add to cart".')).toEqual([
      { kind: 'navigate', url: 'https://shop.example/item' },
      { kind: 'guard', guard: { when: 'textShown', text: 'Out of stock', then: 'skip' } },
      { kind: 'click', element: 'Add to cart' },
    ])
  })

  it('is not read without a quoted text', () => {
    expect(read('If the page shows an error, skip it')).not.toContainEqual(expect.objectContaining({ kind: 'guard' }))
  })

  it('puts other actions inside an if block, and an "otherwise" sentence after its else', () => {
    expect(read('If the page shows "Accept cookies", click Accept. Otherwise, click Sign in. Then type "ada" into Name')).toEqual([
      { kind: 'if', when: 'textShown', text: 'Accept cookies' },
      { kind: 'click', element: 'Accept' },
      { kind: 'else' },
      { kind: 'click', element: 'Sign in' },
      { kind: 'endIf' },
      { kind: 'type', element: 'Name', text: 'ada' },
    ])
    expect(read('if "Welcome" is not shown then click Sign in and type "ada" into Name')).toEqual([
      { kind: 'if', when: 'textNotShown', text: 'Welcome' },
      { kind: 'click', element: 'Sign in' },
      { kind: 'type', element: 'Name', text: 'ada' },
      { kind: 'endIf' },
    ])
  })

  it('becomes an if block around a skip or a stop, valid as steps inside a loop', () => {
    const skip = guardSteps({ when: 'textShown', text: 'Out of stock', then: 'skip' })
    expect(skip).toEqual([{ type: 'if', when: 'textShown', text: 'Out of stock' }, { type: 'next' }, { type: 'end' }])
    expect(parseSteps([{ type: 'forEachRow' }, ...skip, { type: 'end' }]).ok).toBe(true)
    expect(guardSteps({ when: 'textNotShown', text: 'Welcome', then: 'fail' })[1]).toEqual({
      type: 'stop',
      outcome: 'failed',
      message: 'The page does not show “Welcome”.',
    })
  })

  it('turns a skip with no loop around it into a stop as succeeded, saying why', () => {
    const steps = skipsOutsideLoops([
      { type: 'navigate', url: 'https://shop.example/' },
      ...guardSteps({ when: 'textShown', text: 'Closed today', then: 'skip' }),
    ])
    expect(steps[2]).toEqual({ type: 'stop', outcome: 'succeeded', message: 'Nothing more to do: the page shows “Closed today”.' })
    expect(parseSteps(steps).ok).toBe(true)
    const inLoop = [
      { type: 'forEachRow' as const, onRowError: 'continue' as const },
      ...guardSteps({ when: 'textShown', text: 'x', then: 'skip' }),
      { type: 'end' as const },
    ]
    expect(skipsOutsideLoops(inLoop)).toEqual(inLoop)
  })
})
