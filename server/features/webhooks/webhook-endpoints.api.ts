import { z } from '@hono/zod-openapi'
import { paginationQuerySchema } from '#common/pagination.ts'
import { WEBHOOK_EVENTS, webhookCreateSchema, webhookUpdateSchema } from '#common/webhooks.ts'
import { isUuid, NIL_UUID } from '#common/ids.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams, pageResponse } from '#server/http/openapi.ts'
import type { WebhookDeliveryWithAttempts, WebhookEndpoint, WebhookService } from './webhook.service.ts'

const tags = ['Webhooks']
/** Webhooks are the workspace's integrations: its owners and admins manage them (docs/decisions/026). */
const access = member('automations', 'admin')
const idParam = ownedResourceParams
const deliveryParams = idParam.extend({
  deliveryId: z
    .string()
    .transform((id) => (isUuid(id) ? id : NIL_UUID))
    .openapi({ format: 'uuid' }),
})

const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    consecutiveFailures: z.number().int(),
    disabledReason: z.string().nullable().openapi({ description: 'Why we turned it off (repeated failed deliveries); null otherwise' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookEndpoint')

const withSecretSchema = endpointSchema
  .extend({ secret: z.string().openapi({ description: 'The signing secret `whsec_...`. It is shown this once and never again.' }) })
  .openapi('WebhookEndpointWithSecret')

const attemptSchema = z.object({
  attempt: z.number().int(),
  statusCode: z.number().int().nullable(),
  responseMs: z.number().int(),
  ok: z.boolean(),
  error: z.string().nullable(),
  at: z.string(),
})

const deliverySchema = z
  .object({
    id: z.string(),
    messageId: z.string().openapi({ description: 'The webhook-id header: the same on every attempt and redelivery' }),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    log: z.array(attemptSchema).openapi({ description: 'Every attempt, newest first' }),
  })
  .openapi('WebhookDelivery')

export function toEndpointDto(endpoint: WebhookEndpoint): z.infer<typeof endpointSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    consecutiveFailures: endpoint.consecutiveFailures,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  }
}

function toDeliveryDto(delivery: WebhookDeliveryWithAttempts): z.infer<typeof deliverySchema> {
  return {
    id: delivery.id,
    messageId: delivery.messageId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    log: delivery.attempts.map((entry) => ({
      attempt: entry.attempt,
      statusCode: entry.statusCode,
      responseMs: entry.responseMs,
      ok: entry.ok,
      error: entry.error,
      at: entry.createdAt.toISOString(),
    })),
  }
}

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: schema }) } },
})

const list = signedInRoute(access, {
  method: 'get',
  path: '/',
  tags,
  summary: "The workspace's webhook endpoints (never their secrets)",
  responses: { 200: json(z.array(endpointSchema), 'The endpoints') },
})

const create = signedInRoute(access, {
  method: 'post',
  path: '/',
  tags,
  summary: 'Add a webhook endpoint; the answer holds its signing secret, shown once',
  description:
    `Events: ${WEBHOOK_EVENTS.join(', ')}. Messages are signed per Standard Webhooks (webhook-id, webhook-timestamp, ` +
    'webhook-signature). The URL must reach a public address (the cloud runs’ target guard): a private one is refused (400). ' +
    'How many endpoints a workspace keeps is part of its plan (409 naming the plan that allows more).',
  request: { body: jsonBody(webhookCreateSchema) },
  responses: { 201: json(withSecretSchema, 'The new endpoint and its secret'), ...errorResponses(400, 409) },
})

const update = signedInRoute(access, {
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change an endpoint: URL, description, events, or turn it on or off',
  request: { params: idParam, body: jsonBody(webhookUpdateSchema) },
  responses: { 200: json(endpointSchema, 'The endpoint'), ...errorResponses(400, 404) },
})

const remove = signedInRoute(access, {
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete an endpoint and its delivery log',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
})

const rotate = signedInRoute(access, {
  method: 'post',
  path: '/{id}/rotate-secret',
  tags,
  summary: 'Replace the signing secret; the answer holds the new one, shown once (the old one stops signing at once)',
  request: { params: idParam },
  responses: { 200: json(withSecretSchema, 'The endpoint and its new secret'), ...errorResponses(404) },
})

const deliveries = signedInRoute(access, {
  method: 'get',
  path: '/{id}/deliveries',
  tags,
  summary: "The endpoint's delivery log, newest first: each event with every attempt's status code and response time",
  request: { params: idParam, query: paginationQuerySchema },
  responses: { 200: pageResponse(deliverySchema, 'A page of deliveries'), ...errorResponses(400, 404) },
})

const redeliver = signedInRoute(access, {
  method: 'post',
  path: '/{id}/deliveries/{deliveryId}/redeliver',
  tags,
  summary: 'Send a delivery again now (same message id and body, a new timestamp and signature); the answer shows the attempt',
  request: { params: deliveryParams },
  responses: { 200: json(deliverySchema, 'The delivery with its new attempt'), ...errorResponses(400, 404) },
})

const sendTest = signedInRoute(access, {
  method: 'post',
  path: '/{id}/test',
  tags,
  summary: 'Send a webhook.test message to this endpoint now; the answer shows how the receiver answered',
  request: { params: idParam },
  responses: { 200: json(deliverySchema, 'The test delivery'), ...errorResponses(404) },
})

export function createWebhookEndpointsApi(webhooks: WebhookService) {
  return createRouter()
    .openapi(list, async (c) => {
      return c.json({ data: (await webhooks.list(callerOf(c.get('member')))).map(toEndpointDto) }, 200)
    })
    .openapi(create, async (c) => {
      const { endpoint, secret } = await webhooks.create(callerOf(c.get('member')), c.req.valid('json'))
      c.header('Cache-Control', 'no-store')
      return c.json({ data: { ...toEndpointDto(endpoint), secret } }, 201)
    })
    .openapi(update, async (c) => {
      const endpoint = await webhooks.update(callerOf(c.get('member')), c.req.valid('param').id, c.req.valid('json'))
      return c.json({ data: toEndpointDto(endpoint) }, 200)
    })
    .openapi(remove, async (c) => {
      await webhooks.remove(callerOf(c.get('member')), c.req.valid('param').id)
      return c.body(null, 204)
    })
    .openapi(rotate, async (c) => {
      const { endpoint, secret } = await webhooks.rotateSecret(callerOf(c.get('member')), c.req.valid('param').id)
      c.header('Cache-Control', 'no-store')
      return c.json({ data: { ...toEndpointDto(endpoint), secret } }, 200)
    })
    .openapi(deliveries, async (c) => {
      const page = await webhooks.deliveries(callerOf(c.get('member')), c.req.valid('param').id, c.req.valid('query'))
      return c.json({ data: page.items.map(toDeliveryDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(redeliver, async (c) => {
      const { id, deliveryId } = c.req.valid('param')
      return c.json({ data: toDeliveryDto(await webhooks.redeliver(callerOf(c.get('member')), id, deliveryId)) }, 200)
    })
    .openapi(sendTest, async (c) => {
      return c.json({ data: toDeliveryDto(await webhooks.sendTest(callerOf(c.get('member')), c.req.valid('param').id)) }, 200)
    })
}
