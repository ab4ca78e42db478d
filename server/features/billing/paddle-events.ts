import { z } from 'zod'

// The parts of Paddle Billing's webhook payloads that we read (developer.paddle.com, "Webhooks").
// Everything else in a payload is ignored; what we read is checked, so a malformed event is
// refused with 400 before it changes anything.

const timestamp = z.iso.datetime({ offset: true })
const customData = z
  .object({ user_id: z.string().max(200).optional(), plan: z.string().max(100).optional() })
  .loose()
  .nullish()
/** How Paddle prorated an item of a plan change: the share of the billing period left (0 to 1). */
const proration = z
  .object({ rate: z.string().regex(/^(?:0(?:\.\d{1,20})?|1(?:\.0{1,20})?)$/) })
  .loose()
  .nullish()
const item = z.object({ price: z.object({ id: z.string().min(1).max(200) }).loose(), quantity: z.number().optional(), proration }).loose()
/** An amount in the currency's smallest unit; a prorated downgrade's totals may be negative (Paddle, March 2024). */
const minorUnits = z.string().regex(/^-?\d{1,10}$/)

export const paddleEventSchema = z.object({
  event_id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(100),
  occurred_at: timestamp,
  data: z.record(z.string(), z.unknown()),
})
export type PaddleEvent = z.infer<typeof paddleEventSchema>

export const paddleSubscriptionSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.enum(['active', 'trialing', 'past_due', 'paused', 'canceled']),
  customer_id: z.string().max(200).nullish(),
  custom_data: customData,
  items: z.array(item).min(1),
  next_billed_at: timestamp.nullish(),
  scheduled_change: z.object({ action: z.string(), effective_at: timestamp }).loose().nullish(),
  canceled_at: timestamp.nullish(),
  management_urls: z
    .object({ update_payment_method: z.url({ protocol: /^https?$/ }).nullish(), cancel: z.url({ protocol: /^https?$/ }).nullish() })
    .loose()
    .nullish(),
})
export type PaddleSubscription = z.infer<typeof paddleSubscriptionSchema>

export const paddleTransactionSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.string(),
  customer_id: z.string().max(200).nullish(),
  subscription_id: z.string().max(200).nullish(),
  origin: z.string().nullish(),
  custom_data: customData,
  currency_code: z.string().regex(/^[A-Z]{3}$/),
  items: z.array(item),
  details: z
    .object({
      totals: z
        .object({
          grand_total: minorUnits,
          // Paid from the customer's credit balance, and put on it (a downgrade's unused time).
          credit: minorUnits.optional(),
          credit_to_balance: minorUnits.optional(),
        })
        .loose(),
    })
    .loose(),
  payments: z
    .array(
      z
        .object({
          method_details: z
            .object({
              type: z.string(),
              card: z
                .object({ type: z.string().max(40), last4: z.string().regex(/^\d{4}$/) })
                .loose()
                .nullish(),
            })
            .loose()
            .nullish(),
        })
        .loose(),
    )
    .default([]),
  billed_at: timestamp.nullish(),
  created_at: timestamp,
})
export type PaddleTransaction = z.infer<typeof paddleTransactionSchema>

export const SUBSCRIPTION_EVENTS = new Set([
  'subscription.created',
  'subscription.activated',
  'subscription.updated',
  'subscription.trialing',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
])

const ZERO_DECIMAL_CURRENCIES = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'HUF', 'TWD'])

/** Paddle sends totals in the currency's smallest unit ('2900' is $29.00). */
export function fromMinorUnits(amount: string, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? Number(amount) : Number(amount) / 100
}

/**
 * What a transaction did with money: charged (never below 0), paid from the customer's credit
 * balance, and put on it. A prorated downgrade credits more than it charges: Paddle keeps the rest
 * as the customer's balance (`credit_to_balance`) and spends it on the next transactions.
 */
export function moneyOf(data: PaddleTransaction): { amount: number; creditApplied: number; creditToBalance: number } {
  const { totals } = data.details
  const units = (amount: string | undefined) => (amount === undefined ? 0 : fromMinorUnits(amount, data.currency_code))
  const grandTotal = units(totals.grand_total)
  return {
    amount: Math.max(0, grandTotal),
    creditApplied: Math.max(0, units(totals.credit)),
    creditToBalance: totals.credit_to_balance === undefined ? Math.max(0, -grandTotal) : Math.max(0, units(totals.credit_to_balance)),
  }
}

/**
 * The share of the billing period a plan change was prorated for (its items' `proration.rate`;
 * the new item's first). No proration on the transaction: the change was billed in full (1).
 */
export function prorationRateOf(data: PaddleTransaction): number {
  const items = [...data.items].sort((a, b) => (b.quantity ?? 1) - (a.quantity ?? 1))
  const rate = items.find((item) => item.proration)?.proration?.rate
  return rate === undefined ? 1 : Number(rate)
}
