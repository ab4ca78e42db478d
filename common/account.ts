import { emailSchema, fullNameSchema, newPasswordSchema, PASSWORD_MAX_LENGTH } from './auth.ts'
import { phoneSchema } from './phone.ts'
import { timeZoneSchema } from './time-zones.ts'
import { z } from './zod.ts'

/**
 * Settings' 'Account Settings' form. A changed e-mail is confirmed from the new address first. The
 * time zone is where new schedules start and run times show (docs/decisions/036); blank: the browser's.
 * The phone number is optional.
 */
export const accountSettingsSchema = z.object({
  email: emailSchema,
  fullName: z.string({ error: 'Name must be at least 2 characters.' }).pipe(fullNameSchema),
  timeZone: timeZoneSchema.optional().transform((value) => value ?? null),
  /** Optional, E.164 (common/phone.ts); blank clears it. */
  phone: phoneSchema.optional().transform((value) => value ?? null),
})

/** Settings' password form (signed in: the current password proves it is you). */
export const passwordChangeFormSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordSchema,
  /** A checkbox, checked by default: unchecked, the form sends nothing. */
  revokeApiKeys: z.boolean().optional(),
})

/** 'Forgot your password?' */
export const forgotPasswordSchema = z.object({ email: emailSchema })

/** The page a reset link opens. */
export const resetPasswordSchema = z
  .object({
    token: z.string({ error: 'This reset link is incomplete.' }).min(1, 'This reset link is incomplete.').max(200),
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: 'Please repeat the new password.' }).max(PASSWORD_MAX_LENGTH),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { path: ['confirmPassword'], message: 'The passwords do not match.' })
