import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planCreateSchema, planUpdateSchema } from '#common/plans.ts'
import { auditLog, profiles, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Actor } from '#server/features/audit/audit.service.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

/** What a service throws for a broken rule that the API answers with 409. */
const conflict = (message: string) => ({ status: 409, code: 'CONFLICT', message })

// There is no plans HTTP API: the admin page calls the service, with input parsed by the shared schemas.
let t: TestApp
let actor: Actor

beforeAll(async () => {
  t = await createTestApp()
  const admin = await t.signUp({ role: 'admin' })
  actor = { id: admin.id, email: admin.email }
})
afterAll(async () => {
  await t.close()
})

const plans = () => t.services.plans
const planBySlug = async (slug: string) => (await plans().list()).find((plan) => plan.slug === slug)
const auditFor = (targetId: string) => t.db.select().from(auditLog).where(eq(auditLog.targetId, targetId))

describe('creating a plan', () => {
  it('needs a name, with the message of the add-plan form', () => {
    for (const input of [{}, { name: '' }, { name: '   ' }]) {
      const result = planCreateSchema.safeParse(input)
      expect(result.success).toBe(false)
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['name'], message: 'Please provide a name for the new plan.' }),
      ])
    }
  })

  it('defaults price and credits to 0, makes a slug from the name, and audits it', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Team Starter' }))
    expect(plan).toMatchObject({
      name: 'Team Starter',
      slug: 'team-starter',
      price: 0,
      creditsPerMonth: 0,
      description: '',
      features: [],
      highlighted: false,
      paddlePriceId: null,
    })
    expect((await plans().list()).at(-1)?.id).toBe(plan.id)
    const [entry] = await auditFor(plan.id)
    expect(entry).toMatchObject({
      action: 'plan.create',
      targetType: 'plan',
      actorId: actor.id,
      actorEmail: actor.email,
      after: expect.objectContaining({ name: 'Team Starter', price: 0, creditsPerMonth: 0 }),
    })
  })

  it('parses prices, credits and features the form sends as text', async () => {
    const input = planCreateSchema.parse({
      name: 'Agency',
      price: '49.5',
      creditsPerMonth: '3000',
      features: 'Priority support\n\n  API access ',
    })
    const plan = await plans().create(actor, input)
    expect(plan).toMatchObject({ price: 49.5, creditsPerMonth: 3000, features: ['Priority support', 'API access'] })
  })

  it('gives each plan a unique slug', async () => {
    const first = await plans().create(actor, planCreateSchema.parse({ name: 'Studio' }))
    const second = await plans().create(actor, planCreateSchema.parse({ name: 'studio!' }))
    const pro = await plans().create(actor, planCreateSchema.parse({ name: 'Pro' }))
    expect([first.slug, second.slug, pro.slug]).toEqual(['studio', 'studio-2', 'pro-2'])
  })

  it('refuses a payment price id another plan already uses (409) and stores nothing', async () => {
    const before = (await plans().list()).length
    const input = planCreateSchema.parse({ name: 'Copycat', paddlePriceId: 'pro-monthly-plan' })
    await expect(plans().create(actor, input)).rejects.toMatchObject(conflict('Another plan already uses this payment provider price id.'))
    expect(await plans().list()).toHaveLength(before)
    expect(await t.db.select().from(auditLog).where(eq(auditLog.summary, 'Added the Copycat plan'))).toEqual([])
  })
})

describe('updating a plan', () => {
  it('saves one field, leaves the others, and audits only that field', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Solo', price: 9, creditsPerMonth: 100, description: 'Alone' }))
    const updated = await plans().update(actor, plan.id, planUpdateSchema.parse({ price: '12.00' }))
    expect(updated).toMatchObject({ name: 'Solo', slug: 'solo', price: 12, creditsPerMonth: 100, description: 'Alone' })
    const [stored] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id))
    expect(stored?.price).toBe(12)
    const entry = (await auditFor(plan.id)).find((row) => row.action === 'plan.update')
    expect(entry).toMatchObject({ before: { price: 9 }, after: { price: 12 }, summary: 'Changed the Solo plan: price' })
  })

  it('saves a whole form at once and audits only the fields it changed; an unchanged form leaves no entry', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Whole', price: 5, creditsPerMonth: 50, features: ['One'] }))
    const { id: _id, slug: _slug, createdAt: _c, updatedAt: _u, ...form } = plan
    await plans().update(actor, plan.id, planUpdateSchema.parse({ ...form, creditsPerMonth: '80', features: 'One\nTwo' }))
    const entries = (await auditFor(plan.id)).filter((row) => row.action === 'plan.update')
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      summary: 'Changed the Whole plan: creditsPerMonth, features',
      before: { creditsPerMonth: 50, features: ['One'] },
      after: { creditsPerMonth: 80, features: ['One', 'Two'] },
    })
    await plans().update(actor, plan.id, planUpdateSchema.parse({ ...form, creditsPerMonth: 80, features: ['One', 'Two'] }))
    expect((await auditFor(plan.id)).filter((row) => row.action === 'plan.update')).toHaveLength(1)
  })

  it('refuses a price id another plan uses (409) and keeps the old one', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Priced', paddlePriceId: 'pri_priced' }))
    await expect(plans().update(actor, plan.id, planUpdateSchema.parse({ paddlePriceId: 'business-monthly-plan' }))).rejects.toMatchObject(
      conflict('Another plan already uses this payment provider price id.'),
    )
    const [stored] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id))
    expect(stored?.paddlePriceId).toBe('pri_priced')
  })

  it('refuses a cleared price or credits (the inline edit) instead of saving 0', async () => {
    for (const value of ['', '   ', null]) {
      expect(planUpdateSchema.safeParse({ price: value }).error?.issues).toEqual([
        expect.objectContaining({ path: ['price'], message: 'Price is required.' }),
      ])
      expect(planUpdateSchema.safeParse({ creditsPerMonth: value }).error?.issues).toEqual([
        expect.objectContaining({ path: ['creditsPerMonth'], message: 'Credits are required.' }),
      ])
    }
    expect(planUpdateSchema.safeParse({ price: 'ten' }).error?.issues[0]?.message).toBe('Price must be a number.')
    expect(planUpdateSchema.parse({ price: '0' })).toEqual({ price: 0 })
    expect(planUpdateSchema.parse({ creditsPerMonth: 0 })).toEqual({ creditsPerMonth: 0 })
    expect(planUpdateSchema.parse({ description: 'Only this' })).toEqual({ description: 'Only this' })
  })

  it('still defaults a blank price and credits to 0 in the add-plan form', () => {
    expect(planCreateSchema.parse({ name: 'Blank Numbers', price: '', creditsPerMonth: ' ' })).toMatchObject({
      price: 0,
      creditsPerMonth: 0,
    })
  })

  it('rejects bad values in the schema and unknown plans in the service', async () => {
    expect(planUpdateSchema.safeParse({ price: -1 }).error?.issues[0]?.message).toBe('Price cannot be negative.')
    expect(planUpdateSchema.safeParse({ creditsPerMonth: 1.5 }).error?.issues[0]?.message).toBe('Credits must be a whole number.')
    await expect(plans().update(actor, '00000000-0000-4000-8000-000000000000', { price: 1 })).rejects.toMatchObject({
      status: 404,
      message: 'Plan not found',
    })
  })
})

describe('deleting a plan', () => {
  it('refuses the Free plan', async () => {
    const free = await planBySlug('free')
    if (!free) throw new Error('the seed has no free plan')
    await expect(plans().remove(actor, free.id)).rejects.toMatchObject(
      conflict('The Free plan cannot be deleted: every account falls back to it.'),
    )
    expect(await planBySlug('free')).toBeDefined()
  })

  it('refuses a plan with members, naming how many', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Crowded' }))
    const one = await t.signUp()
    await t.services.userAdmin.update(actor, one.id, { plan: plan.slug })
    await expect(plans().remove(actor, plan.id)).rejects.toMatchObject(
      conflict('1 member is on the Crowded plan: move them to another plan first.'),
    )
    const two = await t.signUp()
    await t.services.userAdmin.update(actor, two.id, { plan: plan.slug })
    await expect(plans().remove(actor, plan.id)).rejects.toMatchObject(
      conflict('2 members are on the Crowded plan: move them to another plan first.'),
    )
    expect((await plans().memberCounts())[plan.slug]).toBe(2)
    expect(await planBySlug('crowded')).toBeDefined()
  })

  it('is refused by the database itself while a member is on the plan (no pre-check to rely on)', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Guarded' }))
    const member = await t.signUp()
    await t.services.userAdmin.update(actor, member.id, { plan: plan.slug })
    await expect(t.db.delete(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id))).rejects.toMatchObject({
      cause: expect.objectContaining({ constraint: 'workspaces_plan_slug_subscription_plans_slug_fk' }),
    })
    await expect(t.db.update(workspaces).set({ planSlug: 'no-such-plan' }).where(eq(workspaces.id, member.id))).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23503' }),
    })
    expect(await planBySlug('guarded')).toBeDefined()
    expect((await auditFor(plan.id)).map((row) => row.action)).not.toContain('plan.delete')
  })

  it('never leaves a member on a deleted plan when a delete and an assignment meet', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Contested' }))
    const member = await t.signUp()
    const [assigned, deleted] = await Promise.allSettled([
      t.services.userAdmin.update(actor, member.id, { plan: plan.slug }),
      plans().remove(actor, plan.id),
    ])
    // Exactly one wins: the member joined (and the delete was refused) or the plan went (and the assignment was refused).
    expect([assigned.status, deleted.status].sort()).toEqual(['fulfilled', 'rejected'])
    const [profile] = await t.db
      .select(profileColumns)
      .from(profiles)
      .innerJoin(workspaces, eq(workspaces.id, profiles.id))
      .where(eq(profiles.id, member.id))
    const stored = await planBySlug('contested')
    expect(profile?.subscriptionPlan).toBe(stored ? 'contested' : 'free')
  })

  it('deletes a plan nobody is on, and audits it', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Short Lived', price: 5 }))
    await plans().remove(actor, plan.id)
    expect(await planBySlug('short-lived')).toBeUndefined()
    const entry = (await auditFor(plan.id)).find((row) => row.action === 'plan.delete')
    expect(entry).toMatchObject({
      actorId: actor.id,
      before: expect.objectContaining({ name: 'Short Lived', slug: 'short-lived' }),
      after: null,
    })
    await expect(plans().remove(actor, plan.id)).rejects.toMatchObject({ status: 404, message: 'Plan not found' })
  })
})

describe('what a plan includes', () => {
  it('is seeded from the pricing texts: the AI features in Pro and Business, the offline forms only in Free', async () => {
    expect(await planBySlug('free')).toMatchObject({ aiPlanning: false, modelRepair: false, suggestions: false, monthlyModelCalls: 0 })
    expect(await planBySlug('pro')).toMatchObject({ aiPlanning: true, modelRepair: true, suggestions: true, monthlyModelCalls: 300 })
    expect(await planBySlug('business')).toMatchObject({ aiPlanning: true, modelRepair: true, suggestions: true, monthlyModelCalls: 2000 })
  })

  it('is edited field by field as the Subscriptions tab sends them; blank is unlimited, and bad numbers are refused', async () => {
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Allowances' }))
    expect(plan).toMatchObject({ aiPlanning: false, monthlyModelCalls: 0, monthlyRunLimit: null, actionLimit: null })
    const changed = await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ monthlyModelCalls: '50', aiPlanning: true }))
    expect(changed).toMatchObject({ monthlyModelCalls: 50, aiPlanning: true })
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ monthlyModelCalls: '' }))).monthlyModelCalls).toBeNull()
    expect(planUpdateSchema.safeParse({ monthlyModelCalls: '-1' }).error?.issues[0]?.message).toBe(
      'Model calls per month must be at least 0, or blank for unlimited.',
    )
    expect(planUpdateSchema.safeParse({ actionLimit: '0' }).error?.issues[0]?.message).toBe(
      'Actions per automation must be at least 1, or blank for unlimited.',
    )
    expect(planUpdateSchema.safeParse({ monthlyRunLimit: 'many' }).success).toBe(false)
  })

  it('includes webhook endpoints (0: none), seeded for Business only and edited like the other numbers', async () => {
    expect(await planBySlug('free')).toMatchObject({ webhooks: 0 })
    expect(await planBySlug('pro')).toMatchObject({ webhooks: 0 })
    expect(await planBySlug('business')).toMatchObject({ webhooks: 10 })
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Hooks' }))
    expect(plan.webhooks).toBe(0)
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ webhooks: '3' }))).webhooks).toBe(3)
    expect(planUpdateSchema.safeParse({ webhooks: '' }).error?.issues[0]?.message).toBe('Webhooks are required (0 for none).')
    expect(planUpdateSchema.safeParse({ webhooks: '-1' }).error?.issues[0]?.message).toBe('Webhooks cannot be negative.')
  })

  it('holds the vault size (docs/decisions/025): seeded 5 / 50 / unlimited, none for a new plan, edited like the other limits', async () => {
    expect((await planBySlug('free'))?.vaultSecrets).toBe(5)
    expect((await planBySlug('pro'))?.vaultSecrets).toBe(50)
    expect((await planBySlug('business'))?.vaultSecrets).toBeNull()
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Vault sizes' }))
    expect(plan.vaultSecrets).toBe(0)
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ vaultSecrets: '12' }))).vaultSecrets).toBe(12)
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ vaultSecrets: '' }))).vaultSecrets).toBeNull()
    expect(planUpdateSchema.safeParse({ vaultSecrets: '-1' }).error?.issues[0]?.message).toBe(
      'Vault secrets must be at least 0, or blank for unlimited.',
    )
  })

  it('holds its cloud runs at once (docs/decisions/029): seeded 1 / 2 / 5, 1 for a new plan, a whole number from 1', async () => {
    expect((await planBySlug('free'))?.cloudConcurrency).toBe(1)
    expect((await planBySlug('pro'))?.cloudConcurrency).toBe(2)
    expect((await planBySlug('business'))?.cloudConcurrency).toBe(5)
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Parallel', cloudConcurrency: '' }))
    expect(plan.cloudConcurrency).toBe(1)
    expect((await plans().create(actor, planCreateSchema.parse({ name: 'Wide', cloudConcurrency: '8' }))).cloudConcurrency).toBe(8)
    const changed = await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ cloudConcurrency: '4' }))
    expect(changed.cloudConcurrency).toBe(4)
    expect((await t.services.plans.list()).find((row) => row.id === plan.id)?.cloudConcurrency).toBe(4)
    const [entry] = (await auditFor(plan.id)).filter((row) => row.action === 'plan.update')
    expect(entry).toMatchObject({ before: { cloudConcurrency: 1 }, after: { cloudConcurrency: 4 } })
    const refusal = (value: unknown) => planUpdateSchema.safeParse({ cloudConcurrency: value }).error?.issues[0]?.message
    expect(refusal('0')).toBe('Cloud runs at once must be at least 1.')
    expect(refusal('x')).toBe('Cloud runs at once must be a number.')
    expect(refusal('')).toBe('Cloud runs at once are required (at least 1).')
    expect(refusal('  ')).toBe('Cloud runs at once are required (at least 1).')
    expect(refusal('1.5')).toBe('Cloud runs at once must be a whole number.')
    expect(refusal('1001')).toBe('Cloud runs at once must be at most 1,000.')
    expect(planCreateSchema.safeParse({ name: 'None', cloudConcurrency: '0' }).error?.issues[0]?.message).toBe(
      'Cloud runs at once must be at least 1.',
    )
    // What the services read for a workspace on the plan.
    const member = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: plan.slug }).where(eq(workspaces.id, member.id))
    expect((await plans().allowancesOf(member.id)).cloudConcurrency).toBe(4)
  })

  it('holds its devices (docs/decisions/031): seeded 1 / 3 / unlimited, 1 for a new plan, blank for unlimited', async () => {
    expect((await planBySlug('free'))?.devices).toBe(1)
    expect((await planBySlug('pro'))?.devices).toBe(3)
    expect((await planBySlug('business'))?.devices).toBeNull()
    // The plan a refusal names: the cheapest with more (plans added by the tests before this one connect one).
    expect((await plans().cheapestWithMoreDevices(1))?.name).toBe('Pro')
    expect((await plans().cheapestWithMoreDevices(3))?.name).toBe('Business')
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Devices' }))
    expect(plan.devices).toBe(1)
    expect((await plans().create(actor, planCreateSchema.parse({ name: 'Many devices', devices: '' }))).devices).toBeNull()
    const changed = await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ devices: '7' }))
    expect(changed.devices).toBe(7)
    const [entry] = (await auditFor(plan.id)).filter((row) => row.action === 'plan.update')
    expect(entry).toMatchObject({ before: { devices: 1 }, after: { devices: 7 } })
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ devices: '0' }))).devices).toBe(0)
    expect((await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ devices: ' ' }))).devices).toBeNull()
    const refusal = (value: unknown) => planUpdateSchema.safeParse({ devices: value }).error?.issues[0]?.message
    expect(refusal('-1')).toBe('Devices must be at least 0, or blank for unlimited.')
    expect(refusal('2.5')).toBe('Devices must be a whole number.')
    expect(refusal('x')).toBe('Devices must be a number, or blank for unlimited.')
    // What the services read for a workspace on the plan.
    const member = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: plan.slug }).where(eq(workspaces.id, member.id))
    expect((await plans().allowancesOf(member.id)).devices).toBeNull()
  })

  it('holds its shortest schedule interval (docs/decisions/036): seeded 15 / 5 / none, 15 for a new plan, blank for none', async () => {
    expect((await planBySlug('free'))?.scheduleMinMinutes).toBe(15)
    expect((await planBySlug('pro'))?.scheduleMinMinutes).toBe(5)
    expect((await planBySlug('business'))?.scheduleMinMinutes).toBeNull()
    // The plan a refusal names: the cheapest whose schedules may run that often.
    expect((await plans().cheapestAllowingSchedulesEvery(15))?.name).toBe('Free')
    expect((await plans().cheapestAllowingSchedulesEvery(10))?.name).toBe('Pro')
    expect((await plans().cheapestAllowingSchedulesEvery(1))?.name).toBe('Business')
    const plan = await plans().create(actor, planCreateSchema.parse({ name: 'Schedules' }))
    expect(plan.scheduleMinMinutes).toBe(15)
    expect(
      (await plans().create(actor, planCreateSchema.parse({ name: 'Any schedule', scheduleMinMinutes: '' }))).scheduleMinMinutes,
    ).toBeNull()
    const changed = await plans().update(actor, plan.id, planUpdateSchema.strict().parse({ scheduleMinMinutes: '60' }))
    expect(changed.scheduleMinMinutes).toBe(60)
    const [entry] = (await auditFor(plan.id)).filter((row) => row.action === 'plan.update')
    expect(entry).toMatchObject({ before: { scheduleMinMinutes: 15 }, after: { scheduleMinMinutes: 60 } })
    const refusal = (value: unknown) => planUpdateSchema.safeParse({ scheduleMinMinutes: value }).error?.issues[0]?.message
    expect(refusal('0')).toBe('Shortest schedule interval must be at least 1, or blank for no minimum.')
    expect(refusal('2.5')).toBe('Shortest schedule interval must be a whole number.')
    expect(refusal('x')).toBe('Shortest schedule interval must be a number, or blank for no minimum.')
    expect(refusal('10081')).toBe('Shortest schedule interval must be at most 10,080, or blank for no minimum.')
    // What the services read for a workspace on the plan.
    const member = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: plan.slug }).where(eq(workspaces.id, member.id))
    expect((await plans().allowancesOf(member.id)).scheduleMinMinutes).toBe(60)
  })

  it('decides, and a refusal names the cheapest plan that has the feature', async () => {
    const member = await t.signUp()
    await expect(plans().requireFeature(member.id, 'suggestions')).rejects.toMatchObject({
      status: 409,
      code: 'PLAN_LIMIT',
      message: 'Optimisation suggestions is part of the Pro plan; you are on the Free plan. Upgrade to use it.',
    })
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, member.id))
    expect((await plans().requireFeature(member.id, 'suggestions')).plan).toBe('Pro')
  })
})
