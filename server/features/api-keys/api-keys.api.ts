import { z } from '@hono/zod-openapi'
import { API_KEY_SCOPES, apiKeyCreateSchema, MAX_ACTIVE_API_KEYS } from '#common/api-keys.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { ApiKeyService, ApiKeySummary } from './api-key.service.ts'

const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().openapi({ example: 'ak_3f9c2a1b' }),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi('ApiKey')

const createdApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdAt: z.string(),
    key: z.string().openapi({ description: 'The whole key. It is shown this once and never again.' }),
  })
  .openapi('CreatedApiKey')

function toApiKeyDto(key: ApiKeySummary): z.infer<typeof apiKeySchema> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

const SESSION_ONLY = 'Needs a session: a request signed in with an API key is refused (403), so a leaked key cannot mint or revoke keys.'

const list = signedInRoute(member('any', 'viewer'), {
  method: 'get',
  path: '/',
  tags: ['API keys'],
  summary: 'Your API keys, newest first (revoked ones too); never the secret',
  responses: {
    200: { description: 'Your keys', content: { 'application/json': { schema: z.object({ data: z.array(apiKeySchema) }) } } },
  },
})

const create = signedInRoute(member('never', 'member'), {
  method: 'post',
  path: '/',
  tags: ['API keys'],
  summary: 'Create a named API key with scopes; the response holds the whole key, shown once',
  description:
    `Use it as \`Authorization: Bearer ak_...\` on the routes whose apiKeyAuth lists one of its scopes. \`scopes\` defaults to ` +
    `["automations"]; the admin scopes (admin:read, admin:content) are for admins only (403). At most ${MAX_ACTIVE_API_KEYS} active keys. ${SESSION_ONLY}`,
  request: { body: jsonBody(apiKeyCreateSchema) },
  responses: {
    201: { description: 'The new key', content: { 'application/json': { schema: z.object({ data: createdApiKeySchema }) } } },
    ...errorResponses(400, 409),
  },
})

const revoke = signedInRoute(member('never'), {
  method: 'delete',
  path: '/{id}',
  tags: ['API keys'],
  summary: 'Revoke one of your API keys: it stops working at once',
  description: SESSION_ONLY,
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: {
    200: { description: 'The revoked key', content: { 'application/json': { schema: z.object({ data: apiKeySchema }) } } },
    ...errorResponses(404),
  },
})

export function createApiKeysApi(apiKeys: ApiKeyService) {
  return createRouter()
    .openapi(list, async (c) => {
      return c.json({ data: (await apiKeys.list(callerOf(c.get('member')))).map(toApiKeyDto) }, 200)
    })
    .openapi(create, async (c) => {
      const user = c.get('member')
      const { name, scopes } = c.req.valid('json')
      const created = await apiKeys.create(callerOf(user), name, scopes)
      const data = {
        id: created.id,
        name: created.name,
        prefix: created.prefix,
        scopes: created.scopes,
        createdAt: created.createdAt.toISOString(),
        key: created.key,
      }
      // The key must not linger in any cache between here and the member.
      c.header('Cache-Control', 'no-store')
      return c.json({ data }, 201)
    })
    .openapi(revoke, async (c) => {
      const revoked = await apiKeys.revoke(c.get('member'), c.req.valid('param').id)
      return c.json({ data: toApiKeyDto(revoked) }, 200)
    })
}
