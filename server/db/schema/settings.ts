import { sql } from 'drizzle-orm'
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** The System Settings form, one row (id = 1). Defaults are the spec's. */
export const appSettings = pgTable(
  'app_settings',
  {
    id: integer().primaryKey().default(1),
    siteName: text().notNull().default('Aether'),
    description: text().notNull().default('AI-powered browser and desktop automation that saves you time.'),
    defaultCredits: integer().notNull().default(5),
    maintenanceMode: boolean().notNull().default(false),
    theme: text({ enum: ['light', 'dark', 'system'] })
      .notNull()
      .default('dark'),
    apiRateLimit: integer().notNull().default(60),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('app_settings_single_row', sql`${table.id} = 1`),
    check('app_settings_theme_check', sql`${table.theme} in ('light', 'dark', 'system')`),
    check('app_settings_credits_check', sql`${table.defaultCredits} >= 0`),
    check('app_settings_rate_check', sql`${table.apiRateLimit} > 0`),
  ],
)
