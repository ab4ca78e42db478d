import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Signing per the Standard Webhooks convention (https://www.standardwebhooks.com/): the secret is
 * `whsec_` and base64 key bytes; each message carries `webhook-id`, `webhook-timestamp` (Unix
 * seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, so receivers
 * can check it with that project's libraries and drop replays by id and timestamp.
 */
const SECRET_PREFIX = 'whsec_'

/** A new signing secret: 24 random bytes (192 bits), base64 after `whsec_`. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`
}

/** A new message id (the webhook-id header): `msg_` and 24 url-safe random characters. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}

/**
 * The three Standard Webhooks headers of one attempt (the timestamp is the attempt's, not the
 * event's). Several secrets (during a rotation) give several space-separated signatures; a
 * receiver accepts the message when one of them is made with its secret.
 */
export function signedHeaders(secret: string | string[], messageId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000)
  const secrets = Array.isArray(secret) ? secret : [secret]
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((each) => signatureOf(each, messageId, timestamp, body)).join(' '),
  }
}

/**
 * Keeps endpoint secrets sealed at rest: AES-256-GCM with a key derived (HKDF-SHA256) from the
 * server secret for this one purpose. `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export function createSecretBox(serverSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'aether', 'webhook-endpoint-secrets', 32))
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
    },
    open(sealed: string): string {
      const [version, iv, tag, data] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed webhook secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

export type SecretBox = ReturnType<typeof createSecretBox>
