import { z } from '@hono/zod-openapi'
import { restHookSubscribeSchema, WEBHOOK_EVENTS } from '#common/webhooks.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import type { WebhookService } from './webhook.service.ts'

// REST hooks (docs/decisions/067): the subscribe / unsubscribe convention of Zapier's and n8n's
// REST-hook triggers, over the workspace's webhook endpoints (one endpoint per subscription, for
// one event), and a sample of each event for the connector's set-up.

const tags = ['REST hooks']
/** Like the webhook endpoints they make: the workspace's owners and admins (docs/decisions/026). */
const access = member('automations', 'admin')

const subscriptionSchema = z
  .object({
    id: z.string().openapi({ description: 'The webhook endpoint made for it: DELETE /api/hooks/{id} ends the subscription' }),
    event: z.enum(WEBHOOK_EVENTS),
    target_url: z.string(),
    secret: z.string().openapi({ description: 'The signing secret `whsec_...` (Standard Webhooks), shown this once' }),
  })
  .openapi('RestHookSubscription')

const payloadSchema = z
  .object({ type: z.string(), timestamp: z.string(), workspaceId: z.string(), data: z.record(z.string(), z.unknown()) })
  .openapi('WebhookMessage')

const subscribe = signedInRoute(access, {
  method: 'post',
  path: '/',
  tags,
  summary: 'Subscribe a URL to one event: a webhook endpoint is made for it',
  description:
    `Events: ${WEBHOOK_EVENTS.join(', ')}. The body is \`{ target_url, event }\`; messages are signed like every webhook's. ` +
    'Private addresses are refused (400); the plan decides how many endpoints a workspace keeps (409).',
  request: { body: jsonBody(restHookSubscribeSchema) },
  responses: {
    201: { description: 'The subscription', content: { 'application/json': { schema: z.object({ data: subscriptionSchema }) } } },
    ...errorResponses(400, 409),
  },
})

const unsubscribe = signedInRoute(access, {
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Unsubscribe: the webhook endpoint and its delivery log are deleted',
  request: { params: ownedResourceParams },
  responses: { 204: { description: 'Unsubscribed' }, ...errorResponses(404) },
})

const samples = signedInRoute(access, {
  method: 'get',
  path: '/samples/{event}',
  tags,
  summary: "Samples of an event's message: the workspace's last three sent, else an example",
  request: {
    params: z.object({ event: z.enum(WEBHOOK_EVENTS, { error: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` }) }),
  },
  responses: {
    200: { description: 'Messages, newest first', content: { 'application/json': { schema: z.object({ data: z.array(payloadSchema) }) } } },
    ...errorResponses(400),
  },
})

export function createRestHooksApi(webhooks: WebhookService) {
  return createRouter()
    .openapi(subscribe, async (c) => {
      const { target_url, event } = c.req.valid('json')
      const { endpoint, secret } = await webhooks.create(callerOf(c.get('member')), {
        url: target_url,
        description: `REST hook: ${event}`,
        events: [event],
        enabled: true,
      })
      c.header('Cache-Control', 'no-store')
      return c.json({ data: { id: endpoint.id, event, target_url: endpoint.url, secret } }, 201)
    })
    .openapi(unsubscribe, async (c) => {
      await webhooks.remove(callerOf(c.get('member')), c.req.valid('param').id)
      return c.body(null, 204)
    })
    .openapi(samples, async (c) => {
      const messages = await webhooks.samples(callerOf(c.get('member')), c.req.valid('param').event)
      return c.json({ data: messages }, 200)
    })
}
