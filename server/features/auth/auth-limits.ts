import type { RateLimitRule } from '#server/features/rate-limit/rate-limit.service.ts'

// Stricter than the general API limit: these guard password guessing and account spam.
export const SIGN_IN_PER_IP: RateLimitRule = {
  limit: 30,
  windowSeconds: 10 * 60,
  message: 'Too many sign-in attempts from your network. Please wait a few minutes and try again.',
}

export const FAILED_SIGN_IN_PER_ACCOUNT: RateLimitRule = {
  limit: 10,
  windowSeconds: 15 * 60,
  message: 'Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.',
}

/**
 * Failed sign-ins are slowed before they are refused: the first three answer at once, then each
 * further failure of the account waits twice as long as the one before (0.25 s, 0.5 s, 1 s, then
 * 2 s each) until FAILED_SIGN_IN_PER_ACCOUNT locks the account.
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
