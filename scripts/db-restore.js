// npm run db:restore -- <file> [--force]
// Restores a backup made by db:backup into the database the server uses (docs/operations.md,
// "Backups and restore"). The kind of backup must match the configuration: a pg_dump archive needs
// DATABASE_URL, an embedded-database tarball needs it unset. Replacing data needs --force, and the
// data replaced is kept: the embedded one is moved aside, a PostgreSQL one is dumped first.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import {
  UserError,
  assertPgliteIdle,
  connectionFor,
  detectFormat,
  findPgTool,
  inspectPostgres,
  loadConfig,
  parseArgs,
  redactUrl,
  run,
  runScript,
  timestamp,
  toolMajor,
} from './db-backup-tools.js'

const HELP = `Usage: npm run db:restore -- <file> [--force]

Restores a file made by db:backup: a pg_dump custom archive into DATABASE_URL (pg_restore --clean
--if-exists --no-owner, in one transaction), or an embedded-database tarball into DATA_DIR/pglite
(stop the server first). Without --force it refuses to replace existing data. With --force the
embedded database is moved aside to DATA_DIR/pglite.before-restore-<timestamp>, and a PostgreSQL
database is first dumped to backups/aether-postgres-before-restore-<timestamp>.dump.`

await runScript('db:restore', async () => {
  const options = parseArgs(process.argv.slice(2))
  if (options.help) return console.log(HELP)
  if (!options.file) throw new UserError('which backup? Usage: npm run db:restore -- <file> [--force]')
  const file = path.resolve(options.file)
  const format = detectFormat(file)
  const config = loadConfig()
  if (format === 'postgres' && !config.url) {
    throw new UserError(`${file} is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set: set it to the database to restore into`)
  }
  if (format === 'pglite' && config.url) {
    throw new UserError(`${file} is a backup of the embedded database, but DATABASE_URL is set: unset it to restore into DATA_DIR/pglite`)
  }
  if (config.url) await restorePostgres(config.url, file, options.force)
  else await restorePglite(config.pgliteDir, file, options.force)
})

async function restorePostgres(url, file, force) {
  const pgRestore = findPgTool('pg_restore')
  const target = await inspectPostgres(url)
  const where = redactUrl(url)
  if (target.otherSessions.length) {
    const message = `${target.otherSessions.length} other session(s) use ${where} (${[...new Set(target.otherSessions)].join(', ')})`
    if (!force) throw new UserError(`${message}: stop the Aether servers first, or rerun with --force`)
    console.warn(`warning: ${message}; going ahead because of --force`)
  }
  const { dbname, env } = connectionFor(url)
  if (target.tables > 0) {
    if (!force) {
      throw new UserError(
        `${where} already has ${target.tables} tables: rerun with --force to replace them (they are dumped to backups/ first)`,
      )
    }
    const pgDump = findPgTool('pg_dump')
    if ((await toolMajor(pgDump)) < target.major) throw new UserError(`${pgDump} is older than the server: cannot keep the current data`)
    const aside = path.resolve('backups', `aether-postgres-before-restore-${timestamp()}.dump`)
    mkdirSync(path.dirname(aside), { recursive: true })
    await run(pgDump, ['--format=custom', `--file=${aside}`, `--dbname=${dbname}`], { env })
    console.log(`the current data of ${where} is kept in ${aside}`)
  }
  console.log(`restoring ${file} into ${where} with ${pgRestore}`)
  // One transaction: a restore that fails part-way changes nothing.
  await run(pgRestore, ['--clean', '--if-exists', '--no-owner', '--single-transaction', `--dbname=${dbname}`, file], { env })
  console.log(`restored ${file} into ${where}`)
}

async function restorePglite(pgliteDir, file, force) {
  const existing = existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0
  if (existing) {
    assertPgliteIdle(pgliteDir, force, console.warn)
    if (!force)
      throw new UserError(`${pgliteDir} already holds a database: rerun with --force to replace it (it is moved aside, not deleted)`)
  }
  const stamp = timestamp()
  // Loaded into a new folder first: a tarball PGlite cannot start from leaves the current data as it was.
  const staging = `${pgliteDir}.restoring-${stamp}`
  mkdirSync(path.dirname(pgliteDir), { recursive: true })
  const { PGlite } = await import('@electric-sql/pglite')
  let client
  try {
    client = new PGlite(staging, { loadDataDir: new Blob([readFileSync(file)]) })
    await client.waitReady
    await client.query('select 1')
    await client.exec('CHECKPOINT')
  } catch (error) {
    await client?.close().catch(() => {})
    rmSync(staging, { recursive: true, force: true })
    throw new UserError(`the embedded database cannot start from ${file}: ${error.message ?? error}`)
  }
  await client.close()
  if (existing) {
    const aside = `${pgliteDir}.before-restore-${stamp}`
    renameSync(pgliteDir, aside)
    console.log(`the current database is kept in ${aside}`)
  }
  renameSync(staging, pgliteDir)
  console.log(`restored ${file} into ${pgliteDir}`)
}
