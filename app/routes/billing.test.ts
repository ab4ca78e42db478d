import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { subscriptions, users } from '#server/db/schema/index.ts'
import type { PageContext } from '#server/http/page-context.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action as checkoutAction, loader as checkoutLoader } from './billing-checkout.tsx'
import { action as billingAction, loader as billingLoader } from './billing.tsx'
import { loader as homeLoader } from './home.tsx'

// Purchases wait for a verified e-mail address (issue 27, item 12): the sandbox checkout, a plan
// change, and the signed buyer that Paddle's checkout needs. The pages call the billing service,
// which refuses with the one EMAIL_NOT_VERIFIED message.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Args = { request: Request; params: Record<string, string>; context: PageContext }

const t: TestApp = await createTestApp({ billing: { BILLING_SANDBOX: true } })
afterAll(async () => {
  await t.close()
})

const refusal = (email: string) =>
  `Verify your e-mail address to buy or change a plan. We sent a link to ${email}; you can send it again from the banner.`

const contextOf = (account: Account) => t.pageContext(account)

const post = (path: string, fields: Record<string, string>) =>
  new Request(`${TEST_PUBLIC_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })

async function pay(account: Account) {
  const args = { request: post('/billing/checkout', { plan: 'pro', card: 'success' }), params: {}, context: await contextOf(account) }
  return (await checkoutAction(args as unknown as Parameters<typeof checkoutAction>[0])) as unknown
}

async function changePlan(account: Account, plan: string) {
  const args: Args = { request: post('/billing', { intent: 'change-plan', plan }), params: {}, context: await contextOf(account) }
  return (await billingAction(args as unknown as Parameters<typeof billingAction>[0])) as unknown
}

const subscriptionOf = async (account: Account) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, account.id)))[0] ?? null

const answerOf = (value: unknown) => value as { data: { error: string }; init: { status: number } }

describe('an unverified account', () => {
  it('gets no signed buyer for checkout on /billing or the pricing, but the reason to show', async () => {
    const account = await t.signUp({ verified: false })
    const args = { request: new Request(`${TEST_PUBLIC_URL}/billing`), params: {}, context: await contextOf(account) }
    const billing = await billingLoader(args as unknown as Parameters<typeof billingLoader>[0])
    expect(billing.checkout).toMatchObject({ buyer: null, refusal: refusal(account.email) })
    const home = (await homeLoader({ ...args, request: new Request(`${TEST_PUBLIC_URL}/`) } as unknown as Parameters<
      typeof homeLoader
    >[0])) as unknown as {
      data: { checkout: { buyer: unknown; refusal: string | null } }
    }
    expect(home.data.checkout).toMatchObject({ buyer: null, refusal: refusal(account.email) })

    await t.verifyEmailOf(account.email)
    const verified = await billingLoader({ ...args, context: await contextOf(account) } as unknown as Parameters<typeof billingLoader>[0])
    expect(verified.checkout.refusal).toBeNull()
    expect(verified.checkout.buyer).toMatchObject({ id: account.id, email: account.email, token: expect.any(String) })
  })

  it('may not buy a plan in the sandbox checkout until it verifies', async () => {
    const account = await t.signUp({ verified: false })
    const args = { request: new Request(`${TEST_PUBLIC_URL}/billing/checkout?plan=pro`), params: {}, context: await contextOf(account) }
    expect(await checkoutLoader(args as unknown as Parameters<typeof checkoutLoader>[0])).toMatchObject({
      plan: null,
      error: refusal(account.email),
    })
    const refused = answerOf(await pay(account))
    expect(refused.init.status).toBe(403)
    expect(refused.data.error).toBe(refusal(account.email))
    expect(await subscriptionOf(account)).toBeNull()

    await t.verifyEmailOf(account.email)
    const paid = await pay(account)
    expect(paid).toBeInstanceOf(Response)
    expect((paid as Response).headers.get('location')).toBe('/dashboard')
    expect(await subscriptionOf(account)).toMatchObject({ planSlug: 'pro' })
  })

  it('may not change plans while its address is not verified (an account subscribed before the rule)', async () => {
    const account = await t.signUp()
    await pay(account)
    await t.db.update(users).set({ emailVerified: false }).where(eq(users.id, account.id))
    const refused = answerOf(await changePlan(account, 'business'))
    expect(refused.init.status).toBe(403)
    expect(refused.data.error).toBe(refusal(account.email))
    expect(await subscriptionOf(account)).toMatchObject({ planSlug: 'pro' })

    await t.verifyEmailOf(account.email)
    expect(await changePlan(account, 'business')).toBeInstanceOf(Response)
    expect(await subscriptionOf(account)).toMatchObject({ planSlug: 'business' })
  })
})
