import { createHmac, timingSafeEqual } from 'node:crypto'

/** How far a signature's timestamp may be from our clock. Event ids are applied once, so a replay inside it changes nothing. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

export type SignatureCheck = { valid: true } | { valid: false; reason: string }

/**
 * Paddle Billing's webhook signature: `Paddle-Signature: ts=<unix seconds>;h1=<hex>[;h1=<hex>…]`,
 * where h1 is HMAC-SHA256 of `<ts>:<raw body>` with the endpoint's secret key. Several h1 values
 * appear while a secret is being rotated; any one that matches is enough.
 */
export function verifyPaddleSignature(
  rawBody: string,
  header: string | null | undefined,
  secret: string,
  now: Date = new Date(),
): SignatureCheck {
  if (!header) return { valid: false, reason: 'missing Paddle-Signature header' }
  let timestamp: string | null = null
  const signatures: string[] = []
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((piece) => piece.trim())
    if (key === 'ts' && value) timestamp = value
    else if (key === 'h1' && value) signatures.push(value)
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: 'malformed signature timestamp' }
  if (!signatures.length) return { valid: false, reason: 'no h1 signature' }
  const age = Math.abs(now.getTime() / 1000 - Number(timestamp))
  if (age > SIGNATURE_TOLERANCE_SECONDS) return { valid: false, reason: 'signature timestamp outside the tolerance' }

  const expected = createHmac('sha256', secret).update(`${timestamp}:${rawBody}`).digest()
  const matches = signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
  })
  return matches ? { valid: true } : { valid: false, reason: 'signature does not match' }
}

/** The header Paddle would send for this body: used by the local sandbox and by tests. */
export function signPaddleBody(rawBody: string, secret: string, now: Date = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000)
  const signature = createHmac('sha256', secret).update(`${timestamp}:${rawBody}`).digest('hex')
  return `ts=${timestamp};h1=${signature}`
}
