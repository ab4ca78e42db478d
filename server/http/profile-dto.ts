import { z } from '@hono/zod-openapi'
import type { Profile } from '#server/features/profiles/profile.service.ts'
import { addSnakeCaseTwins, withSnakeCaseTwins } from './field-aliases.ts'

/** A member's profile as the API answers it (the current user, the admin's user list). */
const PROFILE_TWINS = ['subscriptionPlan', 'fullName', 'avatarUrl', 'createdAt'] as const

export const profileSchema = withSnakeCaseTwins(
  {
    id: z.string(),
    userId: z.string(),
    role: z.enum(['user', 'admin']),
    subscriptionPlan: z.string(),
    credits: z.number().int(),
    fullName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    timeZone: z.string().nullable().openapi({
      description: 'IANA time zone new schedules start in and run times are shown in; null: the browser’s (docs/decisions/036)',
    }),
    phone: z.string().nullable().openapi({ description: 'E.164, e.g. +14155550123; null when none is given', example: '+14155550123' }),
    createdAt: z.string(),
  },
  PROFILE_TWINS,
).openapi('Profile')

export function toProfileDto(profile: Profile): z.infer<typeof profileSchema> {
  return addSnakeCaseTwins(
    {
      id: profile.id,
      userId: profile.id,
      role: profile.role,
      subscriptionPlan: profile.subscriptionPlan,
      credits: profile.credits,
      fullName: profile.fullName,
      avatarUrl: profile.avatarUrl,
      timeZone: profile.timeZone,
      phone: profile.phone,
      createdAt: profile.createdAt.toISOString(),
    },
    PROFILE_TWINS,
  )
}
