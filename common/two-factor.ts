import { PASSWORD_MAX_LENGTH } from './auth.ts'
import { z } from './zod.ts'

// Two-factor sign-in and passkeys (docs/decisions/023): the forms of Settings and /auth, the own
// API's bodies, and the refusal of a workspace that requires two-factor sign-in.

/** What POST /api/auth/login answers (401) for an account with two-factor on: the password was right. */
export const SECOND_FACTOR_REQUIRED = 'SECOND_FACTOR_REQUIRED'
export const SECOND_FACTOR_MESSAGE = 'Two-factor code required'

/** How many recovery codes a set-up (or a new set) gives. */
export const RECOVERY_CODE_COUNT = 10

const passwordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)

/** A 6-digit code from an authenticator app; spaces ("123 456") are ignored. */
export const totpCodeSchema = z
  .string({ error: 'Enter the 6-digit code from your authenticator app.' })
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'))

/** A recovery code as shown at set-up ("abcde-12345"); spaces around it are ignored. */
export const recoveryCodeSchema = z
  .string({ error: 'Enter one of your recovery codes.' })
  .trim()
  .min(1, 'Enter one of your recovery codes.')
  .max(32, 'That is not a recovery code.')

/** The ticket a correct password gave: short-lived, single use (the own API's second step). */
export const ticketSchema = z.string({ error: 'ticket is required' }).min(1, 'ticket is required').max(512)

/** The own API's second step: the ticket and either the app's code or a recovery code. */
export const secondFactorSchema = z
  .object({ ticket: ticketSchema, code: totpCodeSchema.optional(), recoveryCode: recoveryCodeSchema.optional() })
  .refine((value) => (value.code === undefined) !== (value.recoveryCode === undefined), {
    message: 'Send either code (from the authenticator app) or recoveryCode.',
  })
export type SecondFactorInput = z.infer<typeof secondFactorSchema>

/** The /auth page's second step (the ticket is in its cookie). */
export const secondFactorFormSchema = z.object({ code: totpCodeSchema })
export const recoveryCodeFormSchema = z.object({ recoveryCode: recoveryCodeSchema })

/** Starting a set-up, and a new set of recovery codes: the password proves it is you. */
export const passwordConfirmSchema = z.object({ password: passwordField })
export type PasswordConfirm = z.infer<typeof passwordConfirmSchema>

/** Finishing a set-up: the first code from the app. */
export const twoFactorConfirmSchema = z.object({ code: totpCodeSchema })

/** Turning two-factor off: the password, or a code from the app. */
export const twoFactorDisableSchema = z
  .object({ password: passwordField.optional(), code: totpCodeSchema.optional() })
  .refine((value) => value.password !== undefined || value.code !== undefined, {
    message: 'Send your password or a code from your authenticator app.',
  })
export type TwoFactorDisable = z.infer<typeof twoFactorDisableSchema>

export const passkeyNameSchema = z
  .string({ error: 'Give the passkey a name.' })
  .trim()
  .min(1, 'Give the passkey a name.')
  .max(60, 'A passkey name must be at most 60 characters.')

/** Asking to add a passkey: its name and the password. */
export const passkeyRegisterOptionsSchema = z.object({ name: passkeyNameSchema, password: passwordField })

/** The browser's answer to navigator.credentials.create()/get(), as @simplewebauthn/browser encodes it. */
export const webAuthnResponseSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
})

export const passkeyRegisterSchema = z.object({ name: passkeyNameSchema, response: webAuthnResponseSchema })
export const passkeySignInSchema = z.object({ response: webAuthnResponseSchema })
