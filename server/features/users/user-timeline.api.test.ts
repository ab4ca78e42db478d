import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TimelineEntry } from '#common/user-timeline.ts'
import { auditLog, automationRuns, payments, sessions, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// A member's timeline for the admin: sign-ins, plan changes, runs, payments and admin actions,
// read from their own tables, merged newest first, paged by a cursor that neither repeats nor skips
// an entry, even among entries of the same microsecond. Admins only.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Page = { status: number; data: TimelineEntry[]; nextCursor: string | null; message?: string }

let t: TestApp
let admin: Account
let member: Account
let stranger: Account
let runId: string
/** When the entries of every kind happened at once (ISO, to the millisecond). */
let sameMoment: string

const timeline = async (id: string, query = '', token = admin.token): Promise<Page> => {
  const response = await t.request(`/api/users/${id}/timeline${query}`, { token })
  return { status: response.status, ...((await response.json()) as Omit<Page, 'status'>) }
}

/** Every page of the timeline, `limit` entries at a time. */
async function allPages(id: string, limit: number): Promise<TimelineEntry[][]> {
  const pages: TimelineEntry[][] = []
  let cursor: string | null = null
  do {
    const page: Page = await timeline(id, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    expect(page.status, page.message).toBe(200)
    pages.push(page.data)
    cursor = page.nextCursor
  } while (cursor && pages.length < 50)
  return pages
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'timeline-admin@example.com', role: 'admin' })
  member = await t.signUp({ email: 'followed@example.com' })
  stranger = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 20 }).where(eq(workspaces.id, member.id))

  const automation = await t.request('/api/automations', {
    token: member.token,
    body: { name: 'Weekly report', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  })
  const automationId = ((await automation.json()) as { data: { id: string } }).data.id
  const run = await t.request(`/api/automations/${automationId}/runs`, { token: member.token, body: { where: 'cloud' } })
  runId = ((await run.json()) as { data: { id: string } }).data.id
  await t.request(`/api/users/${member.id}`, { token: admin.token, method: 'PUT', body: { credits: 40 } })
  await t.db.insert(payments).values([
    { workspaceId: member.id, providerTransactionId: 'txn_timeline_1', amount: 29, planSlug: 'pro', status: 'success' },
    { workspaceId: stranger.id, providerTransactionId: 'txn_timeline_2', amount: 99, planSlug: 'business', status: 'success' },
  ])
  await t.services.audit.record(
    t.db,
    { id: null, email: 'Payment provider' },
    {
      workspaceId: member.id,
      action: 'subscription.update',
      targetType: 'subscription',
      targetId: 'sub_timeline',
      summary: 'Plan changed to Pro',
    },
  )

  // Entries of every kind at the very same microsecond, so the order has to fall back on kind and id.
  const same = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000 + 123)
  await t.db.update(sessions).set({ createdAt: same }).where(eq(sessions.userId, member.id))
  await t.db.update(automationRuns).set({ createdAt: same }).where(eq(automationRuns.id, runId))
  await t.db.update(payments).set({ createdAt: same }).where(eq(payments.providerTransactionId, 'txn_timeline_1'))
  await t.db.update(auditLog).set({ createdAt: same }).where(eq(auditLog.targetId, 'sub_timeline'))
  sameMoment = same.toISOString()
  // Three more sign-ins, a microsecond or two apart, a second later.
  for (let i = 0; i < 3; i++) {
    await t.request('/api/auth/login', { body: { email: member.email, password: member.password }, ip: t.freshIp() })
  }
  const later = new Date(same.getTime() + 1000)
  await t.db.execute(
    sql`update sessions set created_at = ${later.toISOString()}::timestamptz + make_interval(secs => floor(random() * 3) / 1000000) where user_id = ${member.id} and created_at > ${later.toISOString()}::timestamptz`,
  )
})
afterAll(async () => {
  await t.close()
})

describe('GET /api/users/{id}/timeline', () => {
  it('lists sign-ins, plan changes, runs, payments and admin actions, newest first, and no one else’s', async () => {
    const page = await timeline(member.id, '?limit=100')
    expect(page.status, page.message).toBe(200)
    expect(page.nextCursor).toBeNull()
    const kinds = new Set(page.data.map((entry) => entry.kind))
    expect([...kinds].toSorted()).toEqual(['admin', 'payment', 'plan', 'run', 'sign-in'])
    expect(page.data.filter((entry) => entry.kind === 'sign-in')).toHaveLength(4)
    expect(page.data.find((entry) => entry.kind === 'run')).toMatchObject({
      summary: 'Ran Weekly report',
      status: 'queued',
      runId,
      detail: 'In the cloud, started by hand',
    })
    expect(page.data.find((entry) => entry.kind === 'payment')).toMatchObject({ summary: 'Paid: 29.00 USD for pro', status: 'success' })
    expect(page.data.find((entry) => entry.kind === 'plan')?.summary).toBe('Plan changed to Pro')
    expect(page.data.find((entry) => entry.kind === 'admin')).toMatchObject({
      summary: 'Changed followed@example.com: credits 19 → 40',
      detail: 'By timeline-admin@example.com',
    })
    const times = page.data.map((entry) => entry.at)
    expect(times).toEqual(times.toSorted().reverse())
    expect(JSON.stringify(page.data)).not.toContain('txn_timeline_2')
    expect(page.data.some((entry) => entry.summary.includes('99.00'))).toBe(false)
  })

  it('pages with a cursor without repeating or skipping an entry, even within one microsecond', async () => {
    const whole = (await timeline(member.id, '?limit=100')).data.map((entry) => entry.id)
    for (const limit of [1, 2, 3]) {
      const pages = await allPages(member.id, limit)
      expect(pages.flat().map((entry) => entry.id)).toEqual(whole)
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true)
    }
    // The entries of the same microsecond come in one fixed order (kind, then id), whatever the page size.
    const same = (await timeline(member.id, '?limit=100')).data.filter((entry) => entry.at === sameMoment)
    expect(same.map((entry) => entry.kind)).toEqual(['sign-in', 'run', 'plan', 'payment'])
  })

  it('refuses a cursor it did not give, an unknown member, and anyone but an admin', async () => {
    expect(await timeline(member.id, '?cursor=not-a-cursor')).toMatchObject({
      status: 400,
      message: 'cursor: This cursor is not one a timeline page gave: start again without it.',
    })
    expect((await timeline('no-such-user')).status).toBe(404)
    expect((await timeline(member.id, '', member.token)).status).toBe(403)
    expect((await timeline(member.id, '', stranger.token)).status).toBe(403)
    expect((await t.request(`/api/users/${member.id}/timeline`)).status).toBe(401)
  })
})
