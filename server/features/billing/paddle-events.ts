import { z } from 'zod'

// The parts of Paddle Billing's webhook payloads that we read (developer.paddle.com, "Webhooks").
// Everything else in a payload is ignored; what we read is checked, so a malformed event is
// refused with 400 before it changes anything.

const timestamp = z.iso.datetime({ offset: true })
const customData = z
  .object({ user_id: z.string().max(200).optional(), plan: z.string().max(100).optional() })
  .loose()
  .nullish()
const item = z.object({ price: z.object({ id: z.string().min(1).max(200) }).loose(), quantity: z.number().optional() }).loose()

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
  details: z.object({ totals: z.object({ grand_total: z.string().regex(/^\d{1,10}$/) }).loose() }).loose(),
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
