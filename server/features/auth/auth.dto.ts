import { z } from '@hono/zod-openapi'
import type { Profile } from '#server/features/profiles/profile.service.ts'

// The spec's clients read both spellings of some profile fields (subscription_plan and
// subscriptionPlan, full_name and fullName), so the profile carries both.
export const profileSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    role: z.enum(['user', 'admin']),
    subscriptionPlan: z.string(),
    subscription_plan: z.string(),
    credits: z.number().int(),
    fullName: z.string().nullable(),
    full_name: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    avatar_url: z.string().nullable(),
    createdAt: z.string(),
    created_at: z.string(),
  })
  .openapi('Profile')

export const userSchema = z
  .object({ id: z.string(), email: z.string(), emailVerified: z.boolean(), profile: profileSchema })
  .openapi('User')

export function toProfileDto(profile: Profile): z.infer<typeof profileSchema> {
  const createdAt = profile.createdAt.toISOString()
  return {
    id: profile.id,
    userId: profile.id,
    role: profile.role,
    subscriptionPlan: profile.subscriptionPlan,
    subscription_plan: profile.subscriptionPlan,
    credits: profile.credits,
    fullName: profile.fullName,
    full_name: profile.fullName,
    avatarUrl: profile.avatarUrl,
    avatar_url: profile.avatarUrl,
    createdAt,
    created_at: createdAt,
  }
}

export function toUserDto(user: { id: string; email: string; emailVerified?: boolean; profile: Profile }): z.infer<typeof userSchema> {
  return { id: user.id, email: user.email, emailVerified: user.emailVerified ?? false, profile: toProfileDto(user.profile) }
}
