import { createHmac, timingSafeEqual } from 'node:crypto'
import { parse as parseCookies } from 'hono/utils/cookie'

/** The browser's note of the accounts that signed in on it (ADR 016): listed in the cookie policy. */
export const TRUSTED_DEVICE_COOKIE = 'aether_device'
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60
/** Accounts remembered per browser: a shared family computer, not a list of everyone who ever typed a password. */
const MAX_ACCOUNTS = 5

/**
 * Devices an account has signed in on before. When an account is under a password-guessing attack
 * from elsewhere, these still sign in (with the right password), so an attacker cannot lock the
 * owner out. The cookie holds, per account, its user id and an HMAC of it with the server secret:
 * it cannot be made for an account without a successful sign-in, and it grants nothing but the
 * right to try the password while the account refuses unknown devices.
 */
export function createTrustedDevices(options: { secret: string; secure: boolean }) {
  const signatureOf = (userId: string) =>
    createHmac('sha256', options.secret).update(`trusted-device:${userId}`).digest('base64url').slice(0, 32)

  function accountsIn(headers: Headers): string[] {
    const value = parseCookies(headers.get('cookie') ?? '', TRUSTED_DEVICE_COOKIE)[TRUSTED_DEVICE_COOKIE] ?? ''
    return value
      .split('~')
      .map((entry) => {
        const [userId = '', signature = ''] = entry.split('.')
        const expected = Buffer.from(signatureOf(userId))
        const given = Buffer.from(signature)
        return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null
      })
      .filter((userId): userId is string => Boolean(userId))
  }

  return {
    /** Whether this browser signed in to the account before. */
    trusts(headers: Headers, userId: string): boolean {
      return accountsIn(headers).includes(userId)
    },

    /** The Set-Cookie that adds the account to the browser's list (most recent first). */
    remember(headers: Headers, userId: string): string {
      const accounts = [userId, ...accountsIn(headers).filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS)
      const value = accounts.map((id) => `${id}.${signatureOf(id)}`).join('~')
      return `${TRUSTED_DEVICE_COOKIE}=${value}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
    },
  }
}

export type TrustedDevices = ReturnType<typeof createTrustedDevices>
