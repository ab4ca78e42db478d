import { createHmac } from 'node:crypto'
import { base32Bytes as readBase32 } from '#common/totp-code.ts'

// The two halves of RFC 6238's time-based codes that both of our sides use: RFC 4648's base32 for
// the secret, and RFC 4226's HOTP for the code of one time step. The vault generates codes for a
// member's sites (features/vault/totp.ts); two-factor sign-in checks that each of our own codes is
// used once (features/auth/totp-steps.ts).

/** The bytes of a base32 text (common/totp-code.ts's reading), as a Buffer. */
export const base32Bytes = (text: string, options: { skipUnknown?: boolean } = {}): Buffer => Buffer.from(readBase32(text, options))

/** The HMAC-SHA1 one-time code of `counter` (for TOTP, the time step) with this key: `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0')
}
