import type { RateLimitRule } from '#server/features/rate-limit/rate-limit.service.ts'

// Stricter than the general API limit: these guard password guessing and account spam.
export const SIGN_IN_PER_IP: RateLimitRule = {
  limit: 30,
  windowSeconds: 10 * 60,
  message: 'Too many sign-in attempts from your network. Please wait a few minutes and try again.',
}

/** Failures for one account from one client address: that client is refused, nobody else (ADR 016). */
export const FAILED_SIGN_IN_PER_ACCOUNT_AND_CLIENT: RateLimitRule = {
  limit: 5,
  windowSeconds: 15 * 60,
  message: 'Too many failed sign-in attempts for this account from your network. Please wait 15 minutes and try again.',
}

/**
 * Failures for one account from anywhere: past this, only devices the account signed in on before
 * may try its password (trusted-devices.ts); the owner is never locked out of a known device.
 */
export const FAILED_SIGN_IN_PER_ACCOUNT: RateLimitRule = {
  limit: 10,
  windowSeconds: 15 * 60,
  message:
    'Too many failed sign-in attempts for this account. Sign in from a device you have used before, reset your password, or try again in 15 minutes.',
}

/**
 * Failed sign-ins are slowed before they are refused: the first three of an account answer at once,
 * then each further failure waits twice as long as the one before (0.25 s, 0.5 s, 1 s, then 2 s each).
 */
export function failedSignInDelayMs(failures: number): number {
  const slowed = failures - 3
  return slowed <= 0 ? 0 : Math.min(2_000, 250 * 2 ** (slowed - 1))
}

export const SIGN_UP_PER_IP: RateLimitRule = {
  limit: 10,
  windowSeconds: 60 * 60,
  message: 'Too many accounts created from your network. Please try again later.',
}

export const PASSWORD_CHANGE_PER_USER: RateLimitRule = {
  limit: 10,
  windowSeconds: 15 * 60,
  message: 'Too many password change attempts. Please wait 15 minutes and try again.',
}

/** Codes tried at the second step of a sign-in, per client address (each ticket also allows 5, docs/decisions/023). */
export const SECOND_FACTOR_PER_IP: RateLimitRule = {
  limit: 30,
  windowSeconds: 10 * 60,
  message: 'Too many two-factor attempts from your network. Please wait a few minutes and try again.',
}

/** Setting up, confirming or turning off two-factor sign-in, new recovery codes, adding passkeys: each checks a password or code. */
export const TWO_FACTOR_CHANGES_PER_USER: RateLimitRule = {
  limit: 10,
  windowSeconds: 15 * 60,
  message: 'Too many attempts to change your sign-in security. Please wait 15 minutes and try again.',
}
