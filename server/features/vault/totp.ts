import { createHmac } from 'node:crypto'

// RFC 6238 time-based one-time codes (HMAC-SHA1, 30-second steps, 6 digits: what authenticator
// apps and sites use by default), for `{{totp.name}}` in a run's steps. The server's own two-factor
// sign-in verifies codes inside Better Auth; this side only generates them.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

function base32Decode(secret: string): Buffer {
  let bits = 0
  let value = 0
  const bytes: number[] = []
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const index = ALPHABET.indexOf(char)
    if (index < 0) throw new Error('a TOTP secret is base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(bytes)
}

/** The code an authenticator app shows at `at` (ms) for this base32 secret. */
export function totpCode(secret: string, at: number = Date.now(), options: { period?: number; digits?: number } = {}): string {
  const period = options.period ?? 30
  const digits = options.digits ?? 6
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)))
  const hmac = createHmac('sha1', base32Decode(secret)).update(counter).digest()
  const offset = (hmac[hmac.length - 1] ?? 0) & 0x0f
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}
