import { AppError } from './errors.ts'
import { z } from './zod.ts'

/** What every refusal of a suspended account says, wherever it signs in or calls from (docs/decisions/062). */
export const ACCOUNT_SUSPENDED_MESSAGE = 'This account is suspended.'
export const ACCOUNT_SUSPENDED_CODE = 'ACCOUNT_SUSPENDED'

/**
 * A suspended account asked (an API key, a connected device, a sign-in) or is asked for (a trigger
 * URL, a schedule). 403, not 401: the key or device is still the member's and works again once the
 * account is restored, and clients forget a credential the server answers 401 to.
 */
export class AccountSuspended extends AppError {
  constructor(message = ACCOUNT_SUSPENDED_MESSAGE) {
    super(403, message, ACCOUNT_SUSPENDED_CODE)
  }
}

/** The longest reason an admin may give. */
export const ADMIN_REASON_MAX_LENGTH = 500

/** Why an admin does something to a member's account, in their words (kept in the audit log). */
export const adminReasonSchema = z
  .string({ error: 'Please give a reason.' })
  .trim()
  .min(1, 'Please give a reason.')
  .max(ADMIN_REASON_MAX_LENGTH, `The reason must be at most ${ADMIN_REASON_MAX_LENGTH} characters.`)

/** An admin suspends a member (the Users table's dialog, POST /api/users/:id/suspend): why, in their words. */
export const suspendUserSchema = z.object({ reason: adminReasonSchema })
export type SuspendUser = z.infer<typeof suspendUserSchema>
