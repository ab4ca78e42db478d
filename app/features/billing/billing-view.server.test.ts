import { describe, expect, it } from 'vitest'
import { changeEstimate } from './billing-view.server.ts'

const pro = { price: 29, creditsPerMonth: 1000 }
const business = { price: 79, creditsPerMonth: 5000 }
const period = { startsAt: new Date('2026-06-01T00:00:00Z'), endsAt: new Date('2026-07-01T00:00:00Z') }
const halfway = new Date('2026-06-16T00:00:00Z')

describe("the plan-change dialog's estimate", () => {
  it('an upgrade halfway: half the difference charged, half the difference in credits added', () => {
    expect(changeEstimate(pro, business, period, halfway)).toBe(
      'About $25.00 is charged today for the 15 days left of this billing period. Your credits go up by about 2000.',
    )
  })

  it('a downgrade halfway: half the difference credited to the balance, the credits taken back', () => {
    expect(changeEstimate(business, pro, period, halfway)).toBe(
      'About $25.00 is credited to your balance today for the 15 days left of this billing period; it pays your next payments first. ' +
        'Your credits go down by about 2000 (never below zero).',
    )
  })

  it('says nothing in a trial (no period) or for Free', () => {
    expect(changeEstimate(pro, business, null, halfway)).toBeNull()
    expect(changeEstimate(pro, { price: 0, creditsPerMonth: 0 }, period, halfway)).toBeNull()
  })
})
