import type { paths } from './schema.ts'

/** The events a webhook endpoint or a REST hook can be made for. */
export type WebhookEvent = paths['/hooks']['post']['requestBody']['content']['application/json']['event']

/** One message Aether sends to a webhook endpoint (README "Webhooks"). */
export interface WebhookMessage {
  type: WebhookEvent | 'webhook.test'
  timestamp: string
  workspaceId: string
  data: Record<string, unknown>
}

/** A message that is not Aether's: a wrong or missing signature, or one older than the tolerance. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError'
}

/** How old a message's timestamp may be (or how far ahead), as Standard Webhooks' libraries allow. */
const TOLERANCE_SECONDS = 5 * 60

/** Request headers as fetch (`Headers`) or Node's `http` (`request.headers`) give them. */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the key after
 * `whsec_`) and answers its message. `body` is the request's raw body, before any JSON parsing:
 * its bytes, or its text. During a secret's rotation a message carries two signatures; one made
 * with `secret` is enough. Throws WebhookVerificationError otherwise. Drop a `webhook-id` you have
 * seen: retries and redeliveries repeat it.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  now = Date.now(),
): Promise<WebhookMessage> {
  const id = headerOf(headers, 'webhook-id')
  const timestamp = headerOf(headers, 'webhook-timestamp')
  const signatures = headerOf(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('The message has no webhook-id, webhook-timestamp or webhook-signature.')
  const seconds = Number(timestamp)
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('The message is too old, or its timestamp is not one.')

  const keyBytes = bytesOf(secret.replace(/^whsec_/, ''))
  if (!keyBytes.length) throw new WebhookVerificationError('The secret is not a signing secret (whsec_… as Aether showed it).')
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
  const bodyBytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`)
  const signed = new Uint8Array(prefix.length + bodyBytes.length)
  signed.set(prefix)
  signed.set(bodyBytes, prefix.length)
  for (const signature of signatures.split(' ')) {
    const [version, mac] = signature.split(',')
    if (version !== 'v1' || !mac) continue
    const given = bytesOf(mac)
    if (given.length && (await crypto.subtle.verify('HMAC', key, given, signed))) {
      return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as WebhookMessage
    }
  }
  throw new WebhookVerificationError('No signature of the message was made with this secret.')
}

/** One header's value, whatever the case of its name. */
function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const entries = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(entries).find((each) => each.toLowerCase() === name)
  const value = key === undefined ? undefined : entries[key]
  return Array.isArray(value) ? value[0] : value
}

/** The bytes of base64 text; none when it is not base64. */
function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  try {
    return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
  } catch {
    return new Uint8Array()
  }
}
