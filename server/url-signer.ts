import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Signatures for values our own pages put in URLs (the social card's title), so that a URL can
 * only carry what we wrote into it: HMAC-SHA256 with the server secret and a purpose, 22
 * base64url characters (128 bits).
 */
export function createUrlSigner(secret: string) {
  const signatureOf = (purpose: string, value: string) =>
    createHmac('sha256', secret).update(`${purpose}\u0000${value}`).digest('base64url').slice(0, 22)
  return {
    sign: signatureOf,
    verify(purpose: string, value: string, signature: string | null): boolean {
      if (!signature) return false
      const expected = Buffer.from(signatureOf(purpose, value))
      const given = Buffer.from(signature)
      return expected.length === given.length && timingSafeEqual(expected, given)
    },
  }
}
