import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** Every change an admin makes: who, what, before and after, and when. Read-only in the admin. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: text().references(() => users.id, { onDelete: 'set null' }),
    /** Kept as text too, so the entry still names the admin after their account is deleted. */
    actorEmail: text().notNull(),
    /** 'user.update', 'plan.delete', 'settings.update', … */
    action: text().notNull(),
    targetType: text({ enum: ['user', 'plan', 'post', 'inquiry', 'settings'] }).notNull(),
    targetId: text(),
    summary: text().notNull(),
    before: jsonb().$type<Record<string, unknown> | null>(),
    after: jsonb().$type<Record<string, unknown> | null>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.createdAt), index().on(table.targetType, table.targetId)],
)
