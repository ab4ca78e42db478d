import { sql } from 'drizzle-orm'
import { bigint, check, integer, pgTable } from 'drizzle-orm/pg-core'

/**
 * One row: the id of the last transaction that changed anything a public page shows (blog posts,
 * plans, site settings, authors' names). Triggers keep it (migration 0006), so every way of
 * writing counts, and the change is visible exactly when its data is. The server's page cache
 * (server/http/page-cache.ts) serves a kept page only while this is unchanged.
 */
export const publicContentVersion = pgTable(
  'public_content_version',
  {
    id: integer().primaryKey().default(1),
    version: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [check('public_content_version_single_row', sql`${table.id} = 1`)],
)
