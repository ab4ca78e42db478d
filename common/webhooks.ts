import { z } from './zod.ts'

/**
 * Outgoing webhooks (docs/decisions/026): the events a workspace's endpoints may choose, signed per
 * the Standard Webhooks convention so receivers can verify them with its libraries.
 */
export const WEBHOOK_EVENTS = ['run.succeeded', 'run.failed', 'run.cancelled', 'run.waiting', 'automation.changed', 'credits.low'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
/** What "Send test event" sends; it goes to the one endpoint whatever events it chose. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'
export type WebhookEventType = WebhookEvent | typeof WEBHOOK_TEST_EVENT

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'run.succeeded': 'A run succeeded',
  'run.failed': 'A run failed',
  'run.cancelled': 'A run was cancelled',
  'run.waiting': 'A run is waiting for a person',
  'automation.changed': 'An automation was created, changed or deleted',
  'credits.low': 'The credit balance fell below the threshold',
}

/** How many times one delivery is tried in all before it counts as failed. */
export const WEBHOOK_MAX_ATTEMPTS = 5
/** The wait before the 2nd, 3rd, 4th and 5th attempt (exponential: 30 s × 4ⁿ). */
export const WEBHOOK_RETRY_DELAYS_MS = [30_000, 120_000, 480_000, 1_920_000] as const
/** An endpoint whose deliveries failed this many times in a row (every attempt used) is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 5
/** credits.low fires when a change takes the balance from at least this many credits to fewer. */
export const CREDITS_LOW_THRESHOLD = 10
/** Extracted rows travel inside the payload up to this size (JSON bytes); larger, as a signed link. */
export const WEBHOOK_INLINE_EXTRACTED_BYTES = 64 * 1024
/** How long the signed links in a payload (screenshots, extracted data) work. */
export const ARTIFACT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000
/** A receiver has this long to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000

/** A hint shows the last 4 characters of a URL's path and query, once they are at least 16 long. */
const HINT_TAIL = 4
const HINT_TAIL_FROM = 16

/**
 * How a webhook URL is named where people who may not manage webhooks read it (the activity feed,
 * which viewers and any API key read): its origin, and of the rest (path, query: they often carry
 * the receiver's token) only its last 4 characters, when it is long enough that they give little
 * away: `https://hooks.example.com/…4b3c`. A migration (webhook_url_hints) wrote the same, in SQL,
 * into the entries written before.
 */
export function webhookUrlHint(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'a webhook URL'
  }
  const rest = `${url.pathname}${url.search}${url.hash}`
  if (rest === '/') return `${url.origin}/`
  return `${url.origin}/…${rest.length >= HINT_TAIL_FROM ? rest.slice(-HINT_TAIL) : ''}`
}

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Each event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` }))
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)])

const urlSchema = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, 'URL is required')
  .max(2000, 'URL must be at most 2,000 characters.')
  .refine(
    (value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
      } catch {
        return false
      }
    },
    { error: 'URL must be an http(s) address without a user name or password.' },
  )

const descriptionSchema = z.string().trim().max(200, 'Description must be at most 200 characters.')

export const webhookCreateSchema = z.object({
  url: urlSchema,
  description: descriptionSchema.default(''),
  events: eventsSchema,
  enabled: z.boolean().default(true),
})
export type WebhookCreate = z.infer<typeof webhookCreateSchema>

/**
 * A connector subscribes to one event (REST hooks, as Zapier and n8n use them; docs/decisions/067):
 * the address to send it to, and the event.
 */
export const restHookSubscribeSchema = z.object({
  target_url: urlSchema,
  event: z.enum(WEBHOOK_EVENTS, { error: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` }),
})
export type RestHookSubscribe = z.infer<typeof restHookSubscribeSchema>

export const webhookUpdateSchema = z
  .object({
    url: urlSchema.optional(),
    description: descriptionSchema.optional(),
    events: eventsSchema.optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: 'Nothing to update: send url, description, events or enabled.',
  })
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>
