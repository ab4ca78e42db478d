import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql, type SQL } from 'drizzle-orm'

/** The folder the server migrates from (relative to the current directory, as in client.ts). */
const MIGRATIONS_FOLDER = path.resolve(process.cwd(), 'server/db/migrations')

/**
 * Whether the database lacks a migration of the folder. Drizzle's migrator applies the migrations
 * newer than the newest it recorded (created_at in drizzle.__drizzle_migrations is the journal's
 * `when`), so when the newest recorded is the journal's newest there is nothing to apply. One
 * query and the journal: the migrator itself reads and hashes every file and runs four statements
 * and a transaction even then (issue 18, cold start).
 */
export async function migrationsPending(
  db: { execute(query: SQL): Promise<unknown> },
  migrationsFolder = MIGRATIONS_FOLDER,
): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[]
  }
  const newestInFolder = Math.max(...journal.entries.map((entry) => entry.when))
  let newestApplied: number | null
  try {
    const result = (await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`)) as unknown as {
      rows: { newest: string | number | null }[]
    }
    const newest = result.rows[0]?.newest
    newestApplied = newest == null ? null : Number(newest)
  } catch {
    // No migrations table (a new database), or the query failed: the migrator decides, and reports.
    return true
  }
  return newestApplied === null || newestApplied < newestInFolder
}
