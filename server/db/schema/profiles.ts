import { sql } from 'drizzle-orm'
import { check, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** A member's person: role, name and picture. Plan and credits belong to workspaces (workspaces.ts). */
export const profiles = pgTable(
  'profiles',
  {
    id: text()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    fullName: text(),
    avatarUrl: text(),
    /** The IANA zone new schedules start in and run times are shown in; null: the browser's (docs/decisions/036). */
    timeZone: text(),
    /** E.164 (+14155550123), optional; common/phone.ts checks it, the check below keeps anything else out. */
    phone: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('profiles_role_check', sql`${table.role} in ('user', 'admin')`),
    check('profiles_phone_check', sql`${table.phone} is null or ${table.phone} ~ '^[+][1-9][0-9]{6,14}$'`),
  ],
)
