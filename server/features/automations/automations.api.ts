import { createRoute, z } from '@hono/zod-openapi'
import { automationStepSchema, STEPS_VERSION } from '#common/automation-steps.ts'
import { automationInputSchema, automationListQuerySchema, automationUpdateSchema, runStartSchema } from '#common/automations.ts'
import type { SessionUser } from '#server/features/auth/auth.service.ts'
import { requireUser } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { RunService } from './run.service.ts'
import { runDtoSchema, toRunDto } from './run.dto.ts'
import type { Automation, AutomationService, Caller } from './automation.service.ts'

const automationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    steps: z.array(automationStepSchema),
    stepsVersion: z.number().int(),
    schedule: z.string().nullable().openapi({ description: 'Five-field cron expression (UTC), or null for manual runs' }),
    enabled: z.boolean(),
    nextRunAt: z.string().nullable(),
    ownerId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Automation')

function toAutomationDto(row: Automation): z.infer<typeof automationSchema> {
  return {
    ...row,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export const callerOf = (user: SessionUser): Caller => ({ id: user.id, role: user.profile.role })

const idParam = z.object({ id: z.uuid({ error: 'id must be an automation id (UUID)' }) })
const one = { 'application/json': { schema: z.object({ data: automationSchema }) } }
const tags = ['Automations']

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: "The caller's automations, most recently changed first",
  security: bearerSecurity,
  request: { query: automationListQuerySchema },
  responses: {
    200: {
      description: 'A page of automations',
      content: {
        'application/json': {
          schema: z.object({ data: z.array(automationSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
        },
      },
    },
    ...errorResponses(400, 401),
  },
})

const stepsSchema = createRoute({
  method: 'get',
  path: '/steps.schema.json',
  tags,
  summary: `JSON Schema of the steps (version ${STEPS_VERSION}): navigate, click, type, select, wait, extract, screenshot, assertText`,
  responses: {
    200: { description: 'A JSON Schema (draft 2020-12)', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
  },
})

const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Create an automation. Invalid steps are refused with a message naming the step and field.',
  security: bearerSecurity,
  request: { body: jsonBody(automationInputSchema) },
  responses: { 201: { description: 'Created', content: one }, ...errorResponses(400, 401, 409) },
})

const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One automation (its owner; an admin may read any)',
  security: bearerSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'The automation', content: one }, ...errorResponses(400, 401, 404) },
})

const update = createRoute({
  method: 'put',
  path: '/{id}',
  tags,
  summary: 'Change an automation (only the fields sent)',
  security: bearerSecurity,
  request: { params: idParam, body: jsonBody(automationUpdateSchema) },
  responses: { 200: { description: 'Changed', content: one }, ...errorResponses(400, 401, 404, 409) },
})

const duplicate = createRoute({
  method: 'post',
  path: '/{id}/duplicate',
  tags,
  summary: 'Copy an automation ("Copy of …"; a scheduled one is copied disabled)',
  security: bearerSecurity,
  request: { params: idParam },
  responses: { 201: { description: 'The copy', content: one }, ...errorResponses(400, 401, 404, 409) },
})

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete an automation; its runs stay in the history',
  security: bearerSecurity,
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(400, 401, 404),
  },
})

const start = createRoute({
  method: 'post',
  path: '/{id}/runs',
  tags: ['Runs'],
  summary:
    'Start a run. where=cloud queues it for our worker (1 credit); where=client means the extension or desktop app runs it and reports progress (no credits). Refused with 409 PLAN_LIMIT or INSUFFICIENT_CREDITS before anything starts.',
  security: bearerSecurity,
  request: { params: idParam, body: jsonBody(runStartSchema) },
  responses: {
    201: { description: 'The run', content: { 'application/json': { schema: z.object({ data: runDtoSchema }) } } },
    ...errorResponses(400, 401, 404, 409),
  },
})

export function createAutomationsApi(automations: AutomationService, runs: RunService) {
  const jsonSchema = z.toJSONSchema(z.array(automationStepSchema), { io: 'input' })
  return createRouter()
    .openapi(stepsSchema, (c) => c.json({ ...jsonSchema, title: `Aether automation steps, version ${STEPS_VERSION}` }, 200))
    .openapi(list, async (c) => {
      const user = requireUser(c)
      const page = await automations.list(user.id, c.req.valid('query'))
      return c.json({ data: page.items.map(toAutomationDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(create, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toAutomationDto(await automations.create(user.id, c.req.valid('json'))) }, 201)
    })
    .openapi(get, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toAutomationDto(await automations.get(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(update, async (c) => {
      const user = requireUser(c)
      const row = await automations.update(c.req.valid('param').id, callerOf(user), c.req.valid('json'))
      return c.json({ data: toAutomationDto(row) }, 200)
    })
    .openapi(duplicate, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toAutomationDto(await automations.duplicate(c.req.valid('param').id, callerOf(user))) }, 201)
    })
    .openapi(remove, async (c) => {
      const user = requireUser(c)
      await automations.remove(c.req.valid('param').id, callerOf(user))
      return c.json({ data: { success: true } }, 200)
    })
    .openapi(start, async (c) => {
      const user = requireUser(c)
      const body = c.req.valid('json')
      const trigger = body.trigger ?? (body.where === 'cloud' ? 'manual' : 'extension')
      const run = await runs.start(c.req.valid('param').id, callerOf(user), { runner: body.where, trigger })
      return c.json({ data: toRunDto(run) }, 201)
    })
}
