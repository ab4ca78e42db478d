import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { subscriptionPlans } from './plans.ts'

export const profiles = pgTable(
  'profiles',
  {
    id: text()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    /** A plan with members cannot be deleted (RESTRICT), even by a delete racing an assignment. */
    subscriptionPlan: text()
      .notNull()
      .default('free')
      .references(() => subscriptionPlans.slug, { onDelete: 'restrict', onUpdate: 'cascade' }),
    credits: integer().notNull().default(0),
    fullName: text(),
    avatarUrl: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('profiles_role_check', sql`${table.role} in ('user', 'admin')`),
    check('profiles_credits_check', sql`${table.credits} >= 0`),
    index().on(table.subscriptionPlan),
  ],
)
