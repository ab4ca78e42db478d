import { z } from '@hono/zod-openapi'
import type { Profile } from '#server/features/profiles/profile.service.ts'
import { profileSchema, toProfileDto } from '#server/http/profile-dto.ts'

export const userSchema = z
  .object({ id: z.string(), email: z.string(), emailVerified: z.boolean(), profile: profileSchema })
  .openapi('User')

export function toUserDto(user: { id: string; email: string; emailVerified?: boolean; profile: Profile }): z.infer<typeof userSchema> {
  return { id: user.id, email: user.email, emailVerified: user.emailVerified ?? false, profile: toProfileDto(user.profile) }
}
