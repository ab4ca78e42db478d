import { spawn } from 'node:child_process'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createScratchDatabase, postgresReachable } from '#server/testing/server-process.ts'
import { BOOT_LOCK_KEY } from './client.ts'

// `npm run db:migrate` on PostgreSQL waits while a starting server migrates and seeds (it holds
// the boot lock), so the two never apply the same migration at once.
const postgres = await postgresReachable('db-migrate-script.test.ts')

function runMigrateScript(databaseUrl: string) {
  const child = spawn(process.execPath, ['scripts/db-migrate.js'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { child, exited, output: () => output }
}

describe.runIf(postgres)('npm run db:migrate on PostgreSQL', () => {
  it('waits for the boot lock, then applies every migration', async () => {
    const scratch = await createScratchDatabase('aether_migrate_script')
    const holder = new pg.Client({ connectionString: scratch.url })
    await holder.connect()
    try {
      await holder.query('select pg_advisory_lock($1)', [BOOT_LOCK_KEY])
      const run = runMigrateScript(scratch.url)
      const early = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))])
      expect(early, run.output()).toBe('still waiting')
      const before = await holder.query(`select to_regclass('public.public_content_version') as found`)
      expect(before.rows[0].found).toBeNull()

      await holder.query('select pg_advisory_unlock($1)', [BOOT_LOCK_KEY])
      expect(await run.exited, run.output()).toBe(0)
      expect(run.output()).toContain('migrations applied to PostgreSQL')
      const after = await holder.query(`select version from public_content_version`)
      expect(after.rows).toHaveLength(1)
    } finally {
      await holder.end()
      await scratch.drop()
    }
  }, 60_000)
})
