import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { TEMPLATE_CATEGORIES, type TemplateInput } from '#common/templates.ts'

/**
 * The template gallery (docs/decisions/022): steps (version 2) whose string values may hold named
 * inputs such as `{{search_term}}`, published by the site's admins. Using one copies its steps,
 * filled in, into a new automation of the member's workspace; nothing links the two afterwards.
 */
export const automationTemplates = pgTable(
  'automation_templates',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    slug: text().notNull().unique(),
    category: text({ enum: TEMPLATE_CATEGORIES }).notNull(),
    description: text().notNull().default(''),
    /** Checked with the example values filled in when saved (common/template-steps.ts). */
    steps: jsonb().$type<unknown[]>().notNull(),
    stepsVersion: integer().notNull().default(4),
    inputs: jsonb().$type<TemplateInput[]>().notNull().default([]),
    /** Only plans with `advanced_templates` may use it. */
    advanced: boolean().notNull().default(false),
    /** Members see published templates only. */
    published: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'automation_templates_category_check',
      sql.raw(`"category" in (${TEMPLATE_CATEGORIES.map((category) => `'${category}'`).join(', ')})`),
    ),
    index().on(table.published, table.category),
  ],
)
