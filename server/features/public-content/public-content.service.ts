import { PGlite } from '@electric-sql/pglite'
import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { publicContentVersion } from '#server/db/schema/index.ts'

/** What public pages show, as a whole: its version changes with every change of it (database triggers). */
export function createPublicContentService(db: Db) {
  // Read for every batch of kept-page hits (server/http/page-cache.ts), so it is made cheap. On
  // PostgreSQL a named statement: parsed and planned once per connection. On PGlite a simple
  // query straight to the client: drizzle's way through it (result parsers copied per query)
  // costs it four times the CPU, measured.
  const prepared = db
    .select({ version: publicContentVersion.version })
    .from(publicContentVersion)
    .where(eq(publicContentVersion.id, 1))
    .prepare('public_content_version')
  const pglite = pgliteOf(db)
  return {
    /** Null when the row is missing (a database restored without it): then nothing is kept. */
    async version(): Promise<string | null> {
      const row = pglite
        ? (await pglite.exec('select version from public_content_version where id = 1'))[0]?.rows[0]
        : (await prepared.execute())[0]
      return row ? String(row.version) : null
    },
  }
}

/** The embedded database under drizzle, when it is one. */
function pgliteOf(db: Db): PGlite | null {
  const client = (db as unknown as { $client?: unknown }).$client
  return client instanceof PGlite ? client : null
}
