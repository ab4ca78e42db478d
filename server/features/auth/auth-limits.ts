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
