import { format } from 'date-fns'
import { PASSWORD_MAX_LENGTH } from './auth.ts'
import { AppError } from './errors.ts'
import { totpCodeSchema } from './two-factor.ts'
import { z } from './zod.ts'

// A member's own data (docs/decisions/065): everything we hold about them as a download, and
// deleting their account after a grace period in which signing in cancels it.

/** Days between asking to delete the account and its erasure; signing in meanwhile cancels it. */
export const ACCOUNT_DELETION_GRACE_DAYS = 14
/** Days an export's link (and its file) lasts. */
export const DATA_EXPORT_LINK_DAYS = 7
/** Hours after an export was asked for before the next one may be. */
export const DATA_EXPORT_EVERY_HOURS = 24
/** Exports a member may ask for in DATA_EXPORT_EVERY_HOURS, failed ones included (a failed build may be asked for again, not without end). */
export const DATA_EXPORT_TRIES_A_DAY = 3
/** Minutes an e-mailed deletion confirmation link (accounts without a password) works. */
export const DELETION_LINK_MINUTES = 60

export const DATA_EXPORT_STATUSES = ['queued', 'building', 'ready', 'failed', 'expired'] as const
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number]

/** A date as the e-mails and pages say it ("December 18, 2026", UTC on the server). */
export const longDate = (date: Date) => format(date, 'MMMM d, yyyy')

export const ACCOUNT_DELETION_PENDING_CODE = 'ACCOUNT_DELETION_PENDING'

/**
 * The account asked to be deleted and waits for its erasure: its API keys, devices, trigger URLs
 * and schedules are refused until the member signs in, which cancels the deletion. 403, not 401,
 * for the reason AccountSuspended gives: the credential works again after the cancellation.
 */
export class AccountDeletionPending extends AppError {
  constructor(eraseAfter: Date, what = 'This account') {
    super(
      403,
      `${what} is scheduled for deletion on ${longDate(eraseAfter)}. Sign in to cancel the deletion.`,
      ACCOUNT_DELETION_PENDING_CODE,
    )
  }
}

const passwordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)

/**
 * Confirming the deletion (POST /api/account/deletion, the Settings danger zone): the password, or a
 * code from the authenticator app when two-factor sign-in is on; an account without a password
 * (Google only) sends nothing first, gets an e-mailed link, and confirms with its token.
 */
export const accountDeletionSchema = z.object({
  password: passwordField.optional(),
  code: totpCodeSchema.optional(),
  token: z.string().trim().min(1).max(300).optional(),
})
export type AccountDeletionInput = z.infer<typeof accountDeletionSchema>

/** The form's fields: blanks are left out (the page sends both boxes, one of them empty). */
export const accountDeletionFormSchema = z.object({
  password: z.preprocess((value) => (value === '' ? undefined : value), passwordField.optional()),
  code: z.preprocess((value) => (value === '' ? undefined : value), totpCodeSchema.optional()),
  token: z.preprocess((value) => (value === '' ? undefined : value), z.string().trim().min(1).max(300).optional()),
})
