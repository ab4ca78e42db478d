import type { PGlite } from '@electric-sql/pglite'
import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import type { HeardChanges } from '#server/db/heard-changes.ts'
import { publicContentVersion } from '#server/db/schema/index.ts'

const STATEMENT = 'public_content_version'

/** What public pages show, as a whole: its version changes with every change of it (database triggers). */
export function createPublicContentService(db: Db, changes: HeardChanges) {
  // Read for every batch of kept-page hits (server/http/page-cache.ts), so it is made cheap, and
  // measured: on PostgreSQL a named statement, parsed and planned once per connection; on PGlite,
  // which has one connection, a statement prepared once and executed by a simple query straight
  // to the client (drizzle's way through PGlite cost four times the CPU, and parsing and planning
  // each read twice that of the execution).
  const prepared = db
    .select({ version: publicContentVersion.version })
    .from(publicContentVersion)
    .where(eq(publicContentVersion.id, 1))
    .prepare(STATEMENT)
  const pglite = embeddedOf(db)
  let preparedOnPglite: Promise<unknown> | null = null

  async function readOnPglite(client: Embedded, again = false): Promise<Record<string, unknown> | undefined> {
    // Again: whatever is left of the statement goes first (it may exist but have failed to run).
    preparedOnPglite ??= (again ? client.exec(`deallocate ${STATEMENT}`).catch(() => {}) : Promise.resolve()).then(() =>
      client.exec(`prepare ${STATEMENT} as select version from public_content_version where id = 1`),
    )
    try {
      await preparedOnPglite
      const [result] = await client.exec(`execute ${STATEMENT}`)
      return result?.rows[0]
    } catch (error) {
      // Prepared again once; if that fails too, the failure is the answer (and the next read prepares again).
      preparedOnPglite = null
      if (again) throw error
      return readOnPglite(client, true)
    }
  }

  return {
    /**
     * The version as this process knows it without asking, from the changes it has heard of
     * (server/db/heard-changes.ts); null when it could have missed one: then read `version()`.
     */
    heard(): string | null {
      const seen = changes.seen()
      return seen === null ? null : `heard:${seen}`
    },
    /** Null when the row is missing (a database restored without it): then nothing is kept. */
    async version(): Promise<string | null> {
      const row = pglite ? await readOnPglite(pglite) : (await prepared.execute())[0]
      return row ? String(row.version) : null
    },
  }
}

/** What the embedded database's client offers (PGlite, or PGlite in its thread: server/db/pglite-thread.ts). */
type Embedded = Pick<PGlite, 'exec'>

/** The embedded database's client under drizzle, when it is one: node-postgres' pool has no `exec`. */
function embeddedOf(db: Db): Embedded | null {
  const client = (db as unknown as { $client?: Partial<Embedded> }).$client
  return typeof client?.exec === 'function' ? (client as Embedded) : null
}
