import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createScratchDatabase,
  ensureFreshBuild,
  postgresReachable,
  SEEDED_ADMIN,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '#server/testing/server-process.ts'

// Crash safety (issue 7): the production server, killed with SIGKILL in the middle of a burst of
// writes (sign-ups, inquiries, admin credit edits, charged cloud runs), restarts on the same data
// and keeps every write it acknowledged; a write it did not acknowledge is there whole or not at
// all, and every balance equals the sum of its credit ledger. On PGlite always, on PostgreSQL when
// one is reachable (skipped, and says so, otherwise). Builds when the build is stale.

const ROUNDS = 3
/** How long after every kind of write has been acknowledged MIN_ACKS times each round's kill comes. */
const KILL_DELAYS_MS = [0, 400, 1_200]
const MIN_ACKS = 3
const SIGN_UP_CHAINS = 4
const INQUIRY_CHAINS = 3
const EDITED_ACCOUNTS = 3
const CHARGED_MEMBERS = 2
const CHAINS_PER_CHARGED_MEMBER = 2
const START_CREDITS = 100_000
const DOMAIN = 'crash.test'
const PASSWORD = 'crash-password-123'
const INQUIRY_PREFIX = 'crash-safety'
// Every request comes from its own address (TRUST_PROXY), so the per-address limits on sign-ups,
// sign-ins and inquiries never refuse the burst.
const SERVER_ENV = { TRUST_PROXY: 'true', RUN_WORKER: 'false' }

const postgres = await postgresReachable('crash-safety.test.ts')

type Json = Record<string, unknown> & { data?: Record<string, unknown> & { id?: string } }
type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>

let ipCounter = 0
function nextIp() {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

/** One API call from its own address; resolves with any HTTP answer, rejects when the connection fails. */
async function call(base: string, route: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${base}${route}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      origin: base,
      'x-forwarded-for': nextIp(),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as Json }
}

async function ok(base: string, route: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const { status, body } = await call(base, route, init)
  if (status >= 300) throw new Error(`${init.method ?? 'POST'} ${route}: ${status} ${JSON.stringify(body)}`)
  return body.data as Record<string, unknown> & { id: string }
}

const login = async (base: string, email: string, password = PASSWORD) =>
  (await ok(base, '/api/auth/login', { body: { email, password } })) as unknown as { token: string; user: { id: string } }

/** Follows the link of the account's "Verify your e-mail" mail (the admin reads the outbox), as its owner would. */
async function verifyEmail(base: string, email: string, adminToken: string) {
  const { body } = await call(base, `/api/mail/outbox?to=${encodeURIComponent(email)}`, { token: adminToken })
  const mails = (body as unknown as { data: { text: string }[] }).data
  const link = mails.map((mail) => /\/verify-email\?token=[^\s]+/.exec(mail.text)?.[0]).find(Boolean)
  if (!link) throw new Error(`no verification mail for ${email}`)
  const answer = await fetch(`${base}${link}`, { headers: { 'x-forwarded-for': nextIp() }, redirect: 'manual' })
  if (answer.status >= 400) throw new Error(`verifying ${email}: ${answer.status}`)
}

/** What the test knows was acknowledged, over all rounds. */
interface Acknowledged {
  signUps: { email: string; id: string; round: number }[]
  inquiries: { id: string; message: string }[]
  /** Accounts whose balance an admin sets again and again, one edit at a time. */
  edited: { id: string; email: string; applied: number[]; inFlight: number | null }[]
  /** Pro members queuing cloud runs (1 credit each) from several requests at once. */
  charged: { id: string; email: string; acked: Set<string> }[]
  defaultCredits: number
}

interface Round {
  killedAfterMs: number
  refused: string[]
  counts: { signUps: number; inquiries: number; edits: number; runs: number }
}

async function prepareRound(base: string, round: number, known: Acknowledged) {
  const admin = await login(base, SEEDED_ADMIN.email, SEEDED_ADMIN.password)
  const createUser = async (email: string) =>
    (await ok(base, '/api/users', { body: { email, password: PASSWORD, fullName: 'Crash Test' }, token: admin.token })).id
  const edited = await Promise.all(
    Array.from({ length: EDITED_ACCOUNTS }, async (_, i) => {
      const email = `r${round}-edited-${i}@${DOMAIN}`
      return { id: await createUser(email), email, applied: [] as number[], inFlight: null as number | null }
    }),
  )
  const charged = await Promise.all(
    Array.from({ length: CHARGED_MEMBERS }, async (_, i) => {
      const email = `r${round}-charged-${i}@${DOMAIN}`
      const id = await createUser(email)
      await ok(base, `/api/users/${id}`, { method: 'PUT', body: { plan: 'pro', credits: START_CREDITS }, token: admin.token })
      // Cloud runs beyond the Free allowance wait for a verified address (docs/decisions/040).
      await verifyEmail(base, email, admin.token)
      const member = await login(base, email)
      const automation = await ok(base, '/api/automations', {
        token: member.token,
        body: { name: `Crash ${round}-${i}`, steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      })
      return { id, email, acked: new Set<string>(), token: member.token, automationId: automation.id }
    }),
  )
  known.edited.push(...edited)
  known.charged.push(...charged)
  return { adminToken: admin.token, edited, charged }
}

/** Fires the burst, SIGKILLs the server in the middle of it, and returns what was acknowledged. */
async function burstAndKill(server: ServerProcess, round: number, known: Acknowledged): Promise<Round> {
  const base = server.url
  const setup = await prepareRound(base, round, known)
  const counts = { signUps: 0, inquiries: 0, edits: 0, runs: 0 }
  const refused: string[] = []
  let killed = false

  // Each chain sends one request after another until the kill; a refusal before it is a test bug.
  async function chain(name: string, step: (n: number) => Promise<void>) {
    for (let n = 0; !killed; n++) {
      try {
        await step(n)
      } catch (error) {
        if (!killed) refused.push(`${name}: ${String(error)}`)
        return
      }
    }
  }
  const expectStatus = (name: string, status: number, expected: number, body: unknown) => {
    if (status !== expected) throw new Error(`${name}: ${status} ${JSON.stringify(body)}`)
  }

  const chains = [
    ...Array.from({ length: SIGN_UP_CHAINS }, (_, c) =>
      chain(`sign-up ${c}`, async (n) => {
        const email = `r${round}-signup-${c}-${n}@${DOMAIN}`
        const { status, body } = await call(base, '/api/auth/register', { body: { email, password: PASSWORD, fullName: 'Crash Test' } })
        expectStatus(email, status, 201, body)
        known.signUps.push({ email, id: (body.data?.user as { id: string }).id, round })
        counts.signUps++
      }),
    ),
    ...Array.from({ length: INQUIRY_CHAINS }, (_, c) =>
      chain(`inquiry ${c}`, async (n) => {
        const message = `${INQUIRY_PREFIX} r${round} c${c} n${n} ${randomBytes(4).toString('hex')}`
        const { status, body } = await call(base, '/api/contact', {
          body: { name: 'Crash Test', email: `visitor@${DOMAIN}`, projectType: 'data-scraping', message },
        })
        expectStatus(message, status, 201, body)
        known.inquiries.push({ id: body.data?.id as string, message })
        counts.inquiries++
      }),
    ),
    ...setup.edited.map((account) =>
      chain(`credits of ${account.email}`, async (n) => {
        // Never the current value: every edit writes one ledger row.
        const credits = round * 10_000 + 2 * n + 1
        account.inFlight = credits
        const { status, body } = await call(base, `/api/users/${account.id}`, {
          method: 'PUT',
          body: { credits },
          token: setup.adminToken,
        })
        expectStatus(`credits ${credits} for ${account.email}`, status, 200, body)
        account.inFlight = null
        account.applied.push(credits)
        counts.edits++
      }),
    ),
    ...setup.charged.flatMap((member) =>
      Array.from({ length: CHAINS_PER_CHARGED_MEMBER }, (_, c) =>
        chain(`runs of ${member.email} (${c})`, async () => {
          const { status, body } = await call(base, `/api/automations/${member.automationId}/runs`, {
            body: { where: 'cloud' },
            token: member.token,
          })
          expectStatus(`run for ${member.email}`, status, 201, body)
          member.acked.add(body.data?.id as string)
          counts.runs++
        }),
      ),
    ),
  ]

  const started = Date.now()
  const deadline = started + 60_000
  while (Object.values(counts).some((count) => count < MIN_ACKS) && !refused.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  await new Promise((resolve) => setTimeout(resolve, KILL_DELAYS_MS[round - 1]))
  const exited = once(server.child, 'exit')
  killed = true
  server.child.kill('SIGKILL')
  await exited
  const killedAfterMs = Date.now() - started
  await Promise.all(chains)
  return { killedAfterMs, refused, counts }
}

interface Snapshot {
  /** Each account, with its personal workspace's balance (docs/decisions/021). */
  users: { id: string; email: string; credentials: number; has_profile: boolean; has_workspace: boolean; credits: number | null }[]
  /** Each workspace's balance against its ledger. */
  balances: { id: string; credits: number; ledger_sum: number; entries: number; last_balance: number | null }[]
  ledger: { workspace_id: string; delta: number; balance_after: number; reason: string; reference: string | null }[]
  inquiries: { id: string; message: string }[]
  runs: { id: string; workspace_id: string; credits_charged: number; refunded_at: unknown }[]
}

async function snapshot(query: Query): Promise<Snapshot> {
  const crashUsers = `select id from users where email like '%@${DOMAIN}'`
  return {
    users: await query(
      `select u.id, u.email, p.id is not null as has_profile, w.id is not null as has_workspace, w.credits,
         (select count(*)::int from accounts a where a.user_id = u.id and a.provider_id = 'credential') as credentials
       from users u left join profiles p on p.id = u.id left join workspaces w on w.id = u.id and w.kind = 'personal'
       where u.email like '%@${DOMAIN}'`,
    ),
    balances: await query(
      `select w.id, w.credits, coalesce(sum(l.delta), 0)::int as ledger_sum, count(l.id)::int as entries,
         (select l2.balance_after from credit_ledger l2 where l2.workspace_id = w.id order by l2.created_at desc, l2.balance_after limit 1) as last_balance
       from workspaces w left join credit_ledger l on l.workspace_id = w.id group by w.id, w.credits`,
    ),
    ledger: await query(
      `select workspace_id, delta, balance_after, reason, reference from credit_ledger
       where workspace_id in (${crashUsers}) order by created_at, id`,
    ),
    inquiries: await query(`select id, message from service_inquiries where message like '${INQUIRY_PREFIX} %'`),
    runs: await query(`select id, workspace_id, credits_charged, refunded_at from automation_runs where workspace_id in (${crashUsers})`),
  }
}

/** Checks the accounts after a restart against the acknowledged sign-ups; returns the allowed half ones. */
function verifyAccounts(data: Snapshot, known: Acknowledged, context: string) {
  const users = new Map(data.users.map((user) => [user.id, user]))
  const ledgerOf = (id: string) => data.ledger.filter((entry) => entry.workspace_id === id)

  // Every acknowledged sign-up is there, with its credential, profile, personal workspace and sign-up grant.
  const lostSignUps = known.signUps.filter((signUp) => users.get(signUp.id)?.email !== signUp.email)
  expect(lostSignUps, `acknowledged sign-ups missing after the restart${context}`).toEqual([])
  for (const signUp of known.signUps) {
    expect(users.get(signUp.id)?.credits, signUp.email).toBe(known.defaultCredits)
    const grants = ledgerOf(signUp.id).map((entry) => [entry.reason, entry.delta])
    expect(grants, signUp.email).toEqual(known.defaultCredits > 0 ? [['signup', known.defaultCredits]] : [])
  }
  // No account is half there, with two exceptions that only unacknowledged sign-ups may show:
  // - a credential without its profile: the profile (with its personal workspace and sign-up grant,
  //   in one transaction) is made at the first sign-in (auth.service.ts loadUser), which the caller
  //   of this function checks;
  // - a user row alone, without credential or profile: Better Auth writes the user and its
  //   credential account in two commits, so a kill between them leaves the row; signing up again
  //   removes it (auth.service.ts removeInterruptedSignUp), which the caller of this function checks.
  const acknowledged = new Set(known.signUps.map((signUp) => signUp.id))
  const half = data.users.filter((user) => user.credentials !== 1 || !user.has_profile || !user.has_workspace)
  const untouched = (user: Snapshot['users'][number]) =>
    !acknowledged.has(user.id) && !user.has_profile && !user.has_workspace && !ledgerOf(user.id).length
  const profilePending = half.filter((user) => user.credentials === 1 && untouched(user))
  const userRowOnly = half.filter((user) => user.credentials === 0 && untouched(user))
  expect(
    half.filter((user) => !profilePending.includes(user) && !userRowOnly.includes(user)),
    `half-written accounts after the restart${context}`,
  ).toEqual([])
  return { profilePending, userRowOnly }
}

/** Checks inquiries and balances after a restart against what was acknowledged; settles the in-flight edits. */
function verifyWrites(data: Snapshot, known: Acknowledged, context: string) {
  const users = new Map(data.users.map((user) => [user.id, user]))
  const ledgerOf = (id: string) => data.ledger.filter((entry) => entry.workspace_id === id)

  // Every acknowledged inquiry exists exactly once; an unacknowledged one at most once.
  const byMessage = new Map<string, string[]>()
  for (const row of data.inquiries) byMessage.set(row.message, [...(byMessage.get(row.message) ?? []), row.id])
  const lostInquiries = known.inquiries.filter((inquiry) => byMessage.get(inquiry.message)?.join() !== inquiry.id)
  expect(lostInquiries, `acknowledged inquiries missing or repeated${context}`).toEqual([])
  expect([...byMessage.values()].filter((ids) => ids.length > 1)).toEqual([])

  // Every balance is the sum of its ledger, and the newest ledger row's balance_after.
  const wrongBalances = data.balances.filter(
    (row) => row.credits !== row.ledger_sum || (row.entries > 0 && row.last_balance !== row.credits),
  )
  expect(wrongBalances, `balances that differ from their credit ledger${context}`).toEqual([])

  // Edited balances: every acknowledged edit is in the ledger in order, and the balance is the
  // last one, or the edit in flight at the kill, applied whole.
  for (const account of known.edited) {
    const edits = ledgerOf(account.id)
      .filter((entry) => entry.reason === 'admin_edit')
      .map((entry) => entry.balance_after)
    const allowed = [account.applied, account.inFlight === null ? null : [...account.applied, account.inFlight]]
    expect(allowed, `admin edits of ${account.email} in the ledger: ${edits.join(', ')}${context}`).toContainEqual(edits)
    if (edits.length > account.applied.length) account.applied.push(account.inFlight as number)
    account.inFlight = null
    const expected = account.applied.at(-1) ?? known.defaultCredits
    expect(users.get(account.id)?.credits, `balance of ${account.email}${context}`).toBe(expected)
  }

  // Charged runs: every acknowledged run is there; each run has exactly one charge and each
  // charge its run, and the balance is the start minus one credit per run.
  for (const member of known.charged) {
    const runs = data.runs.filter((run) => run.workspace_id === member.id)
    const runIds = new Set(runs.map((run) => run.id))
    expect(
      [...member.acked].filter((id) => !runIds.has(id)),
      `acknowledged runs of ${member.email} missing${context}`,
    ).toEqual([])
    expect(runs.filter((run) => run.credits_charged !== 1 || run.refunded_at !== null)).toEqual([])
    const charges = ledgerOf(member.id)
      .filter((entry) => entry.reason === 'usage')
      .map((entry) => entry.reference)
    expect(charges.toSorted(), `charges of ${member.email} against its runs${context}`).toEqual(
      runs.map((run) => `run ${run.id}`).toSorted(),
    )
    expect(users.get(member.id)?.credits, `balance of ${member.email}${context}`).toBe(START_CREDITS - runs.length)
  }
}

/** Signs in every sign-up of this round on the restarted server, a few at a time. */
async function signInAll(base: string, signUps: Acknowledged['signUps']) {
  const failed: string[] = []
  const queue = [...signUps]
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { status, body } = await call(base, '/api/auth/login', { body: { email: next.email, password: PASSWORD } })
        const id = (body.data?.user as { id?: string } | undefined)?.id
        if (status !== 200 || id !== next.id) failed.push(`${next.email}: ${status} ${JSON.stringify(body)}`)
      }
    }),
  )
  return failed
}

function crashRounds(kind: 'pglite' | 'postgres') {
  const authSecret = randomBytes(32).toString('base64url')
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
  let server: ServerProcess | undefined
  let dataDir: string | undefined

  afterAll(async () => {
    await stopServerProcess(server, { keepData: true })
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    await database?.drop()
  }, 60_000)

  it(`keeps every acknowledged write through ${ROUNDS} SIGKILLs`, { timeout: 170_000 }, async () => {
    if (kind === 'postgres') database = await createScratchDatabase('aether_crash')
    const start = () => startServerProcess({ databaseUrl: database?.url, dataDir, authSecret, env: SERVER_ENV })
    server = await start()
    dataDir = server.dataDir

    // The burst sends far more than the default 60 API requests a minute per member.
    const admin = await login(server.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password)
    const settings = await ok(server.url, '/api/settings', { method: 'GET', token: admin.token })
    await ok(server.url, '/api/settings', { method: 'PUT', body: { ...settings, apiRateLimit: 10_000 }, token: admin.token })
    const known: Acknowledged = { signUps: [], inquiries: [], edited: [], charged: [], defaultCredits: Number(settings.defaultCredits) }

    const reported = new Set<string>()
    for (let round = 1; round <= ROUNDS; round++) {
      const result = await burstAndKill(server, round, known)
      const killedOutput = server.output()
      expect(result.refused, `requests refused before the kill in round ${round}:\n${killedOutput}`).toEqual([])
      console.info(
        `${kind} round ${round}: killed ${result.killedAfterMs} ms into the burst, after ${JSON.stringify(result.counts)} acknowledged`,
      )

      // The restart recovers the database; the acknowledged sign-ups can sign in.
      server = await start()
      const context = ` (${kind}, round ${round})\n${server.output()}`
      expect(
        await signInAll(
          server.url,
          known.signUps.filter((signUp) => signUp.round === round),
        ),
        context,
      ).toEqual([])

      // PGlite's folder belongs to the running server: reading it means a stop and a start, so on
      // PGlite the database is read once, after the last round (the checks cover every round: each
      // round's accounts change only in that round). PostgreSQL is read after every round.
      if (kind === 'pglite' && round < ROUNDS) continue
      const data = await readDatabase()
      const { profilePending, userRowOnly } = verifyAccounts(data, known, context)
      verifyWrites(data, known, context)
      const needed = profilePending.length > 0 || userRowOnly.some((user) => !reported.has(user.id))
      if (needed && (server.child.exitCode !== null || server.child.signalCode !== null)) server = await start()

      // A sign-up killed before its profile gets the profile, with its grant, at its first sign-in.
      for (const user of profilePending) {
        const signedIn = await login(server.url, user.email)
        expect(signedIn.user.id, user.email).toBe(user.id)
        expect((signedIn.user as unknown as { profile: { credits: number } }).profile.credits, user.email).toBe(known.defaultCredits)
      }
      // A sign-up killed between its user row and its password: the address can register again.
      for (const user of userRowOnly.filter((user) => !reported.has(user.id))) {
        reported.add(user.id)
        const again = await call(server.url, '/api/auth/register', { body: { email: user.email, password: PASSWORD } })
        expect(again.status, `signing up again as ${user.email}${context}`).toBe(201)
        const signIn = await call(server.url, '/api/auth/login', { body: { email: user.email, password: PASSWORD } })
        expect(signIn.status, `signing in as ${user.email}${context}`).toBe(200)
      }
    }

    /** The database as it is now: on PostgreSQL beside the server; PGlite's folder is the server's, so stop it first. */
    async function readDatabase(): Promise<Snapshot> {
      if (kind === 'postgres') {
        const client = new pg.Client({ connectionString: database?.url })
        await client.connect()
        try {
          return await snapshot(async (text, params) => (await client.query(text, params)).rows)
        } finally {
          await client.end()
        }
      }
      await stopServerProcess(server, { keepData: true })
      const db = new PGlite(path.join(dataDir ?? '', 'pglite'))
      try {
        return await snapshot(async (text, params) => (await db.query(text, params)).rows as never[])
      } finally {
        await db.close()
      }
    }
  })
}

// Building can wait a long time for the shared build lock; the rounds themselves take about a minute.
beforeAll(() => ensureFreshBuild(), 1_500_000)

describe('crash safety on PGlite (SIGKILL mid-burst)', () => crashRounds('pglite'))
describe.skipIf(!postgres)('crash safety on PostgreSQL (SIGKILL mid-burst)', () => crashRounds('postgres'))
