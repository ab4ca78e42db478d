import { createHmac } from 'node:crypto'

// The two halves of RFC 6238's time-based codes that both of our sides use: RFC 4648's base32 for
// the secret, and RFC 4226's HOTP for the code of one time step. The vault generates codes for a
// member's sites (features/vault/totp.ts); two-factor sign-in checks that each of our own codes is
// used once (features/auth/totp-steps.ts).

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * The bytes of a base32 text (any case, `=` padding ignored). A letter outside the alphabet throws,
 * unless `skipUnknown` (how Better Auth reads the secrets it imported: spaces and dashes pass).
 */
export function base32Bytes(text: string, options: { skipUnknown?: boolean } = {}): Buffer {
  let bits = 0
  let value = 0
  const bytes: number[] = []
  for (const letter of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32_ALPHABET.indexOf(letter)
    if (index < 0) {
      if (options.skipUnknown) continue
      throw new Error('a TOTP secret is base32')
    }
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(bytes)
}

/** The HMAC-SHA1 one-time code of `counter` (for TOTP, the time step) with this key: `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0')
}
