import { count, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServices } from '#server/services.ts'
import { testEnv } from '#server/testing/create-test-app.ts'
import { openTestDatabase } from '#server/testing/test-database.ts'
import type { Database } from './client.ts'
import {
  appSettings,
  automationTemplates,
  blogPosts,
  mailOutbox,
  profiles,
  serviceInquiries,
  subscriptionPlans,
  users,
  workspaces,
} from './schema/index.ts'
import { seed, type SeedOptions } from './seed.ts'
import { SEED_TEMPLATES } from './seed-templates.ts'

const opened: Database[] = []
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()))
})

/** A fresh database with services and a logger whose lines the test can read. */
async function fresh() {
  const database = await openTestDatabase()
  opened.push(database)
  const lines: { level: number; msg: string }[] = []
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) })
  const services = createServices({
    database,
    env: testEnv(),
    logger,
    authSecret: 'seed-test-secret-that-is-long-enough-0123456789',
  })
  const run = (options: Partial<SeedOptions> = {}) =>
    seed(database.db, services, logger, { demo: true, adminEmail: 'admin@aether.test', memberEmail: 'member@aether.test', ...options })
  const counts = async () => {
    const n = async (table: typeof users | typeof subscriptionPlans | typeof blogPosts | typeof serviceInquiries | typeof appSettings) =>
      Number((await database.db.select({ n: count() }).from(table))[0]?.n ?? 0)
    return {
      users: await n(users),
      plans: await n(subscriptionPlans),
      posts: await n(blogPosts),
      inquiries: await n(serviceInquiries),
      settings: await n(appSettings),
    }
  }
  const signIn = async (email: string, password: string) => {
    const result = await services.auth.login(
      { email, password },
      { headers: new Headers(), ip: `203.0.113.${Math.floor(Math.random() * 200) + 1}` },
    )
    if (result.secondFactor) throw new Error('a seeded account asked for a second factor')
    return result
  }
  return { database, db: database.db, services, lines, run, counts, signIn }
}

/** The generated password printed for a demo account, if any. */
function generatedPassword(lines: { msg: string }[], email: string): string | undefined {
  for (const { msg } of lines) {
    const match = new RegExp(`${email.replace(/[.]/g, '\\.')} / (\\S+) \\(generated`).exec(msg)
    if (match?.[1]) return match[1]
  }
  return undefined
}

describe('seed without demo content (SEED_DEMO=false)', () => {
  it('creates the plans and settings, no accounts or content, and is idempotent', async () => {
    const s = await fresh()
    await s.run({ demo: false })
    await s.run({ demo: false })
    expect(await s.counts()).toEqual({ users: 0, plans: 3, posts: 0, inquiries: 0, settings: 1 })

    // The Free, Pro and Business plans of the spec.
    const plans = await s.services.plans.list()
    expect(plans.map((plan) => [plan.name, plan.slug, plan.price])).toEqual([
      ['Free', 'free', 0],
      ['Pro', 'pro', 29],
      ['Business', 'business', 79],
    ])
    expect(plans.filter((plan) => plan.highlighted).map((plan) => plan.slug)).toEqual(['pro'])
    for (const plan of plans) expect(plan.features.length).toBeGreaterThan(0)

    // The settings row with the spec's defaults.
    expect(await s.services.settings.get()).toMatchObject({
      siteName: 'Aether',
      defaultCredits: 5,
      maintenanceMode: false,
      theme: 'dark',
      apiRateLimit: 60,
    })

    // A database that already has users gets no demo accounts later.
    await s.services.betterAuth.api.signUpEmail({ body: { email: 'real@example.com', password: 'real-user-password', name: 'Real User' } })
    await s.run({ demo: true })
    const emails = (await s.db.select({ email: users.email }).from(users)).map((row) => row.email)
    expect(emails).toEqual(['real@example.com'])
    expect((await s.counts()).posts).toBe(0)

    // With the users gone, configured passwords are used and never printed.
    await s.db.delete(users)
    const linesBefore = s.lines.length
    await s.run({
      adminEmail: 'boss@example.com',
      adminPassword: 'configured-admin-pw',
      memberEmail: 'mem@example.com',
      memberPassword: 'configured-member-pw',
    })
    const log = JSON.stringify(s.lines.slice(linesBefore))
    expect(log).not.toContain('configured-admin-pw')
    expect(log).not.toContain('configured-member-pw')
    expect(log).toContain('boss@example.com')
    expect(log).not.toMatch(/generated/)
    expect((await s.signIn('boss@example.com', 'configured-admin-pw')).user.profile.role).toBe('admin')
    expect((await s.signIn('mem@example.com', 'configured-member-pw')).user.profile.role).toBe('user')
    expect((await s.counts()).plans).toBe(3)
  })
})

describe('the template gallery', () => {
  it('is seeded once into an empty gallery; edits and deletions are not undone by later runs', async () => {
    const s = await fresh()
    await s.run({ demo: false })
    const slugs = async () =>
      (await s.db.select({ slug: automationTemplates.slug }).from(automationTemplates)).map((row) => row.slug).sort()
    expect(await slugs()).toEqual(SEED_TEMPLATES.map((template) => template.slug).sort())
    await s.run({ demo: false })
    expect(await slugs()).toHaveLength(SEED_TEMPLATES.length)

    // An admin deletes one and unpublishes another: the next start keeps it that way.
    const [first, second] = SEED_TEMPLATES
    await s.db.delete(automationTemplates).where(eq(automationTemplates.slug, first?.slug ?? ''))
    await s.db
      .update(automationTemplates)
      .set({ published: false })
      .where(eq(automationTemplates.slug, second?.slug ?? ''))
    await s.run({ demo: false })
    expect(await slugs()).toHaveLength(SEED_TEMPLATES.length - 1)
    const [unpublished] = await s.db
      .select()
      .from(automationTemplates)
      .where(eq(automationTemplates.slug, second?.slug ?? ''))
    expect(unpublished?.published).toBe(false)
    // Business includes the advanced ones; Free and Pro do not.
    const plans = await s.services.plans.list()
    expect(plans.map((plan) => [plan.slug, plan.advancedTemplates])).toEqual([
      ['free', false],
      ['pro', false],
      ['business', true],
    ])
  })
})

describe('seed with demo content', () => {
  let a: Awaited<ReturnType<typeof fresh>>
  beforeAll(async () => {
    a = await fresh()
    await a.run()
  })

  it('creates plans, settings, demo content and two accounts once, however often it runs', async () => {
    const first = await a.counts()
    expect(first).toMatchObject({ users: 2, plans: 3, settings: 1 })
    expect(first.posts).toBeGreaterThanOrEqual(2)
    expect(first.inquiries).toBeGreaterThanOrEqual(1)

    const linesBefore = a.lines.length
    await a.run()
    await a.run({ adminEmail: 'other-admin@aether.test', memberEmail: 'other-member@aether.test' })
    expect(await a.counts()).toEqual(first)
    // No password was generated or printed again.
    expect(a.lines.slice(linesBefore).some((line) => /generated/.test(line.msg))).toBe(false)
  })

  it('makes the admin an admin and the member a plain user, both verified, on the free plan', async () => {
    const rows = await a.db
      .select({ email: users.email, verified: users.emailVerified, role: profiles.role, plan: workspaces.planSlug })
      .from(users)
      .innerJoin(profiles, eq(profiles.id, users.id))
      .innerJoin(workspaces, eq(workspaces.id, users.id))
    expect(rows).toHaveLength(2)
    expect(rows.find((row) => row.email === 'admin@aether.test')).toMatchObject({ role: 'admin', verified: true, plan: 'free' })
    expect(rows.find((row) => row.email === 'member@aether.test')).toMatchObject({ role: 'user', verified: true, plan: 'free' })
  })

  it('sends the verified demo accounts no "Verify your e-mail" mail (issue 27, item 11)', async () => {
    // Better Auth may send a sign-up mail after its endpoint returned: give it the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const mail = await a.db.select({ to: mailOutbox.to, subject: mailOutbox.subject }).from(mailOutbox)
    expect(mail.filter((row) => row.to === 'admin@aether.test' || row.to === 'member@aether.test')).toEqual([])
  })

  it('still sends a real sign-up its verification mail', async () => {
    const s = await fresh()
    await s.run()
    await s.services.auth.register(
      { email: 'new-person@example.com', password: 'a-real-password' },
      { headers: new Headers(), ip: '203.0.113.9' },
    )
    const mail = await s.db.select({ to: mailOutbox.to, subject: mailOutbox.subject }).from(mailOutbox)
    expect(mail).toEqual([{ to: 'new-person@example.com', subject: 'Verify your e-mail address for Aether' }])
  })

  it('publishes some demo posts and keeps at least one draft', async () => {
    const posts = await a.db
      .select({ status: blogPosts.status, publishedAt: blogPosts.publishedAt, authorId: blogPosts.authorId })
      .from(blogPosts)
    expect(posts.some((post) => post.status === 'published' && post.publishedAt)).toBe(true)
    expect(posts.some((post) => post.status === 'draft')).toBe(true)
    expect(posts.every((post) => post.authorId)).toBe(true)
  })

  it('generates random passwords when none is configured, prints each once, and they differ between databases', async () => {
    const b = await fresh()
    await b.run()
    const adminA = generatedPassword(a.lines, 'admin@aether.test')
    const memberA = generatedPassword(a.lines, 'member@aether.test')
    const adminB = generatedPassword(b.lines, 'admin@aether.test')
    const memberB = generatedPassword(b.lines, 'member@aether.test')
    for (const password of [adminA, memberA, adminB, memberB]) {
      expect(password).toBeDefined()
      expect(password?.length).toBeGreaterThanOrEqual(12)
    }
    expect(new Set([adminA, memberA, adminB, memberB]).size).toBe(4)
    // Printed once each, as a warning so it shows at the default log level.
    const printed = a.lines.filter((line) => adminA && line.msg.includes(adminA))
    expect(printed).toHaveLength(1)
    expect(printed[0]?.level).toBeGreaterThanOrEqual(30)
    // And they work.
    expect((await a.signIn('admin@aether.test', adminA ?? '')).user.profile.role).toBe('admin')
    expect((await b.signIn('member@aether.test', memberB ?? '')).user.email).toBe('member@aether.test')
    await expect(a.signIn('admin@aether.test', adminB ?? '')).rejects.toMatchObject({ status: 401 })
  })
})
