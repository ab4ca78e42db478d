import { z } from './zod.ts'

export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

export const appSettingsSchema = z.object({
  siteName: z
    .string({ error: 'Site name is required' })
    .trim()
    .min(1, 'Site name is required')
    .max(60, 'Site name must be at most 60 characters.'),
  description: z.string().trim().max(300, 'Description must be at most 300 characters.'),
  defaultCredits: z.coerce
    .number({ error: 'Default credits must be a number.' })
    .int('Default credits must be a whole number.')
    .min(0, 'Default credits cannot be negative.')
    .max(1_000_000, 'Default credits must be at most 1,000,000.'),
  maintenanceMode: z.boolean(),
  theme: z.enum(THEMES, { error: 'Theme must be light, dark or system.' }),
  apiRateLimit: z.coerce
    .number({ error: 'API rate limit must be a number.' })
    .int('API rate limit must be a whole number.')
    .min(1, 'API rate limit must be between 1 and 10000 requests per minute.')
    .max(10_000, 'API rate limit must be between 1 and 10000 requests per minute.'),
})
export type AppSettings = z.infer<typeof appSettingsSchema>

/** What everyone but admins reads while System Settings' maintenance mode is on. */
export const MAINTENANCE_MESSAGE = 'We are down for maintenance and will be back shortly. Please try again in a few minutes.'
