import { z } from '@hono/zod-openapi'
import { RUN_STATUSES } from '#common/automations.ts'
import { ValidationError } from '#common/errors.ts'
import { runInputsSchema, type RunInputs } from '#common/run-inputs.ts'
import { callerOf, member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, ownedResourceParams, bodyReadByHandler } from '#server/http/openapi.ts'
import type { TriggeredRun, TriggerService, TriggerStatus } from './trigger.service.ts'

const tags = ['Trigger URLs']

const statusSchema = z
  .object({ hint: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .openapi('TriggerUrl', { description: 'An automation’s trigger URL, without its secret (the last four characters tell URLs apart)' })
const issuedSchema = statusSchema
  .extend({ secret: z.string(), url: z.string() })
  .openapi('IssuedTriggerUrl', { description: 'A new trigger URL: the only time its secret is shown' })

/** What a trigger's caller learns about the run it started (the workspace's members see all of it). */
const triggeredRunSchema = z
  .object({
    id: z.string(),
    automationId: z.string().nullable(),
    status: z.enum(RUN_STATUSES),
    trigger: z.literal('url'),
    inputs: z.record(z.string(), z.string()),
    createdAt: z.string(),
  })
  .openapi('TriggeredRun')

const toTriggeredRunDto = (run: TriggeredRun): z.infer<typeof triggeredRunSchema> => ({
  id: run.id,
  automationId: run.automationId,
  status: run.status,
  trigger: 'url',
  inputs: run.inputs,
  createdAt: run.createdAt.toISOString(),
})

const toStatusDto = (status: TriggerStatus) => ({
  hint: status.hint,
  createdAt: status.createdAt.toISOString(),
  lastUsedAt: status.lastUsedAt?.toISOString() ?? null,
})

const status = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}/trigger',
  tags,
  summary: "The automation's trigger URL, if it has one (its secret is never shown again)",
  request: { params: ownedResourceParams },
  responses: {
    200: {
      description: 'The trigger URL, or null',
      content: { 'application/json': { schema: z.object({ data: statusSchema.nullable() }) } },
    },
    ...errorResponses(404),
  },
})

const issue = signedInRoute(member('never', 'member'), {
  method: 'post',
  path: '/{id}/trigger',
  tags,
  summary:
    'Create the automation’s trigger URL, or rotate it (the old URL stops working). The answer is the only time the secret is shown. Refused with 409 PLAN_LIMIT on plans without trigger URLs.',
  request: { params: ownedResourceParams },
  responses: {
    201: { description: 'The new trigger URL', content: { 'application/json': { schema: z.object({ data: issuedSchema }) } } },
    ...errorResponses(404, 409),
  },
})

const revoke = signedInRoute(member('never', 'member'), {
  method: 'delete',
  path: '/{id}/trigger',
  tags,
  summary: 'Revoke the automation’s trigger URL: it stops working at once',
  request: { params: ownedResourceParams },
  responses: {
    200: { description: 'Revoked', content: { 'application/json': { schema: z.object({ data: z.object({ ok: z.literal(true) }) }) } } },
    ...errorResponses(404),
  },
})

const fireBodySchema = z.object({ inputs: runInputsSchema.default({}) }).strict()

const fire = publicRoute({
  method: 'post',
  path: '/{secret}',
  tags,
  summary:
    'Start a cloud run of the automation the trigger URL belongs to (no account needed: the URL is the credential). Body, optional: {"inputs": {"name": "value"}} with a value for each {{input.name}} its steps use (text: a value is never read as a placeholder). 401 for a revoked, rotated or unknown URL; 403 when its steps use a vault secret the URL’s maker may no longer use; rate limited per URL.',
  // The secret is the credential: read by the handler, so a malformed one is refused like a wrong
  // one (401), never told apart by validation.
  parameters: [{ name: 'secret', in: 'path', required: true, schema: { type: 'string' }, description: 'The trigger URL’s secret (trg_…)' }],
  request: { body: bodyReadByHandler(fireBodySchema, false) },
  responses: {
    202: { description: 'The run, queued', content: { 'application/json': { schema: z.object({ data: triggeredRunSchema }) } } },
    ...errorResponses(400, 401, 403, 409, 429),
  },
})

/** The body a trigger is fired with, read only after its secret was accepted: a stranger learns nothing from a 400. */
function inputsOf(text: string): RunInputs {
  if (!text.trim()) return {}
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ValidationError('The body must be JSON: {"inputs": {"name": "value"}}.')
  }
  const parsed = fireBodySchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ValidationError(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data.inputs
}

/** Managing an automation's trigger URL: mounted under /automations. */
export function createAutomationTriggerApi(triggers: TriggerService) {
  return createRouter()
    .openapi(status, async (c) => {
      const found = await triggers.status(c.req.valid('param').id, callerOf(c.get('member')))
      return c.json({ data: found ? toStatusDto(found) : null }, 200)
    })
    .openapi(issue, async (c) => {
      const issued = await triggers.issue(c.req.valid('param').id, callerOf(c.get('member')))
      return c.json({ data: { ...toStatusDto(issued), secret: issued.secret, url: issued.url } }, 201)
    })
    .openapi(revoke, async (c) => {
      await triggers.revoke(c.req.valid('param').id, callerOf(c.get('member')))
      return c.json({ data: { ok: true as const } }, 200)
    })
}

/** POST /triggers/{secret}: mounted under /triggers. */
export function createTriggersApi(triggers: TriggerService) {
  return createRouter().openapi(fire, async (c) => {
    const run = await triggers.fire(c.req.param('secret'), async () => inputsOf(await c.req.text()))
    return c.json({ data: toTriggeredRunDto(run) }, 202)
  })
}
