import { fullNameSchema, newPasswordSchema, registerSchema, ROLES } from './auth.ts'
import { withInputAliases } from './input-aliases.ts'
import { PHONE_ALIASES, phoneSchema } from './phone.ts'
import { z } from './zod.ts'

/** Credits an admin may set: whole numbers from 0 (the spec's 'numeric, minimum 0'). */
const creditsSchema = z.coerce
  .number({ error: 'Credits must be a number.' })
  .int('Credits must be a whole number.')
  .min(0, 'Credits cannot be negative.')
  .max(10_000_000, 'Credits must be at most 10,000,000.')

// The spec's clients spell some fields two ways; both are accepted.
const ALIASES: Record<string, string> = {
  full_name: 'fullName',
  subscription_plan: 'plan',
  subscriptionPlan: 'plan',
  ...PHONE_ALIASES,
}

/** An admin's edit of a user (Edit User dialog, plan select, credits input, PUT /api/users/:id). */
export const adminUserUpdateSchema = withInputAliases(
  ALIASES,
  z.object({
    fullName: fullNameSchema.optional(),
    role: z.enum(ROLES, { error: 'Role must be user or admin.' }).optional(),
    plan: z.string().trim().toLowerCase().min(1, 'Choose a plan.').max(60).optional(),
    credits: creditsSchema.optional(),
    phone: phoneSchema.optional(),
  }),
).refine((value) => Object.values(value).some((field) => field !== undefined), {
  message: 'Nothing to update: send fullName, role, plan, credits or phone.',
})
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>

export const adminUserCreateSchema = withInputAliases(
  PHONE_ALIASES,
  registerSchema.extend({
    role: z.enum(ROLES, { error: 'Role must be user or admin.' }).default('user'),
    phone: phoneSchema.optional(),
  }),
)
export type AdminUserCreate = z.infer<typeof adminUserCreateSchema>

export const adminPasswordResetSchema = z.object({ newPassword: newPasswordSchema })

export const adminEmailSchema = z.object({
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(200, 'Subject must be at most 200 characters.'),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message must be at most 5000 characters.'),
})
export type AdminEmail = z.infer<typeof adminEmailSchema>
