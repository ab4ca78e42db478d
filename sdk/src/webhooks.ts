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

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the key after
 * `whsec_`) and answers its message. `body` is the request's raw text, before any JSON parsing.
 * During a secret's rotation a message carries two signatures; one made with `secret` is enough.
 * Throws WebhookVerificationError otherwise. Drop a `webhook-id` you have seen: retries repeat it.
 */
export async function verifyWebhook(
  secret: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  body: string,
  now = Date.now(),
): Promise<WebhookMessage> {
  const header = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name]
    return Array.isArray(value) ? value[0] : (value ?? undefined)
  }
  const id = header('webhook-id')
  const timestamp = header('webhook-timestamp')
  const signatures = header('webhook-signature')
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('The message has no webhook-id, webhook-timestamp or webhook-signature.')
  const seconds = Number(timestamp)
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('The message is too old, or its timestamp is not one.')

  const key = await crypto.subtle.importKey('raw', bytesOf(secret.replace(/^whsec_/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ])
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`)
  for (const signature of signatures.split(' ')) {
    const [version, mac] = signature.split(',')
    if (version !== 'v1' || !mac) continue
    const given = bytesOf(mac)
    if (given.length && (await crypto.subtle.verify('HMAC', key, given, signed))) return JSON.parse(body) as WebhookMessage
  }
  throw new WebhookVerificationError('No signature of the message was made with this secret.')
}

/** The bytes of base64 text; none when it is not base64. */
function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  try {
    return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
  } catch {
    return new Uint8Array()
  }
}
