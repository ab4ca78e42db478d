import { describe, expect, it } from 'vitest'
import { creditGrantFor } from './plan-credits.ts'

const free = { name: 'Free', creditsPerMonth: 0 }
const pro = { name: 'Pro', creditsPerMonth: 1000 }
const business = { name: 'Business', creditsPerMonth: 5000 }
const grant = (origin: string | null, plan: typeof pro | null, previous: typeof pro | null = null) =>
  creditGrantFor({ origin, transactionId: 'txn_1', plan, previous })
const freeStart = (earlierSubscription: boolean, plan: typeof pro = pro) =>
  creditGrantFor({ origin: 'web', transactionId: 'txn_1', plan, previous: null, free: true, earlierSubscription })

describe('creditGrantFor', () => {
  it('grants the plan’s monthly credits for the first payment and each renewal', () => {
    expect(grant('web', pro)).toEqual({ delta: 1000, reference: 'Pro plan, transaction txn_1' })
    expect(grant('subscription_recurring', business, pro)).toMatchObject({ delta: 5000 })
  })

  it('a plan change billed in full (no proration) grants the rise in monthly credits, and takes back the fall', () => {
    expect(grant('subscription_update', business, pro)).toEqual({
      delta: 4000,
      reference: 'Upgrade from Pro to Business plan, transaction txn_1',
    })
    expect(grant('subscription_update', pro, business)).toEqual({
      delta: -4000,
      reference: 'Downgrade from Business to Pro plan, transaction txn_1',
    })
    expect(grant('subscription_update', pro, pro)).toBeNull()
  })

  it("a prorated plan change follows the price's rule (common/proration.ts): the difference for the share of the period left", () => {
    const change = (plan: typeof pro, previous: typeof pro, rate: number) =>
      creditGrantFor({ origin: 'subscription_update', transactionId: 'txn_1', plan, previous, rate })
    expect(change(business, pro, 0.5)).toEqual({
      delta: 2000,
      reference: 'Upgrade from Pro to Business plan (prorated: 50% of the billing period left), transaction txn_1',
    })
    expect(change(pro, business, 0.25)).toEqual({
      delta: -1000,
      reference: 'Downgrade from Business to Pro plan (prorated: 25% of the billing period left), transaction txn_1',
    })
    // At the very end of the period nothing is left to prorate; rounding is to whole credits.
    expect(change(business, pro, 0)).toBeNull()
    // Each side rounded on its own, as the price's lines are: 1667 − 333.
    expect(change(business, pro, 1 / 3)).toMatchObject({ delta: 1334 })
  })

  it('grants nothing when the plan before a change is unknown, for other origins, or for a plan it does not know', () => {
    expect(grant('subscription_update', business, null)).toBeNull()
    expect(grant('subscription_payment_method_change', pro)).toBeNull()
    expect(grant('api', pro)).toBeNull()
    expect(grant(null, pro)).toBeNull()
    expect(grant('web', null)).toBeNull()
    expect(grant('web', free)).toBeNull()
  })

  it('grants the month when a first subscription’s free trial starts (its $0 transaction), and nothing for a second trial', () => {
    expect(freeStart(false)).toEqual({ delta: 1000, reference: 'Pro plan free trial, transaction txn_1' })
    expect(freeStart(true)).toBeNull()
    expect(freeStart(false, free)).toBeNull()
    // The trial's end is the first paid month: a renewal, granted as usual.
    expect(grant('subscription_recurring', pro)).toMatchObject({ delta: 1000 })
  })

  it('a free transaction of another origin follows that origin’s rule', () => {
    const change = (earlierSubscription: boolean) =>
      creditGrantFor({
        origin: 'subscription_update',
        transactionId: 'txn_1',
        plan: business,
        previous: pro,
        free: true,
        earlierSubscription,
      })
    expect(change(true)).toMatchObject({ delta: 4000 })
    expect(
      creditGrantFor({ origin: 'subscription_recurring', transactionId: 'txn_1', plan: pro, previous: null, free: true }),
    ).toMatchObject({
      delta: 1000,
    })
  })
})
