import type { RateLimitRule } from '#server/features/rate-limit/rate-limit.service.ts'

// Limits on e-mails an account action sends: nobody can use us to flood an inbox.
export const RESET_REQUEST_PER_IP: RateLimitRule = {
  limit: 10,
  windowSeconds: 60 * 60,
  message: 'Too many password reset requests from your network. Please try again later.',
}

export const RESET_REQUEST_PER_EMAIL: RateLimitRule = {
  limit: 3,
  windowSeconds: 60 * 60,
  message: 'We already sent several reset e-mails to this address. Please check your inbox, or try again in an hour.',
}

export const EMAIL_CHANGE_PER_USER: RateLimitRule = {
  limit: 5,
  windowSeconds: 60 * 60,
  message: 'Too many e-mail change requests. Please try again in an hour.',
}

export const VERIFICATION_RESEND_PER_USER: RateLimitRule = {
  limit: 3,
  windowSeconds: 60 * 60,
  message: 'We already sent several verification e-mails. Please check your inbox, or try again in an hour.',
}
