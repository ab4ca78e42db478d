import { z } from '@hono/zod-openapi'
import {
  secretPlaceholder,
  VAULT_SECRET_KINDS,
  VAULT_USE_ROLES,
  vaultSecretCreateSchema,
  vaultSecretReplaceSchema,
  vaultSecretRulesSchema,
} from '#common/vault.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import type { VaultSecretSummary, VaultService } from './vault.service.ts'

const secretSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'shop_password' }),
    kind: z.enum(VAULT_SECRET_KINDS),
    placeholder: z.string().openapi({
      example: '{{secrets.shop_password}}',
      description: 'What a step writes to use it: only in the text a type step types (docs/decisions/039)',
    }),
    origins: z.array(z.string()).openapi({
      example: ['https://shop.example.com'],
      description:
        'The sites it may be typed on: the frame holding the field (and every frame around it) must show a page of one of these origins when the value is typed. Empty: it cannot be used until one is set.',
    }),
    useRole: z.enum(VAULT_USE_ROLES).openapi({
      description: 'The least workspace role whose automations may use it (checked on save and when a run is queued and started)',
    }),
    originsSetFromSteps: z.boolean().openapi({
      description:
        'True while its origins are the ones migration 0023 took from the automations that type it and nobody who knows the value has confirmed them (PATCH with `value`); they work for 30 days after the migration, then not until confirmed',
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('VaultSecret')

function toSecretDto(secret: VaultSecretSummary): z.infer<typeof secretSchema> {
  return {
    id: secret.id,
    name: secret.name,
    kind: secret.kind,
    placeholder: secretPlaceholder(secret.kind, secret.name),
    origins: secret.origins,
    useRole: secret.useRole,
    originsSetFromSteps: secret.originsFromStepsAt !== null,
    createdAt: secret.createdAt.toISOString(),
    updatedAt: secret.updatedAt.toISOString(),
  }
}

const tags = ['Vault']
const one = { 'application/json': { schema: z.object({ data: secretSchema }) } }
// Changing the vault needs a session: a leaked API key cannot plant or swap the credentials runs type.
const SESSION_ONLY = 'Needs a session (an API key is refused with 403). The value is never returned, here or anywhere else.'

const list = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/',
  tags,
  summary: "The workspace's secrets: names, kinds and dates, never values",
  responses: {
    200: { description: 'The secrets, by name', content: { 'application/json': { schema: z.object({ data: z.array(secretSchema) }) } } },
  },
})

const create = signedInRoute(member('never', 'member'), {
  method: 'post',
  path: '/',
  tags,
  summary: 'Add a secret (kind: username, password, totp or value) with the sites it may be typed on; refused past the plan’s vault size',
  description: `${SESSION_ONLY} \`origins\` (required) lists the sites it may be typed on, as addresses or hosts (kept as origins, e.g. https://app.example.com); \`useRole\` (member, admin or owner; default member) is the least role whose automations may use it, at most the caller's own.`,
  request: { body: jsonBody(vaultSecretCreateSchema) },
  responses: { 201: { description: 'Added', content: one }, ...errorResponses(400, 403, 409) },
})

const replace = signedInRoute(member('never', 'member'), {
  method: 'put',
  path: '/{id}',
  tags,
  summary: 'Replace a secret’s value (its name, kind, sites and role stay)',
  description: SESSION_ONLY,
  request: { params: ownedResourceParams, body: jsonBody(vaultSecretReplaceSchema) },
  responses: { 200: { description: 'Replaced', content: one }, ...errorResponses(400, 403, 404) },
})

const setRules = signedInRoute(member('never', 'member'), {
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change the sites a secret may be typed on, and who may use it; adding a site needs the secret’s current value',
  description: `${SESSION_ONLY} A secret kept for admins or the owner is changed by them only. Adding a site (an origin not in its list) needs \`value\`, the secret's current value: without it 400 (issue on \`value\`), with a wrong one 403; removing sites and changing \`useRole\` need none. A right \`value\` also confirms origins set from the automations. Tries of a value are limited to 10 an hour per secret (429), and a wrong one is written to the workspace's activity.`,
  request: { params: ownedResourceParams, body: jsonBody(vaultSecretRulesSchema) },
  responses: { 200: { description: 'Changed', content: one }, ...errorResponses(400, 403, 404, 409, 429) },
})

const remove = signedInRoute(member('never', 'member'), {
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete a secret; steps that name it stop working until it is added again',
  description: SESSION_ONLY,
  request: { params: ownedResourceParams },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(400, 404),
  },
})

export function createVaultApi(vault: VaultService) {
  return createRouter()
    .openapi(list, async (c) => {
      const secrets = await vault.list(callerOf(c.get('member')).workspace.id)
      return c.json({ data: secrets.map(toSecretDto) }, 200)
    })
    .openapi(create, async (c) => {
      return c.json({ data: toSecretDto(await vault.create(callerOf(c.get('member')), c.req.valid('json'))) }, 201)
    })
    .openapi(replace, async (c) => {
      const secret = await vault.replace(callerOf(c.get('member')), c.req.valid('param').id, c.req.valid('json').value)
      return c.json({ data: toSecretDto(secret) }, 200)
    })
    .openapi(setRules, async (c) => {
      const secret = await vault.setRules(callerOf(c.get('member')), c.req.valid('param').id, c.req.valid('json'))
      return c.json({ data: toSecretDto(secret) }, 200)
    })
    .openapi(remove, async (c) => {
      await vault.remove(callerOf(c.get('member')), c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}

const forgetSession = signedInRoute(member('automations', 'member'), {
  method: 'delete',
  path: '/{id}/session',
  tags: ['Automations'],
  summary: 'Forget the browser session an automation keeps between cloud runs: its next run starts signed out',
  request: { params: ownedResourceParams },
  responses: {
    200: {
      description: 'Forgotten (false: there was none)',
      content: { 'application/json': { schema: z.object({ data: z.object({ forgotten: z.boolean() }) }) } },
    },
    ...errorResponses(400, 404),
  },
})

/** Kept browser sessions under /automations/{id}/session (docs/decisions/025). */
export function createSessionApi(vault: VaultService) {
  return createRouter().openapi(forgetSession, async (c) => {
    return c.json({ data: await vault.forgetSession(callerOf(c.get('member')), c.req.valid('param').id) }, 200)
  })
}
