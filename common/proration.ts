// Paddle's proration rule, in one place (docs/decisions/041-prorated-plan-changes.md): the local
// payment sandbox bills a plan change with it, and the credits a plan change grants (for Paddle's
// own webhooks as for the sandbox's) follow the same rate. Pure: the Billing page's dialog may read it too.

const MINUTE_MS = 60_000

/** A subscription's current billing period: from its last billing date to its next. */
export interface BillingPeriod {
  startsAt: Date
  endsAt: Date
}

/**
 * The share of the billing period still to come at `at`, from 0 (its end) to 1 (its start):
 * Paddle's `proration.rate` on a transaction's items. Paddle prorates to the minute: the minute
 * under way counts as used.
 */
export function prorationRate(period: BillingPeriod, at: Date): number {
  const minutes = Math.floor((period.endsAt.getTime() - period.startsAt.getTime()) / MINUTE_MS)
  if (minutes <= 0) return 0
  const left = Math.floor((period.endsAt.getTime() - at.getTime()) / MINUTE_MS)
  return Math.min(1, Math.max(0, left / minutes))
}

/** What a change from one price (or monthly allowance) to another costs for the rest of the period. */
export interface Proration {
  /** For the unused rest of the period at the old amount: given back. */
  credit: number
  /** For the rest of the period at the new amount. */
  charge: number
  /** charge − credit: positive is owed now (an upgrade), negative is owed back (a downgrade). */
  difference: number
}

/**
 * Prorates a replacement of `from` by `to` (whole units: cents of a price, or credits) at `rate`
 * (prorationRate). Each side is rounded to a whole unit on its own, as Paddle rounds each line.
 *
 * Paddle's worked example: a $10 monthly plan replaced by a $30 one halfway through a 30-day month
 * is a $5 credit and a $15 charge, $10 to pay now (common/proration.test.ts).
 */
export function prorate(from: number, to: number, rate: number): Proration {
  const credit = Math.round(from * rate)
  const charge = Math.round(to * rate)
  return { credit, charge, difference: charge - credit }
}
