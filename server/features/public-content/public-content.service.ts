import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { publicContentVersion } from '#server/db/schema/index.ts'

/** What public pages show, as a whole: its version changes with every change of it (database triggers). */
export function createPublicContentService(db: Db) {
  return {
    /** Null when the row is missing (a database restored without it): then nothing is kept. */
    async version(): Promise<string | null> {
      const [row] = await db
        .select({ version: publicContentVersion.version })
        .from(publicContentVersion)
        .where(eq(publicContentVersion.id, 1))
      return row ? String(row.version) : null
    },
  }
}
