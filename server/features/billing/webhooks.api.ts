import { z } from '@hono/zod-openapi'
import { publicRoute } from '#server/http/access.ts'
import { createRouter, errorSchema } from '#server/http/openapi.ts'
import type { WebhookService } from './webhook.service.ts'

const paddleWebhook = publicRoute({
  method: 'post',
  path: '/paddle',
  tags: ['Webhooks'],
  summary: 'Paddle Billing notifications (signed with the Paddle-Signature header)',
  description:
    'Verifies `Paddle-Signature` (HMAC-SHA256 of `ts:body` with the endpoint secret; any of several h1 values; ' +
    'a timestamp within 5 minutes), then applies the event once per event id. Unsigned, forged or stale deliveries ' +
    'get 401 and change nothing; a body that is not a Paddle event gets 400.',
  responses: {
    200: {
      description: 'Received: applied, ignored (not ours or not used) or a duplicate',
      content: {
        'application/json': { schema: z.object({ received: z.boolean(), outcome: z.enum(['applied', 'ignored', 'duplicate']) }) },
      },
    },
    400: { description: 'Malformed event', content: { 'application/json': { schema: errorSchema } } },
    401: { description: 'Missing, forged or stale signature', content: { 'application/json': { schema: errorSchema } } },
    503: { description: 'Webhooks are not configured', content: { 'application/json': { schema: errorSchema } } },
  },
})

export function createWebhooksApi(webhooks: WebhookService) {
  // No request schema: the body is read raw, because the signature covers the exact bytes sent.
  return createRouter().openapi(paddleWebhook, async (c) => {
    const result = await webhooks.receive(await c.req.text(), c.req.header('paddle-signature'))
    if (result.status === 200) return c.json({ received: true, outcome: result.outcome }, 200)
    return c.json({ message: result.message, code: result.status === 401 ? 'INVALID_SIGNATURE' : 'BAD_WEBHOOK' }, result.status)
  })
}
