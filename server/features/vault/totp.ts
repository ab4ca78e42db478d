import { base32Bytes, hotp } from '#server/one-time-codes.ts'

// RFC 6238 time-based one-time codes (HMAC-SHA1, 30-second steps, 6 digits: what authenticator
// apps and sites use by default), for `{{totp.name}}` in a run's steps. The server's own two-factor
// sign-in verifies codes inside Better Auth; this side only generates them.

/** The code an authenticator app shows at `at` (ms) for this base32 secret. */
export function totpCode(secret: string, at: number = Date.now(), options: { period?: number; digits?: number } = {}): string {
  return hotp(base32Bytes(secret), Math.floor(at / 1000 / (options.period ?? 30)), options.digits ?? 6)
}
