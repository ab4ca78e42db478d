import { Secret, TOTP } from 'otpauth'
import { sessionCookie, type TestApp } from './create-test-app.ts'

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

/**
 * Turns two-factor sign-in on for a signed-up test account through the API (set-up, then the first
 * code); the account's token (and cookie) become the new session's. Returns the secret and the recovery codes.
 * It confirms with the code of the step before now (accepted, one step either side), so the current
 * code is still unused for the test's sign-in: each code works once (RFC 6238, section 5.2).
 */
export async function enableTwoFactor(t: TestApp, member: { token: string; password: string; cookie?: string }) {
  const setup = await t.request('/api/auth/two-factor/setup', { token: member.token, body: { password: member.password } })
  if (setup.status !== 200) throw new Error(`two-factor set-up failed: ${setup.status} ${await setup.text()}`)
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data
  // Not in the last second of a step: the step before would leave the window before the server checks it.
  const intoStep = Date.now() % 30_000
  if (intoStep > 29_000) await new Promise((resolve) => setTimeout(resolve, 30_050 - intoStep))
  const confirmed = await t.request('/api/auth/two-factor/confirm', {
    token: member.token,
    body: { code: totpCode(secret, Date.now() - 30_000) },
  })
  if (confirmed.status !== 200) throw new Error(`two-factor confirmation failed: ${confirmed.status} ${await confirmed.text()}`)
  const { recoveryCodes, token } = ((await confirmed.json()) as { data: { recoveryCodes: string[]; token: string } }).data
  member.token = token
  if (member.cookie !== undefined) member.cookie = sessionCookie(confirmed)
  return { secret, recoveryCodes }
}
