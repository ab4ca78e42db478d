import { z } from './zod.ts'

/** How the forms show a phone number should look. */
export const PHONE_EXAMPLE = '+14155550123'
export const PHONE_MESSAGE = `Enter the phone number in international format: a + and the country code, then the number (for example ${PHONE_EXAMPLE}).`

/** E.164: a +, a country code that does not start with 0, and at most 15 digits in all (7 at least, for a real number). */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/
/** What people type between the digits ("+1 (415) 555-0123"): dropped before the number is checked. */
const SEPARATORS = /[\s().-]/g

/**
 * A profile's phone number (spec section 3: the admin's user list shows it). Optional: blank or
 * null clears it. Stored as E.164 (+14155550123), whatever separators were typed.
 */
export const phoneSchema = z
  .string({ error: PHONE_MESSAGE })
  .max(40, PHONE_MESSAGE)
  .transform((value) => value.replace(SEPARATORS, ''))
  .refine((value) => value === '' || E164_PATTERN.test(value), PHONE_MESSAGE)
  .transform((value) => (value === '' ? null : value))
  .nullable()

/** Other spellings of `phone` the API accepts (its aliases, as full_name for fullName). */
export const PHONE_ALIASES: Record<string, string> = { phone_number: 'phone', phoneNumber: 'phone' }
