import { createPaddleTestApp } from '#server/testing/paddle-test-app.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paddleSubscriptionOf, paymentOf } from '#server/testing/billing-fixtures.ts'
import type { PageContext } from '#server/http/page-context.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { FAKE_INVOICE_HOST, FAKE_PORTAL_URL, type FakePaddleApi } from '#server/testing/fake-paddle-api.ts'
import { loader as portalInvoiceLoader } from './billing-portal-invoice.tsx'
import { action as portalAction, loader as portalLoader } from './billing-portal.tsx'
import { loader as invoiceLoader } from './billing-invoice.tsx'
import { loader as historyLoader } from './billing-history.tsx'
import { action as billingAction, loader as billingLoader } from './billing.tsx'

// The members' billing portal on the pages (issue 33): "Manage payment method and invoices" on
// /billing, the invoice links of the history, and the sandbox's own portal and invoice pages.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type PageFunction = (args: { request: Request; params: Record<string, string>; context: PageContext }) => Promise<unknown>

/** Calls a loader or action as React Router does; what it threw (a 404) comes back as the answer. */
async function call(run: unknown, t: TestApp, account: Account, path: string, form?: Record<string, string>, params = {}) {
  const request = form
    ? new Request(`${TEST_PUBLIC_URL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      })
    : new Request(`${TEST_PUBLIC_URL}${path}`)
  try {
    return await (run as PageFunction)({ request, params, context: await t.pageContext(account) })
  } catch (thrown) {
    return thrown
  }
}

const locationOf = (answer: unknown) => (answer instanceof Response ? answer.headers.get('location') : null)
const answerOf = (answer: unknown) => answer as { data: { error: string; title?: string }; init: { status: number } | null }
const openPortal = (t: TestApp, account: Account) => call(billingAction, t, account, '/billing', { intent: 'open-portal' })

describe('in the local sandbox', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ billing: { BILLING_SANDBOX: true } })
  })
  afterAll(async () => {
    await t.close()
  })

  /** A member past the trial: the $0 start and a $29 charge. */
  async function subscriber() {
    const account = await t.signUp()
    await t.services.billing.sandboxPurchase({ id: account.id, email: account.email, emailVerified: true }, 'pro', 'success')
    await t.services.billing.sandboxEndPeriod(account.id)
    const [paid] = await t.services.billing.recentPayments(account.id, 1)
    if (!paid) throw new Error('no payment')
    return { account, paid }
  }

  it('/billing offers the portal to a member with a customer only, and its button lands on the sandbox portal page', async () => {
    const member = await t.signUp()
    expect(await call(billingLoader, t, member, '/billing')).toMatchObject({ portal: false })
    expect(answerOf(await openPortal(t, member))).toMatchObject({
      init: { status: 409 },
      data: { title: 'Customer portal unavailable', error: expect.stringMatching(/^There is nothing to manage yet/) },
    })

    const { account } = await subscriber()
    expect(await call(billingLoader, t, account, '/billing')).toMatchObject({ portal: true })
    expect(locationOf(await openPortal(t, account))).toBe(`${TEST_PUBLIC_URL}/billing/portal`)
  })

  it('the history links the invoice of each paid payment through our server, which sends the owner on and nobody else', async () => {
    const { account, paid } = await subscriber()
    const { payments: rows } = (await call(historyLoader, t, account, '/billing/history')) as {
      payments: { id: string; amountLabel: string; invoiceHref: string | null }[]
    }
    expect(rows.map((row) => [row.amountLabel, row.invoiceHref])).toEqual([
      ['$29.00', `/billing/invoices/${paid.id}`],
      ['$0.00', null],
    ])
    const onward = await call(invoiceLoader, t, account, `/billing/invoices/${paid.id}`, undefined, { paymentId: paid.id })
    expect(locationOf(onward)).toBe(`${TEST_PUBLIC_URL}/billing/portal/invoices/${paid.providerTransactionId}`)
    expect((onward as Response).headers.get('cache-control')).toBe('private, no-store')

    const other = await t.signUp()
    const refused = await call(invoiceLoader, t, other, `/billing/invoices/${paid.id}`, undefined, { paymentId: paid.id })
    expect(answerOf(refused).init?.status).toBe(404)
    const sandboxInvoice = await call(portalInvoiceLoader, t, other, '/billing/portal/invoices/x', undefined, {
      transactionId: paid.providerTransactionId,
    })
    expect(answerOf(sandboxInvoice).init?.status).toBe(404)
  })

  it("the sandbox invoice page shows the owner's payment: number, date, plan and total", async () => {
    const { account, paid } = await subscriber()
    const invoice = await call(portalInvoiceLoader, t, account, '/billing/portal/invoices/x', undefined, {
      transactionId: paid.providerTransactionId,
    })
    expect(invoice).toMatchObject({
      number: paid.providerTransactionId,
      billedTo: account.email,
      description: 'Aether Pro plan, monthly',
      totalLabel: '$29.00',
      creditLabel: null,
      paidLabel: '$29.00',
    })
  })

  it('the sandbox portal shows the subscription, the card and the invoices, and changes the card to another test card', async () => {
    const { account, paid } = await subscriber()
    expect(await call(portalLoader, t, account, '/billing/portal')).toMatchObject({
      subscription: { planName: 'Pro', status: 'Active', card: { brand: 'visa', last4: '4242' } },
      invoices: [{ id: paid.id, invoiceHref: `/billing/invoices/${paid.id}` }],
    })
    const updated = await call(portalAction, t, account, '/billing/portal', { intent: 'update-payment-method', card: 'mastercard' })
    expect(locationOf(updated)).toBe('/billing/portal')
    expect(await call(portalLoader, t, account, '/billing/portal')).toMatchObject({
      subscription: { card: { brand: 'mastercard', last4: '4444' } },
    })
    const refused = await call(portalAction, t, account, '/billing/portal', { intent: 'update-payment-method', card: 'amex' })
    expect(answerOf(refused)).toMatchObject({ init: { status: 400 }, data: { error: 'Choose a test card.' } })
  })
})

describe('with Paddle (its API stood in for on loopback)', () => {
  let t: TestApp
  let paddle: FakePaddleApi
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ t, paddle, close } = await createPaddleTestApp())
  })
  afterAll(() => close())

  async function subscriber() {
    const account = await t.signUp()
    await paddleSubscriptionOf(t.db, account.id)
    return { account, paid: await paymentOf(t.db, account.id) }
  }

  it("the button redirects to Paddle's portal; a refusal is shown as the page shows action errors", async () => {
    const { account } = await subscriber()
    expect(locationOf(await openPortal(t, account))).toMatch(new RegExp(`^${FAKE_PORTAL_URL}\\?action=overview&token=`))
    paddle.answerWith(429, { error: { code: 'too_many_requests', detail: 'Too many requests' } })
    try {
      expect(answerOf(await openPortal(t, account))).toEqual({
        type: 'DataWithResponseInit',
        init: { status: 503 },
        data: {
          title: 'Customer portal unavailable',
          error: 'The payment provider refused to open the customer portal: Too many requests. Please try again or contact support.',
        },
      })
    } finally {
      paddle.answerLikePaddle()
    }
  })

  it("an invoice link goes on to Paddle's PDF; when Paddle refuses, the page says so", async () => {
    const { account, paid } = await subscriber()
    const onward = await call(invoiceLoader, t, account, `/billing/invoices/${paid.id}`, undefined, { paymentId: paid.id })
    expect(locationOf(onward)).toBe(`${FAKE_INVOICE_HOST}/invoices/${paid.providerTransactionId}.pdf?token=fake`)
    paddle.answerWith(500, { error: { code: 'internal_error', detail: 'Try later' } })
    try {
      const shown = answerOf(await call(invoiceLoader, t, account, `/billing/invoices/${paid.id}`, undefined, { paymentId: paid.id }))
      expect(shown.init?.status).toBe(503)
      expect(shown.data.error).toBe('The payment provider refused to send the invoice: Try later. Please try again or contact support.')
    } finally {
      paddle.answerLikePaddle()
    }
  })
})
