import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'

/** Where the migrated template is; each test file's in-memory database starts as a copy of it. */
export const PGLITE_TEMPLATE_VARIABLE = 'AETHER_TEST_PGLITE_TEMPLATE'

/**
 * Vitest's global set-up (docs/decisions/047): the migrations applied once, to one in-memory PGlite,
 * dumped to a file. A new PGlite spends about 3 s in initdb and half a second in the migrations;
 * a copy of the dump starts in about one, and every test file opens one or more.
 */
export default async function createPgliteTemplate() {
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) return undefined
  const folder = mkdtempSync(path.join(tmpdir(), 'aether-pglite-template-'))
  const file = path.join(folder, 'migrated.tar')
  const pglite = new PGlite()
  await migrate(drizzle({ client: pglite }), { migrationsFolder: path.resolve('server/db/migrations') })
  const dump = await pglite.dumpDataDir('none')
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  await pglite.close()
  process.env[PGLITE_TEMPLATE_VARIABLE] = file
  return () => rmSync(folder, { recursive: true, force: true })
}
