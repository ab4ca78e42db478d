import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planCreateSchema, planUpdateSchema } from '#common/plans.ts'
import { publicContentVersion } from '#server/db/schema/index.ts'
import type { Actor } from '#server/features/audit/audit.service.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type TestUser = Awaited<ReturnType<TestApp['signUp']>>

// The page cache trusts this version to change with everything a public page shows, and only then
// (migration 0006's triggers).
let t: TestApp
let admin: TestUser
let actor: Actor
beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  actor = { id: admin.id, email: admin.email }
})
afterAll(async () => {
  await t.close()
})

async function changes(what: () => Promise<unknown>): Promise<boolean> {
  const before = await t.services.publicContent.version()
  await what()
  const after = await t.services.publicContent.version()
  expect(before).not.toBeNull()
  expect(after).not.toBeNull()
  return before !== after
}

const json = async (response: Response) => ((await response.json()) as { data: { id: string } }).data

describe('the public content version', () => {
  it('is the row the triggers keep, read as the query builder reads it', async () => {
    const [row] = await t.db.select().from(publicContentVersion)
    expect(row).toBeDefined()
    expect(await t.services.publicContent.version()).toBe(String(row!.version))
    await t.db.delete(publicContentVersion)
    try {
      expect(await t.services.publicContent.version()).toBeNull()
    } finally {
      await t.db.insert(publicContentVersion).values(row!)
    }
  })

  it('on PGlite, prepares its statement again when it is gone', async () => {
    if (t.database.kind !== 'pglite') return
    const before = await t.services.publicContent.version()
    await t.db.execute(sql`deallocate public_content_version`)
    expect(before).not.toBeNull()
    expect(await t.services.publicContent.version()).toBe(before)
  })

  it('changes with every write to blog posts', async () => {
    let id = ''
    expect(
      await changes(async () => {
        id = (await json(await t.request('/api/blog', { body: { title: 'Version post', content: 'Body' }, token: admin.token }))).id
      }),
    ).toBe(true)
    expect(await changes(() => t.request(`/api/blog/${id}`, { method: 'PUT', body: { status: 'published' }, token: admin.token }))).toBe(
      true,
    )
    expect(await changes(() => t.request(`/api/blog/${id}`, { method: 'DELETE', token: admin.token }))).toBe(true)
  })

  it('changes with plans and site settings', async () => {
    let planId = ''
    expect(
      await changes(async () => {
        planId = (await t.services.plans.create(actor, planCreateSchema.parse({ name: 'Version Plan' }))).id
      }),
    ).toBe(true)
    expect(await changes(() => t.services.plans.update(actor, planId, planUpdateSchema.parse({ price: 12 })))).toBe(true)
    expect(await changes(() => t.services.plans.remove(actor, planId))).toBe(true)
    const settings = await t.services.settings.get()
    expect(await changes(() => t.services.settings.update({ ...settings, siteName: 'Aether Version' }))).toBe(true)
  })

  it('changes when a member renames themselves (posts show their author)', async () => {
    const member = await t.signUp()
    expect(
      await changes(() => t.request('/api/auth/profile', { method: 'PUT', body: { fullName: 'New Name' }, token: member.token })),
    ).toBe(true)
  })

  it('stays put for what no public page shows: sign-ups, sign-ins, credits, inquiries', async () => {
    let member: TestUser | null = null
    expect(
      await changes(async () => {
        member = await t.signUp()
      }),
    ).toBe(false)
    const signedUp = member as unknown as TestUser
    expect(await changes(() => t.services.credits.change({ workspaceId: signedUp.id, delta: 3, reason: 'plan_grant' }))).toBe(false)
    expect(
      await changes(() =>
        t.request('/api/contact', {
          body: { name: 'Visitor', email: 'visitor@example.com', projectType: 'data-scraping', message: 'A question about scraping.' },
          ip: t.freshIp(),
        }),
      ),
    ).toBe(false)
  })
})
