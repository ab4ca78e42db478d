import type { WorkspaceRole } from './workspaces.ts'
import { timeZoneSchema } from './time-zones.ts'
import { withInputAliases } from './input-aliases.ts'
import { PHONE_ALIASES, phoneSchema } from './phone.ts'
import { z } from './zod.ts'

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Please enter a valid email address.'))
  .transform((email) => email.toLowerCase())

export const newPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)

export const fullNameSchema = z
  .string()
  .trim()
  .min(2, 'Name must be at least 2 characters.')
  .max(100, 'Name must be at most 100 characters.')

/** The spec's answer (section 5) to a sign-in without an e-mail address or without a password. */
export const MISSING_CREDENTIALS_MESSAGE = 'You must provide either an email or phone number and a password'

/** The sign-in form's fields: what the browser's own checks (required, type) are made from. */
export const loginFieldsSchema = z.object({
  email: emailSchema,
  // No length rule on sign-in beyond the upper bound: the rule is enforced when a password is set.
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
})

const given = (value: unknown, trim: boolean) => typeof value === 'string' && (trim ? value.trim() : value) !== ''

/**
 * A sign-in (the /auth form and POST /api/auth/login). Without an e-mail address or a password it
 * is refused with the spec's one message, not a message per field.
 */
export const loginSchema = z.preprocess((value, context) => {
  const fields = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  if (!given(fields.email, true) || !given(fields.password, false)) {
    context.addIssue({ code: 'custom', message: MISSING_CREDENTIALS_MESSAGE, path: [] })
  }
  return value
}, loginFieldsSchema)
export type LoginInput = z.infer<typeof loginSchema>

export const registerSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  fullName: fullNameSchema.optional(),
})
export type RegisterInput = z.infer<typeof registerSchema>

export const profileUpdateSchema = withInputAliases(
  PHONE_ALIASES,
  z.object({
    fullName: fullNameSchema.optional(),
    avatarUrl: z
      .url({ protocol: /^https?$/, error: 'Avatar URL must be an http or https address.' })
      .max(2048, 'Avatar URL must be at most 2048 characters.')
      .nullable()
      .optional(),
    /** The member's time zone for schedules; null: the browser's (docs/decisions/036). */
    timeZone: timeZoneSchema.nullable().optional(),
    /** E.164 (+14155550123); null or blank clears it. */
    phone: phoneSchema.optional(),
  }),
).refine((value) => Object.values(value).some((field) => field !== undefined), {
  message: 'Nothing to update: send fullName, avatarUrl, timeZone or phone.',
})
export type ProfileUpdateInput = z.infer<typeof profileUpdateSchema>

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordSchema,
  /** Also revoke every API key and connected device of the account (ADR 015: on unless the member keeps them). */
  revokeApiKeys: z.boolean({ error: 'revokeApiKeys must be true or false' }).default(true),
})
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>

export const ROLES = ['user', 'admin'] as const
export type Role = (typeof ROLES)[number]

/**
 * Who asks, as the services see them: a person (with their site role; a site admin may read
 * anyone's) working in one workspace, with their role there (docs/decisions/021).
 */
export interface Caller {
  id: string
  email: string
  /**
   * The person's address is verified: what reaches other people or costs money waits for it
   * (common/email-verification.ts). False for a schedule or a trigger URL, which are nobody asking.
   */
  emailVerified: boolean
  role: Role
  workspace: { id: string; role: WorkspaceRole }
}

/** The signed-in person as the session resolves them (the parts a Caller is made of). */
interface SignedInPerson {
  id: string
  email: string
  emailVerified: boolean
  profile: { role: Role }
  workspace: { id: string; role: WorkspaceRole } | null
}

/** The caller a signed-in person is in their current workspace (pages and API routes alike). */
export function callerOf(user: SignedInPerson): Caller {
  if (!user.workspace) throw new Error('the request has no workspace: its route must declare a workspace role')
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    role: user.profile.role,
    workspace: { id: user.workspace.id, role: user.workspace.role },
  }
}
