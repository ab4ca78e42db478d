import { createHmac, timingSafeEqual } from 'node:crypto'

// Checkout's custom data travels through the browser, so the buyer could change user_id to
// someone else's. Our server signs the user id it hands out; a webhook maps a new subscription to
// a user only when that signature (user_token) matches.

const tokenFor = (secret: string, userId: string) => createHmac('sha256', secret).update(`checkout-user:${userId}`).digest('base64url')

export function checkoutUserToken(secret: string, userId: string): string {
  return tokenFor(secret, userId)
}

export function isCheckoutUserToken(secret: string, userId: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length > 100) return false
  const expected = Buffer.from(tokenFor(secret, userId))
  const given = Buffer.from(token)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
