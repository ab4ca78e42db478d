import { z } from '@hono/zod-openapi'
import { automationStepSchema, MAX_STEPS, STEPS_VERSION } from '#common/automation-steps.ts'
import { automationInputSchema, automationListQuerySchema, automationUpdateSchema } from '#common/automations.ts'
import { SCHEDULE_FIELD_DESCRIPTION, scheduleShapesSchema } from '#common/schedules.ts'
import { callerOf, member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams, pageResponse } from '#server/http/openapi.ts'
import { automationSchema, toAutomationDto } from '#server/http/automation-dto.ts'
import type { AutomationService } from './automation.service.ts'

const idParam = ownedResourceParams

// The schedule field is checked by type (a schedule object, or the older cron string), so its JSON
// Schema is that of the forms it takes (docs/decisions/036).
const { $schema: _dialect, ...scheduleShapes } = z.toJSONSchema(scheduleShapesSchema, { io: 'input' })
const scheduleDocs = { ...scheduleShapes, description: SCHEDULE_FIELD_DESCRIPTION }
const createBody = automationInputSchema.extend({ schedule: automationInputSchema.shape.schedule.meta(scheduleDocs) })
const updateBody = automationUpdateSchema.extend({ schedule: automationUpdateSchema.shape.schedule.meta(scheduleDocs) })
const one = { 'application/json': { schema: z.object({ data: automationSchema }) } }
const tags = ['Automations']

const list = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/',
  tags,
  summary: "The caller's automations, most recently changed first",
  request: { query: automationListQuerySchema },
  responses: {
    200: pageResponse(automationSchema, 'A page of automations'),
    ...errorResponses(400),
  },
})

const stepsSchema = publicRoute({
  method: 'get',
  path: '/steps.schema.json',
  tags,
  summary: `JSON Schema of the steps (version ${STEPS_VERSION}): browser actions (navigate, click, type, select, press, wait, extract, screenshot, assertText, and the verbs), and the workflow steps (if, else, end, repeat, forEach, forEachRow, next, stop, script)`,
  responses: {
    200: { description: 'A JSON Schema (draft 2020-12)', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
  },
})

const automationJsonSchema = publicRoute({
  method: 'get',
  path: '/automation.schema.json',
  tags,
  summary: 'JSON Schema of an automation as POST /automations takes it: its fields, the schedule (kinds, time zone, paused) and the steps',
  responses: {
    200: { description: 'A JSON Schema (draft 2020-12)', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
  },
})

const create = signedInRoute(member('automations', 'member'), {
  method: 'post',
  path: '/',
  tags,
  summary: 'Create an automation. Invalid steps are refused with a message naming the step and field.',
  description:
    'A vault secret ({{secrets.name}}, {{totp.name}}) may only be in the text a type step types: anywhere else (an address, a target, an option, an expected text, an extracted field…) is refused (400, naming the step and field), as is a secret that names no site yet; one kept for a higher role than the caller’s is refused with 403 (docs/decisions/039).',
  request: { body: jsonBody(createBody) },
  responses: { 201: { description: 'Created', content: one }, ...errorResponses(400, 409) },
})

const get = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One automation (its owner; an admin may read any)',
  request: { params: idParam },
  responses: { 200: { description: 'The automation', content: one }, ...errorResponses(400, 404) },
})

const update = signedInRoute(member('automations', 'member'), {
  method: 'put',
  path: '/{id}',
  tags,
  summary: 'Change an automation (only the fields sent)',
  request: { params: idParam, body: jsonBody(updateBody) },
  responses: { 200: { description: 'Changed', content: one }, ...errorResponses(400, 404, 409) },
})

const duplicate = signedInRoute(member('automations', 'member'), {
  method: 'post',
  path: '/{id}/duplicate',
  tags,
  summary: 'Copy an automation ("Copy of …"; a scheduled one is copied disabled)',
  request: { params: idParam },
  responses: { 201: { description: 'The copy', content: one }, ...errorResponses(400, 404, 409) },
})

const approveRunner = signedInRoute(member('automations', 'member'), {
  method: 'post',
  path: '/{id}/runner-approval',
  tags,
  summary:
    "The runner's owner lets this version run on their local runner. A runner runs only what its owner saved or approved: after anyone else saves an automation set to run on it, its schedule is refused there until the owner approves the version they looked at (409 when another was saved since, 403 for anyone but the runner's owner).",
  request: {
    params: idParam,
    body: jsonBody(
      z.object({
        version: z
          .number({ error: 'version must be the version you approve' })
          .int('version must be a whole number')
          .min(1)
          .max(2_147_483_647),
      }),
    ),
  },
  responses: { 200: { description: 'The automation, approved', content: one }, ...errorResponses(400, 403, 404, 409) },
})

const remove = signedInRoute(member('automations', 'member'), {
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete an automation; its runs stay in the history',
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(400, 404),
  },
})

export function createAutomationsApi(automations: AutomationService) {
  const jsonSchema = z.toJSONSchema(z.array(automationStepSchema), { io: 'input' })
  // The steps are checked one by one by parseSteps, so the input schema says only "a list": here they are spelled out.
  const automationDocument = z.toJSONSchema(createBody.extend({ steps: z.array(automationStepSchema).max(MAX_STEPS) }), {
    io: 'input',
  })
  return createRouter()
    .openapi(stepsSchema, (c) => c.json({ ...jsonSchema, title: `Aether automation steps, version ${STEPS_VERSION}` }, 200))
    .openapi(automationJsonSchema, (c) =>
      c.json({ ...automationDocument, title: `Aether automation (steps version ${STEPS_VERSION})` }, 200),
    )
    .openapi(list, async (c) => {
      const user = c.get('member')
      const page = await automations.list(callerOf(user).workspace.id, c.req.valid('query'))
      return c.json({ data: page.items.map(toAutomationDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(create, async (c) => {
      const user = c.get('member')
      return c.json({ data: toAutomationDto(await automations.create(callerOf(user), c.req.valid('json'))) }, 201)
    })
    .openapi(get, async (c) => {
      const user = c.get('member')
      return c.json({ data: toAutomationDto(await automations.get(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(update, async (c) => {
      const user = c.get('member')
      const row = await automations.update(c.req.valid('param').id, callerOf(user), c.req.valid('json'))
      return c.json({ data: toAutomationDto(row) }, 200)
    })
    .openapi(duplicate, async (c) => {
      const user = c.get('member')
      return c.json({ data: toAutomationDto(await automations.duplicate(c.req.valid('param').id, callerOf(user))) }, 201)
    })
    .openapi(approveRunner, async (c) => {
      const user = c.get('member')
      const row = await automations.approveRunner(c.req.valid('param').id, callerOf(user), c.req.valid('json').version)
      return c.json({ data: toAutomationDto(row) }, 200)
    })
    .openapi(remove, async (c) => {
      const user = c.get('member')
      await automations.remove(c.req.valid('param').id, callerOf(user))
      return c.json({ data: { success: true } }, 200)
    })
}
