// npm run db:backup -- [file] [--force]
// Backs up the database the server uses (docs/operations.md, "Backups and restore"):
// - DATABASE_URL set: pg_dump --format=custom, a consistent snapshot even while servers run.
// - otherwise the embedded PGlite in DATA_DIR/pglite, as a gzipped tarball of its data directory
//   (PGlite's dumpDataDir, which its loadDataDir option reads back). The server must be stopped.
// Default file: backups/aether-<postgres|pglite>-<timestamp>.<dump|tar.gz>.
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  UserError,
  assertPgliteIdle,
  connectionFor,
  findPgTool,
  formatBytes,
  inspectPostgres,
  loadConfig,
  parseArgs,
  redactUrl,
  run,
  runScript,
  timestamp,
  toolMajor,
} from './db-backup-tools.js'

const HELP = `Usage: npm run db:backup -- [file] [--force]

Backs up DATABASE_URL with pg_dump --format=custom, or, without DATABASE_URL, the embedded
database in DATA_DIR/pglite (stop the server first) as a .tar.gz of its data directory.
Default file: backups/aether-<kind>-<timestamp>.<dump|tar.gz>. An existing file is not overwritten.
--force: back up the embedded database although it is marked as open (postmaster.pid) while no
process has it open (a server that crashed).`

await runScript('db:backup', async () => {
  const options = parseArgs(process.argv.slice(2))
  if (options.help) return console.log(HELP)
  const config = loadConfig()
  const kind = config.url ? 'postgres' : 'pglite'
  const file = path.resolve(
    options.file ?? path.join('backups', `aether-${kind}-${timestamp()}.${kind === 'postgres' ? 'dump' : 'tar.gz'}`),
  )
  if (existsSync(file)) throw new UserError(`${file} already exists: choose another file name`)
  mkdirSync(path.dirname(file), { recursive: true })
  // Written under a temporary name first: an interrupted backup never looks like a finished one.
  const partial = `${file}.partial`
  try {
    if (config.url) await backupPostgres(config.url, partial)
    else await backupPglite(config.pgliteDir, partial, options.force)
    renameSync(partial, file)
  } finally {
    rmSync(partial, { force: true })
  }
  console.log(`backup written to ${file} (${formatBytes(statSync(file).size)})`)
})

async function backupPostgres(url, file) {
  const pgDump = findPgTool('pg_dump')
  const server = await inspectPostgres(url)
  const client = await toolMajor(pgDump)
  if (client < server.major) {
    throw new UserError(
      `${pgDump} is version ${client}, older than the server (${server.major}): install the client tools of version ${server.major} or newer`,
    )
  }
  console.log(`backing up ${redactUrl(url)} (PostgreSQL ${server.major}, ${server.tables} tables) with ${pgDump}`)
  const { dbname, env } = connectionFor(url)
  await run(pgDump, ['--format=custom', `--file=${file}`, `--dbname=${dbname}`], { env })
}

async function backupPglite(pgliteDir, file, force) {
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new UserError(
      `no embedded database in ${pgliteDir} (DATA_DIR=${process.env.DATA_DIR ?? './data'}; set DATABASE_URL for PostgreSQL)`,
    )
  }
  assertPgliteIdle(pgliteDir, force, console.warn)
  console.log(`backing up the embedded database in ${pgliteDir}`)
  const { PGlite } = await import('@electric-sql/pglite')
  const client = new PGlite(pgliteDir)
  try {
    await client.waitReady
    // Everything on disk, so the copy starts without replaying the write-ahead log.
    await client.exec('CHECKPOINT')
    const tarball = await client.dumpDataDir('gzip')
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()))
  } finally {
    await client.close()
  }
}
