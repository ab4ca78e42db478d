// RFC 6238 time-based one-time codes (HMAC-SHA1, 30-second steps, 6 digits: what authenticator
// apps and sites use by default), for `{{totp.name}}` in a run's steps, made where the run types
// them: the cloud worker, the local runner or the extension (WebCrypto, so one code for all three).
// The server's own two-factor sign-in verifies codes inside Better Auth; this side only makes them.

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * The bytes of a base32 text (RFC 4648; any case, `=` padding ignored). A letter outside the
 * alphabet throws, unless `skipUnknown` (how Better Auth reads the secrets it imported: spaces and
 * dashes pass).
 */
export function base32Bytes(text: string, options: { skipUnknown?: boolean } = {}): Uint8Array<ArrayBuffer> {
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
  return new Uint8Array(bytes)
}

/** The code an authenticator app shows at `at` (ms) for this base32 secret. */
export async function totpCode(
  secret: string,
  at: number = Date.now(),
  options: { period?: number; digits?: number } = {},
): Promise<string> {
  const digits = options.digits ?? 6
  const counter = new DataView(new ArrayBuffer(8))
  counter.setBigUint64(0, BigInt(Math.floor(at / 1000 / (options.period ?? 30))))
  const key = await globalThis.crypto.subtle.importKey('raw', base32Bytes(secret), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
  const mac = new DataView(await globalThis.crypto.subtle.sign('HMAC', key, counter.buffer))
  const offset = mac.getUint8(mac.byteLength - 1) & 0x0f
  return String((mac.getUint32(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0')
}
