import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as the stand-in received it. */
export interface PaddleRequest {
  method: string
  url: string
  auth: string | undefined
  body: unknown
}

/** Where the stand-in's customer portal sessions and invoices point (Paddle's own hosts). */
export const FAKE_PORTAL_URL = 'https://customer-portal.paddle.com/cpl_01fake'
export const FAKE_INVOICE_HOST = 'https://sandbox-invoice.paddle.com'

const PORTAL_SESSION = /^\/customers\/([^/]+)\/portal-sessions$/
const INVOICE = /^\/transactions\/([^/]+)\/invoice$/

/** What Paddle answers (developer.paddle.com/api-reference): a portal session, an invoice link, or the changed entity. */
function paddleAnswer(method: string, url: string, body: unknown): { status: number; body: unknown } {
  const { pathname } = new URL(url, 'http://paddle.test')
  const portal = method === 'POST' ? PORTAL_SESSION.exec(pathname) : null
  if (portal) {
    const customerId = decodeURIComponent(portal[1] ?? '')
    const subscriptionIds = (body as { subscription_ids?: string[] } | null)?.subscription_ids ?? []
    const token = `pga_${customerId}`
    return {
      status: 201,
      body: {
        data: {
          id: 'cpls_01fake',
          customer_id: customerId,
          urls: {
            general: { overview: `${FAKE_PORTAL_URL}?action=overview&token=${token}` },
            subscriptions: subscriptionIds.map((id) => ({
              id,
              cancel_subscription: `${FAKE_PORTAL_URL}?action=cancel_subscription&subscription_id=${id}&token=${token}`,
              update_subscription_payment_method: `${FAKE_PORTAL_URL}?action=update_subscription_payment_method&subscription_id=${id}&token=${token}`,
            })),
          },
          created_at: new Date().toISOString(),
        },
        meta: { request_id: 'req_fake' },
      },
    }
  }
  const invoice = method === 'GET' ? INVOICE.exec(pathname) : null
  if (invoice) {
    return {
      status: 200,
      body: { data: { url: `${FAKE_INVOICE_HOST}/invoices/${invoice[1]}.pdf?token=fake` }, meta: { request_id: 'req_fake' } },
    }
  }
  return { status: 200, body: { data: {}, meta: { request_id: 'req_fake' } } }
}

/**
 * A stand-in for Paddle's REST API on loopback (PADDLE_API_URL): records every request and answers
 * as Paddle does, or with whatever a test sets through answerWith (a refusal), until answerLikePaddle.
 */
export async function startFakePaddleApi() {
  const received: PaddleRequest[] = []
  let override: { status: number; body: unknown } | null = null
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let raw = ''
    for await (const chunk of request) raw += chunk
    const body: unknown = raw ? JSON.parse(raw) : null
    const method = request.method ?? ''
    const url = request.url ?? ''
    received.push({ method, url, auth: request.headers.authorization, body })
    const answer = override ?? paddleAnswer(method, url, body)
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerWith(status: number, body: unknown) {
      override = { status, body }
    },
    answerLikePaddle() {
      override = null
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type FakePaddleApi = Awaited<ReturnType<typeof startFakePaddleApi>>
