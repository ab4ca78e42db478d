import { Secret, TOTP } from 'otpauth'

/** The code an authenticator app shows now for this base32 secret (or otpauth:// address), as a test computes it. */
export function totpCode(secretOrUri: string, at: number = Date.now()): string {
  const secret = secretOrUri.startsWith('otpauth://') ? (new URL(secretOrUri).searchParams.get('secret') ?? '') : secretOrUri
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at })
}

/** A 6-digit code that is not the current one (nor the ones just before and after it). */
export function wrongTotpCode(secretOrUri: string): string {
  const near = [-30_000, 0, 30_000].map((offset) => totpCode(secretOrUri, Date.now() + offset))
  let candidate = Number(near[1]) 
  do candidate = (candidate + 1) % 1_000_000
  while (near.includes(String(candidate).padStart(6, '0')))
  return String(candidate).padStart(6, '0')
}
