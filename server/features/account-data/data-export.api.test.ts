import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { and, asc, desc, eq } from 'drizzle-orm'
import { unzipSync, strToU8, strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accounts,
  automationFiles,
  automationRuns,
  dataExports,
  mailOutbox,
  sessions,
  workspaceMembers,
  workspaces,
} from '#server/db/schema/index.ts'
import { paddleSubscriptionOf, paymentOf } from '#server/testing/billing-fixtures.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { writeExportZip } from './export-zip.ts'

// A member's download of everything we hold about them (docs/decisions/065): asked for once at a
// time and once a day, built in the background into a zip of data.json and the runs' files, e-mailed
// as a link signed for the member that lasts 7 days, for them signed in only; removed when it expires.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type ExportDto = { id: string; status: string; expiresAt: string | null; downloadUrl: string | null }

const DAY = 24 * 60 * 60 * 1000
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

async function call<T>(pathname: string, init: { token?: string; method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const response = await t.request(pathname, init)
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const ask = (account: Account) => call<{ id: string; status: string }>('/api/account/export', { token: account.token, method: 'POST' })
const latest = (account: Account) => call<ExportDto | null>('/api/account/export', { token: account.token })

/** The API path of a link (the API answers it under /api). */
const apiPathOf = (url: string) => {
  const link = new URL(url)
  return `${link.pathname}${link.search}`
}

async function download(account: Account, url: string) {
  const response = await t.request(apiPathOf(url), { token: account.token })
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) }
}

/** The member's newest mail with this subject. */
async function mailTo(email: string, subject: string) {
  const [mail] = await t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, subject)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1)
  return mail
}

/** A member with an automation (with a kept file), a finished run with a screenshot, a kept file and a log, an API key, a vault secret and a payment. */
async function equippedMember() {
  const account = await t.signUp({ fullName: 'Ada Export' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, account.id))
  const caller = personalCaller(account)
  const automation = await t.services.automations.create(caller, {
    name: 'Price watch',
    description: 'Checks prices',
    steps: [{ type: 'navigate', url: 'https://example.com/prices' }],
    schedule: null,
    enabled: true,
  })
  await t.db
    .insert(automationFiles)
    .values({ automationId: automation.id, name: 'upload.csv', size: 9, content: Buffer.from('a,b\n1,2\n') })
  const run = await t.services.runs.start(automation.id, caller, { runner: 'client', trigger: 'manual' })
  await t.services.runFiles.saveScreenshot(run.id, 'step-1-1.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  await t.services.runFiles.saveFile(run.id, 'file-1-1', strToU8('name,price\nTent,99\n'))
  await t.db
    .update(automationRuns)
    .set({
      status: 'succeeded',
      finishedAt: new Date(),
      log: [{ at: new Date().toISOString(), level: 'info', message: 'Opened the price page' }],
      extracted: [{ price: '99' }],
      screenshots: [{ name: 'At the end', file: 'step-1-1.png', step: 1 }],
      files: [{ name: 'prices.csv', file: 'file-1-1', size: 19, step: 1 }],
      storedBytes: 23,
    })
    .where(eq(automationRuns.id, run.id))
  const key = await call<{ key: string }>('/api/keys', { token: account.token, body: { name: 'Nightly script' } })
  const secret = await call('/api/vault', {
    token: account.token,
    body: { name: 'shop_password', kind: 'password', value: 'hunter2-very-secret', origins: ['https://example.com'] },
  })
  expect(secret.status, secret.message).toBe(201)
  await paddleSubscriptionOf(t.db, account.id)
  await paymentOf(t.db, account.id)
  return { account, automationId: automation.id, runId: run.id, apiKey: key.data.key }
}

describe('exporting a member’s data', () => {
  it('builds a zip of data.json and the run files in the background, mails a signed link, and holds no secrets', async () => {
    const { account, automationId, runId, apiKey } = await equippedMember()
    const other = await t.signUp({ email: 'someone-else@example.com' })

    const asked = await ask(account)
    expect(asked, asked.message).toMatchObject({ status: 202, data: { status: 'queued' } })
    expect((await latest(account)).data).toMatchObject({ id: asked.data.id, status: 'queued', downloadUrl: null })

    expect(await t.services.dataExports.sweep()).toEqual({ built: 1, removed: 0 })
    const ready = await latest(account)
    expect(ready.data).toMatchObject({ id: asked.data.id, status: 'ready' })
    expect(new Date(ready.data?.expiresAt ?? 0).getTime() - Date.now()).toBeGreaterThan(7 * DAY - 60_000)

    const mail = await mailTo(account.email, 'Your Aether data export is ready')
    const link = mail?.text.match(/http:\/\/localhost:3000\/settings\/data-export\/\S+/)?.[0]
    expect(link, mail?.text).toBeDefined()
    expect(mail?.text).toContain('sign in as')

    const got = await download(account, ready.data?.downloadUrl ?? '')
    expect(got.status).toBe(200)
    expect(got.type).toBe('application/zip')
    const zip = unzipSync(got.bytes)
    expect(Object.keys(zip).sort()).toEqual(
      [
        'README.txt',
        'data.json',
        `automations/${automationId}/files/upload.csv`,
        `runs/${runId}/files/prices.csv`,
        `runs/${runId}/screenshots/step-1-1.png`,
      ].sort(),
    )
    expect(strFromU8(zip[`runs/${runId}/files/prices.csv`]!)).toBe('name,price\nTent,99\n')
    const text = strFromU8(zip['data.json']!)
    const data = JSON.parse(text) as Record<string, unknown>
    expect(data).toMatchObject({
      format: 'aether-member-data/1',
      profile: { fullName: 'Ada Export' },
      account: { email: account.email, signInMethods: [{ method: 'password' }] },
      workspaces: [{ id: account.id, kind: 'personal', role: 'owner', plan: 'business' }],
      automations: [{ id: automationId, name: 'Price watch', files: [{ name: 'upload.csv', size: 9 }] }],
      runs: [
        { id: runId, status: 'succeeded', startedByYou: true, extracted: [{ price: '99' }], log: [{ message: 'Opened the price page' }] },
      ],
      apiKeys: [{ name: 'Nightly script' }],
      vaultSecrets: [{ name: 'shop_password', kind: 'password' }],
      subscriptions: [{ provider: 'paddle', status: 'active' }],
      payments: [{ amount: 29, status: 'success' }],
    })
    expect((data.sessions as unknown[]).length).toBeGreaterThan(0)
    expect((data.creditLedger as unknown[]).length).toBeGreaterThan(0)
    // No secret of any kind, and nobody else's data.
    // The password hash as stored, to prove it is nowhere in the export.
    const [hash] = await t.db.select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, account.id))
    for (const secret of [hash?.password ?? 'no-hash', 'hunter2-very-secret', apiKey, account.token, account.password, other.email]) {
      expect(text).not.toContain(secret)
    }
    expect(text).not.toMatch(/"(hash|tokenHash|secretHash|secretSealed|sealedState|password)"\s*:/)
  })

  it('one at a time, and one a day: a clear 409 while one is being made, 429 after one was made', async () => {
    const account = await t.signUp()
    expect((await ask(account)).status).toBe(202)
    const again = await ask(account)
    expect(again).toMatchObject({
      status: 409,
      message: 'Your data export is being prepared. We will e-mail you a link as soon as it is ready.',
    })
    await t.services.dataExports.sweep()
    const tooSoon = await ask(account)
    expect(tooSoon.status).toBe(429)
    expect(tooSoon.message).toMatch(
      /^You can ask for one data export a day\. .* ask again in 24 hours, or download it from the link we sent\.$/,
    )
    // A day later it may.
    await t.db
      .update(dataExports)
      .set({ createdAt: new Date(Date.now() - DAY - 1000) })
      .where(eq(dataExports.userId, account.id))
    expect((await ask(account)).status).toBe(202)
  })

  it('a failed export may be asked for again, up to three a day', async () => {
    const account = await t.signUp()
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await ask(account)).status).toBe(202)
      await t.db.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.userId, account.id))
    }
    const refused = await ask(account)
    expect(refused).toMatchObject({
      status: 429,
      message: 'Your last 3 data exports could not be made. Please ask again in 24 hours, or write to us if it keeps failing.',
    })
    // Once the first of them is a day old, one more may be asked for.
    const [first] = await t.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, account.id))
      .orderBy(asc(dataExports.createdAt))
      .limit(1)
    await t.db
      .update(dataExports)
      .set({ createdAt: new Date(Date.now() - DAY - 1000) })
      .where(eq(dataExports.id, first?.id ?? ''))
    expect((await ask(account)).status).toBe(202)
  })

  it('a link works for its member signed in only, unchanged, until it expires; then the file is removed', async () => {
    const account = await t.signUp()
    const other = await t.signUp()
    await ask(account)
    await t.services.dataExports.sweep()
    const url = (await latest(account)).data?.downloadUrl ?? ''
    const file = path.join(t.dataDir, 'exports', `${(await latest(account)).data?.id}.zip`)
    expect(existsSync(file)).toBe(true)

    // Not signed in: 401. Another member, or a changed link: 404 as for a missing one.
    expect((await t.request(apiPathOf(url))).status).toBe(401)
    expect((await download(other, url)).status).toBe(404)
    const forged = url.replace(/expires=(\d+)/, (_, seconds: string) => `expires=${Number(seconds) + 3600}`)
    expect((await download(account, forged)).status).toBe(404)
    // An API key is never enough for a member's whole data.
    const key = await call<{ key: string }>('/api/keys', { token: account.token, body: { name: 'Script' } })
    expect((await t.request(apiPathOf(url), { token: key.data.key })).status).toBe(403)
    expect((await download(account, url)).status).toBe(200)

    // Once its seven days are over: the link answers 410, and the sweep removes the file.
    await t.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.userId, account.id))
    const expired = await call(apiPathOf(url), { token: account.token })
    expect(expired).toMatchObject({ status: 410, code: 'LINK_EXPIRED' })
    expect(await t.services.dataExports.sweep()).toMatchObject({ removed: 1 })
    expect(existsSync(file)).toBe(false)
    expect((await latest(account)).data).toMatchObject({ status: 'expired', downloadUrl: null })
  })
})

describe('what an export leaves out', () => {
  it('the runs of a team the member left, and sessions of an admin viewing as them; an admin viewing as them cannot download it', async () => {
    const owner = await t.signUp()
    const account = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const team = await t.services.workspaces.createTeam({ id: owner.id, email: owner.email }, 'Acme')
    await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: account.id, role: 'member' })
    const inTeam = { ...personalCaller(account), workspace: { id: team.id, role: 'member' as const } }
    const ownerInTeam = { ...personalCaller(owner), workspace: { id: team.id, role: 'owner' as const } }
    const automation = await t.services.automations.create(ownerInTeam, {
      name: 'Team check',
      description: '',
      steps: [{ type: 'navigate', url: 'https://example.com' }],
      schedule: null,
      enabled: true,
    })
    const run = await t.services.runs.start(automation.id, inTeam, { runner: 'client', trigger: 'manual' })
    await t.db.update(automationRuns).set({ status: 'succeeded', finishedAt: new Date() }).where(eq(automationRuns.id, run.id))
    // The member leaves the team: what they ran there is the team's now.
    await t.db.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, team.id), eq(workspaceMembers.userId, account.id)))
    await t.db.insert(sessions).values({
      id: `view-${account.id}`,
      token: `view-token-${account.id}`,
      userId: account.id,
      expiresAt: new Date(Date.now() + 30 * 60_000),
      impersonatedBy: owner.id,
      userAgent: 'the-admins-browser',
    })

    await ask(account)
    await t.services.dataExports.sweep()
    const ready = await latest(account)
    const got = await download(account, ready.data?.downloadUrl ?? '')
    const data = JSON.parse(strFromU8(unzipSync(got.bytes)['data.json']!)) as { runs: unknown[]; sessions: { userAgent: string | null }[] }
    expect(data.runs).toEqual([])
    expect(data.sessions.map((session) => session.userAgent)).not.toContain('the-admins-browser')

    const link = new URL(ready.data?.downloadUrl ?? '')
    const viewing = { id: account.id, email: account.email, viewedBy: { adminId: owner.id, until: new Date(Date.now() + 60_000) } }
    await expect(
      t.services.dataExports.download(
        viewing,
        ready.data?.id ?? '',
        Number(link.searchParams.get('expires')),
        link.searchParams.get('token') ?? '',
      ),
    ).rejects.toMatchObject({ status: 403, code: 'READ_ONLY_VIEW' })
  })

  it('an admin’s own export keeps what they did to other accounts, never those members’ data', async () => {
    const admin = await t.signUp({ role: 'admin' })
    const member = await t.signUp({ fullName: 'Someone Else' })
    const renamed = await t.request(`/api/users/${member.id}`, {
      token: admin.token,
      method: 'PUT',
      body: { fullName: 'Renamed By Admin' },
    })
    expect(renamed.status).toBe(200)
    await ask(admin)
    await t.services.dataExports.sweep()
    const ready = await latest(admin)
    const got = await download(admin, ready.data?.downloadUrl ?? '')
    const text = strFromU8(unzipSync(got.bytes)['data.json']!)
    const data = JSON.parse(text) as { auditEntries: { by: string; targetId: string | null; summary: string | null; after: unknown }[] }
    const entry = data.auditEntries.find((row) => row.targetId === member.id)
    expect(entry).toMatchObject({ by: 'you', summary: null, after: null })
    expect(text).not.toContain(member.email)
    expect(text).not.toContain('Renamed By Admin')
  })

  it('the files of the oldest runs past the size an export holds, named in runs-not-included.txt', async () => {
    const { account, runId } = await equippedMember()
    const second = await t.services.runs.start(
      (await t.db.select({ id: automationRuns.automationId }).from(automationRuns).where(eq(automationRuns.id, runId)))[0]?.id ?? '',
      personalCaller(account),
      { runner: 'client', trigger: 'manual' },
    )
    await t.services.runFiles.saveScreenshot(second.id, 'step-1-1.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
    await t.db
      .update(automationRuns)
      .set({ status: 'succeeded', finishedAt: new Date(), storedBytes: 4, createdAt: new Date(Date.now() + 1000) })
      .where(eq(automationRuns.id, second.id))
    const file = path.join(t.dataDir, 'exports', `bounded-${account.id}.zip`)
    await writeExportZip({ db: t.db, runFiles: t.services.runFiles, userId: account.id, now: new Date(), file, maxRunFileBytes: 10 })
    const zip = unzipSync(new Uint8Array(await readFile(file)))
    // The newer run fits (4 bytes); the older one (23) would go past 10.
    expect(Object.keys(zip).filter((name) => name.startsWith('runs/'))).toEqual([`runs/${second.id}/screenshots/step-1-1.png`])
    expect(strFromU8(zip['runs-not-included.txt']!)).toContain(runId)
  })
})
