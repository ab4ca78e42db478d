import { createPaddleTestApp } from '#server/testing/paddle-test-app.ts'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paddleSubscriptionOf, paymentOf } from '#server/testing/billing-fixtures.ts'
import type { TestApp } from '#server/testing/create-test-app.ts'
import { FAKE_INVOICE_HOST, FAKE_PORTAL_URL, type FakePaddleApi } from '#server/testing/fake-paddle-api.ts'

// /api/billing (issue 33): the customer portal link and invoice links, as the browser extension
// and desktop apps would ask for them, with Paddle's API stood in for on loopback.

type Account = Awaited<ReturnType<TestApp['signUp']>>

describe('/api/billing', () => {
  let t: TestApp
  let paddle: FakePaddleApi
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ t, paddle, close } = await createPaddleTestApp())
  })
  afterAll(() => close())

  async function subscriber(): Promise<Account & { customer: string }> {
    const account = await t.signUp()
    const { customer } = await paddleSubscriptionOf(t.db, account.id)
    return { ...account, customer }
  }

  const paidBy = (account: Account) => paymentOf(t.db, account.id)

  const openPortal = (token?: string) => t.request('/api/billing/portal', { method: 'POST', token })
  const invoice = (paymentId: string, token?: string) => t.request(`/api/billing/invoices/${paymentId}`, { token })

  it('POST /portal answers a subscriber with a fresh portal link that nobody keeps', async () => {
    const account = await subscriber()
    const response = await openPortal(account.token)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await response.json()).toEqual({ data: { url: `${FAKE_PORTAL_URL}?action=overview&token=pga_${account.customer}` } })
  })

  it('POST /portal: 401 without a session, 409 with a clear message for a member who never subscribed, 403 with an API key', async () => {
    expect((await openPortal()).status).toBe(401)
    const member = await t.signUp()
    const refused = await openPortal(member.token)
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({
      message: 'There is nothing to manage yet: the customer portal opens once you have had a paid plan.',
    })
    const account = await subscriber()
    const key = await t.request('/api/keys', { token: account.token, body: { name: 'extension' } })
    const { data } = (await key.json()) as { data: { key: string } }
    expect((await openPortal(data.key)).status).toBe(403)
  })

  it("GET /invoices/{paymentId} answers the payment's owner with Paddle's invoice link", async () => {
    const account = await subscriber()
    const paid = await paidBy(account)
    const response = await invoice(paid.id, account.token)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await response.json()).toEqual({ data: { url: `${FAKE_INVOICE_HOST}/invoices/${paid.providerTransactionId}.pdf?token=fake` } })
  })

  it("GET /invoices/{paymentId}: another member's payment is 404, like a missing one or a malformed id; a visitor is 401", async () => {
    const [owner, other] = [await subscriber(), await subscriber()]
    const paid = await paidBy(owner)
    const requests = paddle.received.length
    for (const id of [paid.id, randomUUID(), 'not-a-uuid']) {
      const response = await invoice(id, other.token)
      expect(response.status, id).toBe(404)
      expect(await response.json()).toMatchObject({ message: 'There is no such payment.', code: 'NOT_FOUND' })
    }
    expect(paddle.received).toHaveLength(requests)
    expect((await invoice(paid.id)).status).toBe(401)
  })

  it("Paddle's refusal is a 503 with the reason, in the API's error format", async () => {
    const account = await subscriber()
    paddle.answerWith(500, { error: { code: 'internal_error', detail: 'Something went wrong' } })
    try {
      const response = await openPortal(account.token)
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({
        message: 'The payment provider refused to open the customer portal: Something went wrong. Please try again or contact support.',
        code: 'SERVICE_UNAVAILABLE',
      })
    } finally {
      paddle.answerLikePaddle()
    }
  })

  it('both routes are in the OpenAPI document, under Billing', async () => {
    const document = (await (await t.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[] }>>
    }
    expect(document.paths['/billing/portal']?.post?.tags).toEqual(['Billing'])
    expect(document.paths['/billing/invoices/{paymentId}']?.get?.tags).toEqual(['Billing'])
  })
})
