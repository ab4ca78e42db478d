import { describe, expect, it } from 'vitest'
import { creditGrantFor } from './plan-credits.ts'

const free = { name: 'Free', creditsPerMonth: 0 }
const pro = { name: 'Pro', creditsPerMonth: 1000 }
const business = { name: 'Business', creditsPerMonth: 5000 }
const grant = (origin: string | null, plan: typeof pro | null, previous: typeof pro | null = null) =>
  creditGrantFor({ origin, transactionId: 'txn_1', plan, previous })

describe('creditGrantFor', () => {
  it('grants the plan’s monthly credits for the first payment and each renewal', () => {
    expect(grant('web', pro)).toEqual({ delta: 1000, reference: 'Pro plan, transaction txn_1' })
    expect(grant('subscription_recurring', business, pro)).toMatchObject({ delta: 5000 })
  })

  it('grants the rise in monthly credits on an upgrade, and nothing on a downgrade or a sideways change', () => {
    expect(grant('subscription_update', business, pro)).toEqual({
      delta: 4000,
      reference: 'Upgrade from Pro to Business plan, transaction txn_1',
    })
    expect(grant('subscription_update', pro, business)).toBeNull()
    expect(grant('subscription_update', pro, pro)).toBeNull()
  })

  it('grants nothing when the plan before a change is unknown, for other origins, or for a plan it does not know', () => {
    expect(grant('subscription_update', business, null)).toBeNull()
    expect(grant('subscription_payment_method_change', pro)).toBeNull()
    expect(grant('api', pro)).toBeNull()
    expect(grant(null, pro)).toBeNull()
    expect(grant('web', null)).toBeNull()
    expect(grant('web', free)).toBeNull()
  })
})
