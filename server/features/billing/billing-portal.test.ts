import { createPaddleTestApp } from '#server/testing/paddle-test-app.ts'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditLedger } from '#server/db/schema/index.ts'
import { paddleSubscriptionOf, paymentOf } from '#server/testing/billing-fixtures.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { FAKE_INVOICE_HOST, FAKE_PORTAL_URL, type FakePaddleApi } from '#server/testing/fake-paddle-api.ts'

// The members' billing portal (issue 33): the provider's customer portal and each payment's
// invoice, through the real Paddle client (createPaddleApi) against a loopback stand-in of
// Paddle's API, through the local sandbox, and with no provider at all.

type Account = Awaited<ReturnType<TestApp['signUp']>>

const subscribe = (t: TestApp, account: Account, status?: string) => paddleSubscriptionOf(t.db, account.id, status)
const payment = (t: TestApp, account: Account, values?: Parameters<typeof paymentOf>[2]) => paymentOf(t.db, account.id, values)

describe('the billing portal with Paddle (its API stood in for on loopback)', () => {
  let t: TestApp
  let paddle: FakePaddleApi
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ t, paddle, close } = await createPaddleTestApp())
  })
  afterAll(() => close())

  it("opens a portal session for the workspace's customer, with the subscription it may manage, and hands back Paddle's overview link", async () => {
    const account = await t.signUp()
    const { customer, subscription } = await subscribe(t, account)
    expect(await t.services.billing.hasPortal(account.id)).toBe(true)

    const url = await t.services.billing.portalUrl(account.id)
    expect(paddle.received.at(-1)).toEqual({
      method: 'POST',
      url: `/customers/${customer}/portal-sessions`,
      auth: 'Bearer pdl_key',
      body: { subscription_ids: [subscription] },
    })
    expect(url).toBe(`${FAKE_PORTAL_URL}?action=overview&token=pga_${customer}`)
  })

  it('a customer whose subscription has ended still opens the portal (for the invoices), with no subscription to manage', async () => {
    const account = await t.signUp()
    const { customer } = await subscribe(t, account, 'canceled')
    await t.services.billing.portalUrl(account.id)
    expect(paddle.received.at(-1)).toMatchObject({ url: `/customers/${customer}/portal-sessions`, body: { subscription_ids: [] } })
  })

  it('a workspace that never had a paid subscription has no customer: no portal, a clear 409, and nothing is asked of Paddle', async () => {
    const account = await t.signUp()
    const requests = paddle.received.length
    expect(await t.services.billing.hasPortal(account.id)).toBe(false)
    await expect(t.services.billing.portalUrl(account.id)).rejects.toMatchObject({
      status: 409,
      message: 'There is nothing to manage yet: the customer portal opens once you have had a paid plan.',
    })
    expect(paddle.received).toHaveLength(requests)
  })

  it("Paddle's refusal, or an answer without a link, reaches the member as a clear 503 message", async () => {
    const account = await t.signUp()
    await subscribe(t, account)
    paddle.answerWith(403, { error: { code: 'forbidden', detail: 'You aren’t permitted to perform this request.' } })
    await expect(t.services.billing.portalUrl(account.id)).rejects.toMatchObject({
      status: 503,
      message:
        'The payment provider refused to open the customer portal: You aren’t permitted to perform this request. Please try again or contact support.',
    })
    paddle.answerWith(201, { data: { urls: { general: { overview: 'javascript:alert(1)' } } } })
    await expect(t.services.billing.portalUrl(account.id)).rejects.toMatchObject({
      status: 503,
      message: 'The payment provider sent no usable link. Please try again in a few minutes.',
    })
    paddle.answerLikePaddle()
  })

  it("gets a payment's invoice link from Paddle, by its transaction, to open in the browser", async () => {
    const account = await t.signUp()
    const paid = await payment(t, account)
    const url = await t.services.billing.invoiceUrl(account.id, paid.id)
    expect(paddle.received.at(-1)).toEqual({
      method: 'GET',
      url: `/transactions/${paid.providerTransactionId}/invoice?disposition=inline`,
      auth: 'Bearer pdl_key',
      body: null,
    })
    expect(url).toBe(`${FAKE_INVOICE_HOST}/invoices/${paid.providerTransactionId}.pdf?token=fake`)
    // Paid wholly from the credit balance, it still had a value: it has an invoice.
    const fromBalance = await payment(t, account, { amount: 0, creditApplied: 29 })
    await expect(t.services.billing.invoiceUrl(account.id, fromBalance.id)).resolves.toContain(fromBalance.providerTransactionId)
  })

  it("never hands out another member's invoice, nor one a payment does not have: 404, and Paddle is not asked", async () => {
    const [owner, other] = [await t.signUp(), await t.signUp()]
    const paid = await payment(t, owner)
    const requests = paddle.received.length
    await expect(t.services.billing.invoiceUrl(other.id, paid.id)).rejects.toMatchObject({
      status: 404,
      message: 'There is no such payment.',
    })
    await expect(t.services.billing.invoiceUrl(owner.id, 'not-a-uuid')).rejects.toMatchObject({ status: 404 })
    await expect(t.services.billing.invoiceUrl(owner.id, randomUUID())).rejects.toMatchObject({ status: 404 })
    for (const values of [{ amount: 0 }, { status: 'failed' as const }, { status: 'pending' as const }]) {
      const without = await payment(t, owner, values)
      await expect(t.services.billing.invoiceUrl(owner.id, without.id)).rejects.toMatchObject({
        status: 404,
        message: 'This payment has no invoice: only completed payments of more than $0.00 have one.',
      })
    }
    expect(paddle.received).toHaveLength(requests)
  })

  it("Paddle's refusal of an invoice is a clear 503 message", async () => {
    const account = await t.signUp()
    const paid = await payment(t, account)
    paddle.answerWith(404, { error: { code: 'not_found', detail: 'Entity txn_x not found' } })
    await expect(t.services.billing.invoiceUrl(account.id, paid.id)).rejects.toMatchObject({
      status: 503,
      message: 'The payment provider refused to send the invoice: Entity txn_x not found. Please try again or contact support.',
    })
    paddle.answerLikePaddle()
  })

  it('Paddle out of reach is a 503 that says so', async () => {
    const unreachable = await createTestApp({
      billing: { PADDLE_CLIENT_TOKEN: 'test_token', PADDLE_API_KEY: 'pdl_key', PADDLE_API_URL: 'http://127.0.0.1:9' },
    })
    try {
      const account = await unreachable.signUp()
      await subscribe(unreachable, account)
      await expect(unreachable.services.billing.portalUrl(account.id)).rejects.toMatchObject({
        status: 503,
        message: 'The payment provider could not be reached. Please try again in a few minutes.',
      })
    } finally {
      await unreachable.close()
    }
  })
})

describe('the billing portal in the local sandbox', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await t.close()
  })

  const buyPro = async (account: Account) => {
    await t.services.billing.sandboxPurchase({ id: account.id, email: account.email, emailVerified: true }, 'pro', 'success')
    // The trial's $0 start has no invoice; its end charges the first month.
    await t.services.billing.sandboxEndPeriod(account.id)
    const [paid] = await t.services.billing.recentPayments(account.id, 1)
    if (!paid) throw new Error('no payment')
    return paid
  }

  it("the portal and invoices are the sandbox's own pages on this site", async () => {
    const account = await t.signUp()
    expect(await t.services.billing.hasPortal(account.id)).toBe(false)
    const paid = await buyPro(account)
    expect(await t.services.billing.hasPortal(account.id)).toBe(true)
    expect(await t.services.billing.portalUrl(account.id)).toBe(`${TEST_PUBLIC_URL}/billing/portal`)
    expect(await t.services.billing.invoiceUrl(account.id, paid.id)).toBe(
      `${TEST_PUBLIC_URL}/billing/portal/invoices/${paid.providerTransactionId}`,
    )
    expect(await t.services.billing.invoicedPayment(account.id, paid.providerTransactionId)).toMatchObject({ id: paid.id, amount: 29 })
  })

  it("the sandbox's invoice page finds only the workspace's own invoiced payments", async () => {
    const [owner, other] = [await t.signUp(), await t.signUp()]
    const paid = await buyPro(owner)
    expect(await t.services.billing.invoicedPayment(other.id, paid.providerTransactionId)).toBeNull()
    const [trialStart] = (await t.services.billing.recentPayments(owner.id, 2)).slice(1)
    expect(trialStart).toMatchObject({ amount: 0 })
    expect(await t.services.billing.invoicedPayment(owner.id, trialStart?.providerTransactionId ?? '')).toBeNull()
    await expect(t.services.billing.invoiceUrl(other.id, paid.id)).rejects.toMatchObject({ status: 404 })
  })

  it('updating the payment method saves the new card through a signed $0 transaction, as Paddle does; no credits change; renewals use it', async () => {
    const account = await t.signUp()
    await buyPro(account)
    const credits = await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, account.id))
    expect(await t.services.billing.currentSubscription(account.id)).toMatchObject({ cardBrand: 'visa', cardLast4: '4242' })

    await t.services.billing.sandboxUpdatePaymentMethod(account.id, 'mastercard')
    expect(await t.services.billing.currentSubscription(account.id)).toMatchObject({ cardBrand: 'mastercard', cardLast4: '4444' })
    const [change] = await t.services.billing.recentPayments(account.id, 1)
    expect(change).toMatchObject({ status: 'success', amount: 0, creditApplied: 0 })
    await expect(t.services.billing.invoiceUrl(account.id, change?.id ?? '')).rejects.toMatchObject({ status: 404 })
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, account.id))).toHaveLength(credits.length)
    // The next renewal is charged to the new card, and keeps it on file.
    await t.services.billing.sandboxEndPeriod(account.id)
    expect(await t.services.billing.currentSubscription(account.id)).toMatchObject({ cardBrand: 'mastercard', cardLast4: '4444' })
  })

  it('without a subscription there is no payment method to update', async () => {
    const account = await t.signUp()
    await expect(t.services.billing.sandboxUpdatePaymentMethod(account.id, 'visa')).rejects.toMatchObject({ status: 409 })
  })
})

describe('the billing portal without a payment provider', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  it('offers no portal and no invoices, and says why when asked', async () => {
    const account = await t.signUp()
    await subscribe(t, account)
    const paid = await payment(t, account)
    expect(t.services.billing.invoicesAvailable).toBe(false)
    expect(await t.services.billing.hasPortal(account.id)).toBe(false)
    await expect(t.services.billing.portalUrl(account.id)).rejects.toMatchObject({
      status: 503,
      message: 'The customer portal is not available right now: the payment provider is not configured.',
    })
    await expect(t.services.billing.invoiceUrl(account.id, paid.id)).rejects.toMatchObject({
      status: 503,
      message: 'Invoices are not available right now: the payment provider is not configured.',
    })
  })
})
