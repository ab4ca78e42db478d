import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { publicContentVersion } from '#server/db/schema/index.ts'

/** What public pages show, as a whole: its version changes with every change of it (database triggers). */
export function createPublicContentService(db: Db) {
  // Read for every batch of kept-page hits (server/http/page-cache.ts): built once, and a named
  // statement on PostgreSQL (parsed and planned once per connection).
  const current = db
    .select({ version: publicContentVersion.version })
    .from(publicContentVersion)
    .where(eq(publicContentVersion.id, 1))
    .prepare('public_content_version')
  return {
    /** Null when the row is missing (a database restored without it): then nothing is kept. */
    async version(): Promise<string | null> {
      const [row] = await current.execute()
      return row ? String(row.version) : null
    },
  }
}
