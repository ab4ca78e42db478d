import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apiClient,
  createScratchDatabase,
  ensureFreshBuild,
  postgresReachable,
  SEEDED_ADMIN,
  SEEDED_MEMBER,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '#server/testing/server-process.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'

// Two real server processes (the production build) on one fresh PostgreSQL database share the
// cloud queue: every queued run executes exactly once. Skipped, and says so, without PostgreSQL.
// It builds (under the shared build lock) when the build is missing or older than the sources.

const RUNS = 6
const postgres = await postgresReachable('cloud-worker.processes.test.ts')
const AUTH_SECRET = randomBytes(32).toString('base64url')
const WORKER_ENV = {
  RUN_WORKER: 'true',
  RUN_CONCURRENCY: '1',
  // The test page is on 127.0.0.1.
  RUN_ALLOW_PRIVATE_TARGETS: 'loopback',
  CHROMIUM_PATH: '/usr/bin/chromium',
}

describe.skipIf(!postgres)('two server processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
  let db: pg.Client | undefined
  let site: Awaited<ReturnType<typeof startTestSite>> | undefined
  let first: ServerProcess | undefined
  let second: ServerProcess | undefined

  beforeAll(async () => {
    ensureFreshBuild()
    database = await createScratchDatabase('aether_workers')
    site = await startTestSite()
    // Both at once on the empty database: one migrates and seeds while the other waits for it.
    const options = { databaseUrl: database.url, authSecret: AUTH_SECRET, env: WORKER_ENV }
    const started = await Promise.allSettled([startServerProcess(options), startServerProcess(options)])
    ;[first, second] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined))
    for (const result of started) if (result.status === 'rejected') throw result.reason
    db = new pg.Client({ connectionString: database.url })
    await db.connect()
  }, 1_500_000)

  afterAll(async () => {
    await Promise.all([stopServerProcess(first), stopServerProcess(second)])
    await db?.end().catch(() => {})
    await site?.close()
    await database?.drop()
  }, 60_000)

  it('executes each queued run exactly once, shared between the two', { timeout: 240_000 }, async () => {
    if (!first || !second || !site || !db) throw new Error('set-up failed')
    const clients = [apiClient(first.url), apiClient(second.url)] as const
    const admin = await clients[0].login(SEEDED_ADMIN)
    const member = await clients[1].login(SEEDED_MEMBER)
    await clients[0].api(`/api/users/${member.id}`, { method: 'PUT', body: { plan: 'pro', credits: 50 }, token: admin.token })

    // One automation per run, each on its own address, so the site can count its visits.
    const runIds: string[] = []
    for (let i = 1; i <= RUNS; i++) {
      const { api } = i % 2 ? clients[0] : clients[1]
      const automation = await api('/api/automations', {
        token: member.token,
        body: {
          name: `Form ${i}`,
          steps: [
            { type: 'navigate', url: `${site.url}/form?run=${i}` },
            { type: 'type', target: [{ by: 'css', selector: '#name' }], text: `Ada ${i}` },
            { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
            { type: 'wait', target: [{ by: 'css', selector: '#result' }] },
            { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
            { type: 'wait', ms: 500 },
          ],
        },
      })
      runIds.push((await api(`/api/automations/${automation.id}/runs`, { token: member.token, body: { where: 'cloud' } })).id)
    }

    const deadline = Date.now() + 180_000
    let rows: { id: string; status: string; attempts: number; worker_id: string | null; error: string | null; extracted: unknown }[] = []
    while (Date.now() < deadline) {
      rows = (await db.query('select id, status, attempts, worker_id, error, extracted from automation_runs where id = any($1)', [runIds]))
        .rows
      if (rows.length === RUNS && rows.every((row) => ['succeeded', 'failed', 'cancelled'].includes(row.status))) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const logs = `\nfirst:\n${first.output()}\nsecond:\n${second.output()}`
    expect(
      rows.map((row) => [row.status, row.error]),
      logs,
    ).toEqual(runIds.map(() => ['succeeded', null]))

    for (const row of rows) {
      expect(row.attempts).toBe(1)
      expect(row.worker_id).toMatch(new RegExp(`:(${first.child.pid}|${second.child.pid}):`))
      expect(row.extracted).toEqual([{ result: expect.stringMatching(/^Thanks, Ada \d \(free\)$/) }])
    }
    // Both processes took part (each runs one at a time, and a run takes over a second).
    const pids = new Set(rows.map((row) => row.worker_id?.split(':').at(-2)))
    expect(pids, logs).toEqual(new Set([String(first.child.pid), String(second.child.pid)]))

    // The site saw each run's page exactly once.
    for (let i = 1; i <= RUNS; i++) expect(site.hits.get(`/form?run=${i}`), `run ${i}`).toBe(1)

    // One charge per run, no refund.
    const ledger = (
      await db.query(`select reason, reference from credit_ledger where workspace_id = $1 and reason in ('usage', 'refund')`, [member.id])
    ).rows as { reason: string; reference: string }[]
    expect(ledger.filter((entry) => entry.reason === 'refund')).toEqual([])
    expect(ledger.map((entry) => entry.reference).sort()).toEqual(runIds.map((id) => `run ${id}`).sort())
  })
})
