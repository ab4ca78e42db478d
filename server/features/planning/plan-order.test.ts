import { describe, expect, it } from 'vitest'
import { readInstructions } from './instructions.ts'
import { inPlanningOrder } from './plan-order.ts'

const kinds = (description: string, start: string | null) => {
  const ordered = inPlanningOrder(readInstructions(description), start)
  return {
    start: ordered.start,
    reads: ordered.reads.map((read) => ('instruction' in read ? read.instruction.kind : 'unread')),
  }
}

describe('the order a sentence is planned in', () => {
  it('starts at a "start at" said last', () => {
    expect(
      kinds('Type milk into What needs to be done?, press Enter, then check that milk appears. Start at https://todo.example/', null),
    ).toEqual({
      start: 'https://todo.example/',
      reads: ['type', 'press', 'assert'],
    })
  })

  it('a full "start at" address replaces the start page given beside the sentence', () => {
    expect(kinds('Click Pricing. Start at https://shop.example/home', 'https://other.example/')).toEqual({
      start: 'https://shop.example/home',
      reads: ['click'],
    })
  })

  it('reads a "start at" path against the start page', () => {
    expect(kinds('click Pricing, start on /catalog', 'https://shop.example/')).toEqual({
      start: 'https://shop.example/catalog',
      reads: ['click'],
    })
  })

  it('does not go to the start page twice when the sentence opens it', () => {
    expect(kinds('Open https://shop.example, then click Pricing', 'https://shop.example/')).toEqual({
      start: 'https://shop.example/',
      reads: ['click'],
    })
    expect(kinds('Open https://shop.example/sale, then click Pricing', 'https://shop.example/')).toEqual({
      start: 'https://shop.example/',
      reads: ['navigate', 'click'],
    })
  })

  it('keeps a later "go to" where the member said it', () => {
    expect(kinds('click Pricing, then go to https://shop.example/cart', 'https://shop.example/')).toEqual({
      start: 'https://shop.example/',
      reads: ['click', 'navigate'],
    })
  })
})
