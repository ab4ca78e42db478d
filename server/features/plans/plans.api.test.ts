import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscriptionPlans } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type PublicPlan = { slug: string; name: string; price: number; sortOrder: number; priceId: string | null }
type AdminPlan = PublicPlan & { id: string; forSale: boolean; notForSale: string | null; paddlePriceId: string | null }

describe('/api/plans: the order the admin sets, and plans that are not for sale', () => {
  let t: TestApp
  let admin: { token: string }
  beforeAll(async () => {
    t = await createTestApp()
    admin = await t.signUp({ role: 'admin' })
  })
  afterAll(async () => {
    await t.close()
  })

  const onSale = async () => ((await (await t.request('/api/plans')).json()) as { data: PublicPlan[] }).data
  const everyPlan = async () => ((await (await t.request('/api/plans/all', { token: admin.token })).json()) as { data: AdminPlan[] }).data
  const add = (body: Record<string, unknown>) => t.request('/api/plans', { body, token: admin.token })
  const change = (id: string, body: Record<string, unknown>) => t.request(`/api/plans/${id}`, { method: 'PATCH', body, token: admin.token })

  it("lists the seeded plans in the seed's order to anyone, each with its order and price id", async () => {
    expect((await onSale()).map((plan) => [plan.slug, plan.sortOrder, plan.priceId])).toEqual([
      ['free', 0, null],
      ['pro', 1, 'pro-monthly-plan'],
      ['business', 2, 'business-monthly-plan'],
    ])
  })

  it('a paid plan without a price id is not for sale: not listed, and the admin is told why; with one it is listed, last', async () => {
    const response = await add({ name: 'Starter', price: 9, creditsPerMonth: 200 })
    expect(response.status).toBe(201)
    const { data: starter } = (await response.json()) as { data: AdminPlan }
    expect(starter).toMatchObject({
      slug: 'starter',
      sortOrder: 3,
      paddlePriceId: null,
      forSale: false,
      notForSale: 'Not for sale: add its Paddle price id.',
    })
    expect((await onSale()).map((plan) => plan.slug)).toEqual(['free', 'pro', 'business'])
    expect((await everyPlan()).map((plan) => [plan.slug, plan.forSale])).toEqual([
      ['free', true],
      ['pro', true],
      ['business', true],
      ['starter', false],
    ])

    const priced = await change(starter.id, { paddlePriceId: 'starter-monthly-plan' })
    expect(await priced.json()).toMatchObject({ data: { forSale: true, notForSale: null } })
    expect((await onSale()).map((plan) => plan.slug)).toEqual(['free', 'pro', 'business', 'starter'])
  })

  it('the admin moves a plan by its order; ties go by price; every list of plans follows', async () => {
    const starter = (await everyPlan()).find((plan) => plan.slug === 'starter')!
    const moved = await change(starter.id, { sortOrder: 1 })
    expect(moved.status).toBe(200)
    expect(await moved.json()).toMatchObject({ data: { sortOrder: 1 } })
    // Starter and Pro both stand at 1: the cheaper first.
    expect((await onSale()).map((plan) => plan.slug)).toEqual(['free', 'starter', 'pro', 'business'])
    expect((await t.services.plans.list()).map((plan) => plan.slug)).toEqual(['free', 'starter', 'pro', 'business'])

    const business = (await everyPlan()).find((plan) => plan.slug === 'business')!
    await change(business.id, { sortOrder: 0 })
    expect((await onSale()).map((plan) => plan.slug)).toEqual(['free', 'business', 'starter', 'pro'])
    await change(business.id, { sortOrder: 50 })
    // A new plan goes after the last one, whatever gaps the orders have.
    const { data: later } = (await (await add({ name: 'Later', price: 5, paddlePriceId: 'later-plan' })).json()) as { data: AdminPlan }
    expect(later.sortOrder).toBe(51)
    const { data: placed } = (await (await add({ name: 'Placed', price: 5, paddlePriceId: 'placed-plan', sortOrder: '2' })).json()) as {
      data: AdminPlan
    }
    expect(placed.sortOrder).toBe(2)
    expect((await onSale()).map((plan) => plan.slug)).toEqual(['free', 'starter', 'pro', 'placed', 'business', 'later'])
  })

  it('refuses an order that is not a whole number from 0 to 10,000, naming the field, and changes nothing', async () => {
    const pro = (await everyPlan()).find((plan) => plan.slug === 'pro')!
    const refusals: [unknown, string][] = [
      [-1, 'Order cannot be negative.'],
      [1.5, 'Order must be a whole number.'],
      ['first', 'Order must be a number.'],
      [10_001, 'Order must be at most 10,000.'],
      ['', 'Order is required.'],
    ]
    for (const [sortOrder, message] of refusals) {
      const response = await change(pro.id, { sortOrder })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ path: 'sortOrder', message }] })
    }
    const created = await add({ name: 'Nowhere', sortOrder: -3 })
    expect(created.status).toBe(400)
    expect((await everyPlan()).find((plan) => plan.slug === 'pro')?.sortOrder).toBe(1)
    expect((await everyPlan()).some((plan) => plan.slug === 'nowhere')).toBe(false)
  })

  it('the Free plan is listed without a price id; a member cannot list every plan or change one', async () => {
    await t.db.update(subscriptionPlans).set({ paddlePriceId: null }).where(eq(subscriptionPlans.slug, 'free'))
    expect((await onSale())[0]).toMatchObject({ slug: 'free', priceId: null })
    const member = await t.signUp()
    expect((await t.request('/api/plans/all', { token: member.token })).status).toBe(403)
    const pro = (await everyPlan()).find((plan) => plan.slug === 'pro')!
    expect((await t.request(`/api/plans/${pro.id}`, { method: 'PATCH', body: { sortOrder: 0 }, token: member.token })).status).toBe(403)
    expect((await t.request('/api/plans', { body: { name: 'Mine' }, token: member.token })).status).toBe(403)
  })
})

describe('/api/plans with Paddle: a placeholder price id is not for sale', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ billing: { PADDLE_CLIENT_TOKEN: 'test_token', PADDLE_WEBHOOK_SECRET: 'whsec' } })
  })
  afterAll(async () => {
    await t.close()
  })

  it("lists Free only until the paid plans have Paddle's price ids, and says why", async () => {
    const admin = await t.signUp({ role: 'admin' })
    const list = async () => ((await (await t.request('/api/plans')).json()) as { data: PublicPlan[] }).data.map((plan) => plan.slug)
    expect(await list()).toEqual(['free'])
    const all = ((await (await t.request('/api/plans/all', { token: admin.token })).json()) as { data: AdminPlan[] }).data
    expect(all.find((plan) => plan.slug === 'pro')).toMatchObject({
      forSale: false,
      notForSale: 'Not for sale: a Paddle price id starts with pri_ (this one is a placeholder).',
    })
    await t.db.update(subscriptionPlans).set({ paddlePriceId: 'pri_01pro' }).where(eq(subscriptionPlans.slug, 'pro'))
    expect(await list()).toEqual(['free', 'pro'])
  })
})
