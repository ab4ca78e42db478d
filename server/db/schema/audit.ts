import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { workspaces } from './workspaces.ts'

/** What an activity entry is about. */
export const ACTIVITY_TARGETS = [
  'user',
  'plan',
  'post',
  'inquiry',
  'settings',
  'workspace',
  'member',
  'invitation',
  'automation',
  'run',
  'api_key',
  'subscription',
  'template',
  'webhook',
  'secret',
  'device',
] as const

/**
 * The one activity table: every change an admin makes, and what happens in a workspace (who
 * changed which automation, who ran what, who invited or removed whom, keys, billing). The
 * admin's audit log reads all of it; a workspace's activity page reads its own rows.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The workspace it happened in; null for the site's own settings and content (and once the workspace is deleted). */
    workspaceId: text().references(() => workspaces.id, { onDelete: 'set null' }),
    actorId: text().references(() => users.id, { onDelete: 'set null' }),
    /** Kept as text too, so the entry still names the admin after their account is deleted. */
    actorEmail: text().notNull(),
    /** 'user.update', 'plan.delete', 'settings.update', … */
    action: text().notNull(),
    targetType: text({ enum: ACTIVITY_TARGETS }).notNull(),
    targetId: text(),
    summary: text().notNull(),
    before: jsonb().$type<Record<string, unknown> | null>(),
    after: jsonb().$type<Record<string, unknown> | null>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.createdAt), index().on(table.targetType, table.targetId), index().on(table.workspaceId, table.createdAt)],
)
