import { describe, expect, it } from 'vitest'
import { prorate, prorationRate } from './proration.ts'

// Paddle's rule, as its documentation states it:
// - developer.paddle.com/concepts/subscriptions/proration: with `prorated_immediately` the
//   "prorated amount is calculated now" and billed now; "Paddle's subscription billing engine
//   calculates proration to the minute".
// - paddle.com/docs/api-upgrades-and-downgrades, its worked example: a customer on a $10 monthly
//   plan, billed on the 1st, is moved halfway through a 30-day month to a $30 plan: the unused
//   portion is a credit of $10 × 15/30 = $5, the new plan for the rest of the cycle a debit of
//   $30 × 15/30 = $15, so the change costs $10, charged at once when billed immediately.
// - developer.paddle.com/changelog/2024/proration-improvements: a change that gives more credit
//   than it charges puts the rest on the customer's credit balance (`credit_to_balance`).

const DAY = 24 * 3600_000
/** A 30-day month, as in Paddle's example: June 2025. */
const june = { startsAt: new Date('2025-06-01T00:00:00Z'), endsAt: new Date('2025-07-01T00:00:00Z') }
const after = (ms: number) => new Date(june.startsAt.getTime() + ms)

describe("Paddle's worked example", () => {
  it('a $10 plan replaced by a $30 one with 15 of 30 days left: $5 credit, $15 charge, $10 to pay now', () => {
    const rate = prorationRate(june, new Date('2025-06-16T00:00:00Z'))
    expect(rate).toBe(0.5)
    expect(prorate(1000, 3000, rate)).toEqual({ credit: 500, charge: 1500, difference: 1000 })
  })
})

describe('prorationRate', () => {
  it('is 1 at the start of the period and 0 at its end, or later', () => {
    expect(prorationRate(june, june.startsAt)).toBe(1)
    expect(prorationRate(june, june.endsAt)).toBe(0)
    expect(prorationRate(june, new Date(june.endsAt.getTime() + DAY))).toBe(0)
  })

  it('counts a change before the period (a clock behind) as its start', () => {
    expect(prorationRate(june, new Date(june.startsAt.getTime() - DAY))).toBe(1)
  })

  it('works to the minute: the minute under way counts as used', () => {
    const minutes = 30 * 24 * 60
    expect(prorationRate(june, after(30_000))).toBe((minutes - 1) / minutes)
    expect(prorationRate(june, after(60_000))).toBe((minutes - 1) / minutes)
    expect(prorationRate(june, after(61_000))).toBe((minutes - 2) / minutes)
  })

  it('a change on the day the period started leaves nearly all of it; on its last day, nearly none', () => {
    expect(prorationRate(june, after(3 * 3600_000))).toBeCloseTo(1 - 3 / (30 * 24), 10)
    expect(prorationRate(june, new Date(june.endsAt.getTime() - 3 * 3600_000))).toBeCloseTo(3 / (30 * 24), 10)
  })

  it('is 0 for a period of no length', () => {
    expect(prorationRate({ startsAt: june.startsAt, endsAt: june.startsAt }, june.startsAt)).toBe(0)
  })
})

describe('prorate', () => {
  it('an upgrade at the start of the period costs the whole difference, at its end nothing', () => {
    expect(prorate(2900, 7900, 1)).toEqual({ credit: 2900, charge: 7900, difference: 5000 })
    expect(prorate(2900, 7900, 0)).toEqual({ credit: 0, charge: 0, difference: 0 })
  })

  it('a downgrade is owed back: the difference is negative', () => {
    expect(prorate(7900, 2900, 0.5)).toEqual({ credit: 3950, charge: 1450, difference: -2500 })
  })

  it('rounds each side to a whole unit on its own', () => {
    expect(prorate(2900, 7900, 1 / 3)).toEqual({ credit: 967, charge: 2633, difference: 1666 })
  })

  it('prorates monthly credits by the same rate', () => {
    expect(prorate(1000, 5000, 0.5).difference).toBe(2000)
    expect(prorate(5000, 1000, 0.25).difference).toBe(-1000)
  })
})
