import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { once } from 'node:events'
import { get } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apiClient,
  createScratchDatabase,
  ensureFreshBuild,
  postgresReachable,
  SEEDED_MEMBER,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '#server/testing/server-process.ts'

// `node server.js` with WEB_CONCURRENCY=2 on PostgreSQL (server/cluster.ts): two server processes
// behind one port, sharing what a member signed in with; one crash is replaced; SIGTERM stops all.
// Skipped, and says so, without PostgreSQL.

const postgres = await postgresReachable('cluster.processes.test.ts')

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === pid) children.push(Number(entry))
    } catch {
      // the process ended while we looked
    }
  }
  return children.sort()
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** GET on a connection of its own (no keep-alive), so that the cluster may hand it to either process. */
function getAlone(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    }).on('error', reject)
  })
}

async function until<T>(what: string, read: () => T | Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(!postgres)('WEB_CONCURRENCY=2 on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
  let server: ServerProcess | undefined

  beforeAll(async () => {
    ensureFreshBuild()
    database = await createScratchDatabase('aether_cluster')
    server = await startServerProcess({
      databaseUrl: database.url,
      authSecret: randomBytes(32).toString('base64url'),
      env: { WEB_CONCURRENCY: '2', LOG_LEVEL: 'info', RUN_WORKER: 'true' },
    })
  }, 600_000)

  afterAll(async () => {
    await stopServerProcess(server)
    await database?.drop()
  }, 60_000)

  it(
    'serves from two processes that share a sign-in; a crashed one is replaced; SIGTERM stops them all',
    { timeout: 180_000 },
    async () => {
      if (!server) throw new Error('set-up failed')
      const primary = server.child.pid as number
      const [first, second] = (await until(
        'the server processes',
        () => childrenOf(primary),
        (pids) => pids.length === 2,
      )) as [number, number]
      // Only one of them runs the cloud runs, the schedules and the webhook deliveries.
      await until(
        'the second process says it serves HTTP only',
        () => server?.output() ?? '',
        (text) => text.includes('RUN_WORKER=false'),
      )
      expect(server.output().match(/cloud runs and schedules: off in this process/g)).toHaveLength(1)

      // A sign-in made through one process is known to the other: every new connection may go to either.
      const { api, login } = apiClient(server.url)
      const { token } = await login(SEEDED_MEMBER)
      const cpuTicks = (pid: number) => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        return Number(fields[11]) + Number(fields[12])
      }
      const before = [cpuTicks(first), cpuTicks(second)] as const
      for (let n = 0; n < 40; n++) {
        const me = await getAlone(`${server.url}/api/auth/me`, token)
        expect(me.status).toBe(200)
        expect(me.body).toContain(SEEDED_MEMBER.email)
      }
      const after = [cpuTicks(first), cpuTicks(second)] as const
      expect(after[0], 'the first process answered some of the requests').toBeGreaterThan(before[0])
      expect(after[1], 'the second process answered some of the requests').toBeGreaterThan(before[1])

      // A process that dies is replaced; the port keeps answering meanwhile.
      process.kill(second, 'SIGKILL')
      const replaced = await until(
        'a replacement process',
        () => childrenOf(primary),
        (pids) => pids.length === 2 && !pids.includes(second),
      )
      expect(replaced).toContain(first)
      await until(
        'the replacement listens',
        () => server?.output() ?? '',
        (text) => text.lastIndexOf('Aether is running at') > text.lastIndexOf('starting another in its place'),
      )
      expect((await api<{ email: string }>('/api/auth/me', { token })).email).toBe(SEEDED_MEMBER.email)

      const processes = childrenOf(primary)
      const exited = once(server.child, 'exit')
      server.child.kill('SIGTERM')
      const [code] = await exited
      expect(code).toBe(0)
      for (const pid of processes) expect(alive(pid), `process ${pid} stopped with the primary`).toBe(false)
    },
  )
})
