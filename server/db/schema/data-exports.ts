import { sql } from 'drizzle-orm'
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { DATA_EXPORT_STATUSES, type DataExportStatus } from '#common/account-data.ts'
import { users } from './auth.ts'

/**
 * A member's download of everything we hold about them (docs/decisions/065): asked for, built in
 * the background into DATA_DIR/exports/<id>.zip, e-mailed as a signed link, removed when it expires.
 * The row stays after its file is gone (status `expired`), so the 24-hour rule can read it.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text({ enum: DATA_EXPORT_STATUSES }).$type<DataExportStatus>().notNull().default('queued'),
    /** Set while a worker builds it: a build older than the stale limit is taken up again. */
    startedAt: timestamp({ withTimezone: true }),
    readyAt: timestamp({ withTimezone: true }),
    /** When the link stops working and the file is removed. */
    expiresAt: timestamp({ withTimezone: true }),
    bytes: bigint({ mode: 'number' }),
    /** Why the build failed, for the log and the member (no detail of our disk). */
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('data_exports_status_check', sql`${table.status} in ('queued', 'building', 'ready', 'failed', 'expired')`),
    index().on(table.userId, table.createdAt),
    // One export at a time per member, whatever races.
    uniqueIndex('data_exports_one_open_idx')
      .on(table.userId)
      .where(sql`${table.status} in ('queued', 'building')`),
    // What the background loop looks for: exports to build, files to remove.
    index('data_exports_open_idx')
      .on(table.createdAt)
      .where(sql`${table.status} in ('queued', 'building')`),
    index('data_exports_ready_idx')
      .on(table.expiresAt)
      .where(sql`${table.status} = 'ready'`),
  ],
)
