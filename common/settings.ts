import { z } from './zod.ts'

export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

export const appSettingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Site name is required').max(80),
  description: z.string().trim().max(300),
  defaultCredits: z.coerce.number().int().min(0).max(1_000_000),
  maintenanceMode: z.boolean(),
  theme: z.enum(THEMES),
  apiRateLimit: z.coerce.number().int().min(1).max(100_000),
})
export type AppSettings = z.infer<typeof appSettingsSchema>
