import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payments, profiles, subscriptionPlans, subscriptions } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

/** A stand-in for Paddle's REST API on loopback: records requests, answers like Paddle. */
async function startFakePaddle() {
  const received: { method: string; url: string; auth: string | undefined; body: unknown }[] = []
  let answer = { status: 200, body: { data: {} } as unknown }
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let raw = ''
    for await (const chunk of request) raw += chunk
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      auth: request.headers.authorization,
      body: raw ? JSON.parse(raw) : null,
    })
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerWith(status: number, body: unknown) {
      answer = { status, body }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function profile(t: TestApp, userId: string) {
  const [row] = await t.db.select().from(profiles).where(eq(profiles.id, userId))
  return row
}

describe('billing with the local sandbox (signed webhooks to our own endpoint)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await t.close()
  })

  it('a purchase upgrades the plan, records the payment and grants the credits', async () => {
    const user = await t.signUp()
    expect(await t.services.billing.sandboxPurchase({ id: user.id, email: user.email }, 'pro', 'success')).toBe('paid')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 1005 })
    const history = await t.services.billing.payments(user.id, { page: 1, limit: 10 })
    expect(history.items).toMatchObject([{ status: 'success', amount: 29 }])
    const subscription = await t.services.billing.currentSubscription(user.id)
    expect(subscription).toMatchObject({ provider: 'sandbox', planSlug: 'pro', cardLast4: '4242' })
    expect(subscription?.nextBilledAt?.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000)
  })

  it('a declined card records a failed payment and changes no plan', async () => {
    const user = await t.signUp()
    expect(await t.services.billing.sandboxPurchase({ id: user.id, email: user.email }, 'business', 'declined')).toBe('declined')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free', credits: 5 })
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toMatchObject([{ status: 'failed', amount: 79 }])
  })

  it('a subscriber cannot open a second checkout; plan changes go through the subscription', async () => {
    const user = await t.signUp()
    await t.services.billing.sandboxPurchase({ id: user.id, email: user.email }, 'pro', 'success')
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email }, 'business')).rejects.toThrow(
      /already have a subscription/,
    )
    await t.services.billing.changePlan(user.id, 'business')
    // The upgrade tops the month up from Pro's 1000 credits to Business's 5000.
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'business', credits: 5005 })
    await t.services.billing.changePlan(user.id, 'pro')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 5005 })
  })

  it('Switch to Free schedules the end; the plan stays until the period ends, then it is Free', async () => {
    const user = await t.signUp()
    await t.services.billing.sandboxPurchase({ id: user.id, email: user.email }, 'pro', 'success')
    const endsAt = await t.services.billing.cancelToFree(user.id)
    expect(endsAt).toBeInstanceOf(Date)
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro' })
    expect((await t.services.billing.currentSubscription(user.id))?.cancelAt).toBeInstanceOf(Date)
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('canceled')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free' })
    expect(await t.services.billing.currentSubscription(user.id)).toBeNull()
  })

  it('a renewal charges again and grants the month’s credits again', async () => {
    const user = await t.signUp()
    await t.services.billing.sandboxPurchase({ id: user.id, email: user.email }, 'pro', 'success')
    expect(await t.services.billing.sandboxEndPeriod(user.id)).toBe('renewed')
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'pro', credits: 2005 })
    expect((await t.services.billing.payments(user.id, { page: 1, limit: 10 })).total).toBe(2)
  })
})

describe('billing with Paddle (its API stood in for on loopback)', () => {
  let t: TestApp
  let paddle: Awaited<ReturnType<typeof startFakePaddle>>
  beforeAll(async () => {
    paddle = await startFakePaddle()
    t = await createTestApp({
      billing: { PADDLE_CLIENT_TOKEN: 'test_token', PADDLE_WEBHOOK_SECRET: 'whsec', PADDLE_API_KEY: 'pdl_key', PADDLE_API_URL: paddle.url },
    })
  })
  afterAll(async () => {
    await t.close()
    await paddle.close()
  })

  async function subscribed() {
    const user = await t.signUp()
    await t.db.insert(subscriptions).values({
      userId: user.id,
      provider: 'paddle',
      providerSubscriptionId: `sub_${user.id}`,
      planSlug: 'pro',
      status: 'active',
      nextBilledAt: new Date('2026-12-23T00:00:00Z'),
      lastEventAt: new Date(),
    })
    return user
  }

  async function setPaddlePriceIds() {
    await t.db.update(subscriptionPlans).set({ paddlePriceId: 'pri_01proplan' }).where(eq(subscriptionPlans.slug, 'pro'))
    await t.db.update(subscriptionPlans).set({ paddlePriceId: 'pri_01businessplan' }).where(eq(subscriptionPlans.slug, 'business'))
  }

  it("the seed's placeholder price ids are not Paddle's: Checkout Not Available, and no plan change is sent", async () => {
    const user = await t.signUp()
    const [pro] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.slug, 'pro'))
    expect(pro?.paddlePriceId).toBe('pro-monthly-plan')
    expect(t.services.billing.priceIdOf(pro!)).toBeNull()
    expect(t.services.billing.canCheckOut(pro!)).toBe(false)
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email }, 'pro')).rejects.toMatchObject({
      status: 503,
      message: 'Our payment system is currently being set up. Please try again later.',
    })
    const requests = paddle.received.length
    const member = await subscribed()
    await expect(t.services.billing.changePlan(member.id, 'business')).rejects.toMatchObject({ status: 503 })
    expect(paddle.received).toHaveLength(requests)
  })

  it("with Paddle's price ids set, checkout opens Paddle.js with the price id, the e-mail and custom data { user_id, plan }", async () => {
    await setPaddlePriceIds()
    const user = await t.signUp()
    const checkout = await t.services.billing.checkoutFor({ id: user.id, email: user.email }, 'pro')
    expect(checkout).toMatchObject({
      checkout: { kind: 'paddle', clientToken: 'test_token', environment: 'sandbox' },
      priceId: 'pri_01proplan',
      email: user.email,
      customData: { user_id: user.id, plan: 'pro', user_token: expect.any(String) },
    })
  })

  it('Switch to Free asks Paddle to cancel at the end of the billing period', async () => {
    const user = await subscribed()
    await t.services.billing.cancelToFree(user.id)
    expect(paddle.received.at(-1)).toEqual({
      method: 'POST',
      url: `/subscriptions/sub_${user.id}/cancel`,
      auth: 'Bearer pdl_key',
      body: { effective_from: 'next_billing_period' },
    })
    // The plan changes only when Paddle's webhook says so.
    expect(await profile(t, user.id)).toMatchObject({ subscriptionPlan: 'free' })
  })

  it('an upgrade patches the subscription to the new price, prorated now', async () => {
    await setPaddlePriceIds()
    const user = await subscribed()
    await t.services.billing.changePlan(user.id, 'business')
    expect(paddle.received.at(-1)).toMatchObject({
      method: 'PATCH',
      url: `/subscriptions/sub_${user.id}`,
      body: { items: [{ price_id: 'pri_01businessplan', quantity: 1 }], proration_billing_mode: 'prorated_immediately' },
    })
  })

  it("Paddle's refusal reaches the member as a clear 503 message", async () => {
    const user = await subscribed()
    paddle.answerWith(400, { error: { code: 'subscription_locked', detail: 'Subscription is locked' } })
    await expect(t.services.billing.cancelToFree(user.id)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/Subscription is locked/),
    })
    paddle.answerWith(200, { data: {} })
  })

  it('without a price id there is no checkout: the spec’s message', async () => {
    const user = await t.signUp()
    await t.db.update(subscriptionPlans).set({ paddlePriceId: null })
    await expect(t.services.billing.checkoutFor({ id: user.id, email: user.email }, 'pro')).rejects.toMatchObject({
      status: 503,
      message: 'Our payment system is currently being set up. Please try again later.',
    })
  })
})
