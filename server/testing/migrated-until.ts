import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'

export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), 'server/db/migrations')

/**
 * A fresh PGlite database migrated up to, not including, the migration tagged `before`: the state
 * a migration test seeds before running the rest (`migrateRest`). `close` removes it all.
 */
export async function migratedUntil(before: string) {
  const folder = mkdtempSync(path.join(tmpdir(), 'aether-migrations-'))
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true })
  const journalPath = path.join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const index = journal.entries.findIndex((entry) => entry.tag === before)
  if (index < 1) throw new Error(`no migration before ${before}`)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }))
  const client = new PGlite()
  const db = drizzle({ client })
  await migrate(db, { migrationsFolder: folder })
  return {
    client,
    db,
    migrateRest: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await client.close()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
