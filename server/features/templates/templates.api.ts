import { z } from '@hono/zod-openapi'
import { previewSteps } from '#common/template-steps.ts'
import {
  TEMPLATE_CATEGORIES,
  templateCreateSchema,
  templateInputSchema,
  templateListQuerySchema,
  templateUpdateSchema,
  templateUseSchema,
} from '#common/templates.ts'
import { NotFound } from '#common/errors.ts'
import { actsAsAdmin, admin, callerOf, member, signedInRoute, type SignedInAccess } from '#server/http/access.ts'
import { automationSchema, toAutomationDto } from '#server/http/automation-dto.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import type { Template, TemplateService } from './template.service.ts'

const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    category: z.enum(TEMPLATE_CATEGORIES),
    description: z.string(),
    steps: z.array(z.record(z.string(), z.unknown())).openapi({
      description: 'Version-2 steps; string values may hold the inputs as {{name}}',
    }),
    inputs: z.array(templateInputSchema),
    preview: z.array(z.string()).openapi({ description: 'The steps in words, with the example values' }),
    advanced: z.boolean().openapi({ description: 'Only plans with advanced templates may use it' }),
    locked: z
      .string()
      .nullable()
      .openapi({ description: "Why the caller's workspace may not use it (its plan), naming the plan that unlocks it; null if it may" }),
    published: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('AutomationTemplate')

function toTemplateDto(row: Template, advancedRefusal: string | null): z.infer<typeof templateSchema> {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    category: row.category,
    description: row.description,
    steps: row.steps as Record<string, unknown>[],
    inputs: row.inputs,
    preview: previewSteps(row.steps, row.inputs),
    advanced: row.advanced,
    locked: row.advanced ? advancedRefusal : null,
    published: row.published,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

const tags = ['Templates']
const adminTags = ['Templates (admin)']
const idParam = ownedResourceParams
const one = { 'application/json': { schema: z.object({ data: templateSchema }) } }
/** Browsing: anyone in the workspace, viewers included; every template's drafts (scope=all) are for admins. */
const browse: SignedInAccess = {
  ...member('automations', 'viewer'),
  whenQuery: { name: 'scope', value: 'all', rule: admin('admin:read') },
}

const list = signedInRoute(browse, {
  method: 'get',
  path: '/',
  tags,
  summary: 'The published templates by category and name (one category with ?category=); an admin passes scope=all for drafts too',
  request: {
    query: templateListQuerySchema.extend({
      scope: z.enum(['published', 'all'], { error: 'scope must be published or all' }).default('published'),
    }),
  },
  responses: {
    200: { description: 'The templates', content: { 'application/json': { schema: z.object({ data: z.array(templateSchema) }) } } },
    ...errorResponses(400),
  },
})

const get = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One published template (an admin with admin:read also reads drafts)',
  request: { params: idParam },
  responses: { 200: { description: 'The template', content: one }, ...errorResponses(404) },
})

const use = signedInRoute(member('automations', 'member'), {
  method: 'post',
  path: '/{id}/use',
  tags,
  summary: 'Make an automation of a template in the current workspace, with the inputs filled in',
  description:
    'Values go into the steps as text only, and the steps are then checked like any automation’s. A missing required input, an ' +
    'unknown one or a value that makes a step invalid is a 400 naming the input; an advanced template on a plan without them is ' +
    'a 409 naming the plan that unlocks it.',
  request: { params: idParam, body: jsonBody(templateUseSchema) },
  responses: {
    201: { description: 'The new automation', content: { 'application/json': { schema: z.object({ data: automationSchema }) } } },
    ...errorResponses(400, 404, 409),
  },
})

const create = signedInRoute(admin('admin:content'), {
  method: 'post',
  path: '/',
  tags: adminTags,
  summary: 'Add a template (a draft unless published is true); its steps are checked with the example values filled in',
  request: { body: jsonBody(templateCreateSchema) },
  responses: { 201: { description: 'The new template', content: one }, ...errorResponses(400, 409) },
})

const update = signedInRoute(admin('admin:content'), {
  method: 'put',
  path: '/{id}',
  tags: adminTags,
  summary: 'Change a template (only the fields sent): publish or unpublish it with published',
  request: { params: idParam, body: jsonBody(templateUpdateSchema) },
  responses: { 200: { description: 'The template', content: one }, ...errorResponses(400, 404) },
})

const remove = signedInRoute(admin('admin:content'), {
  method: 'delete',
  path: '/{id}',
  tags: adminTags,
  summary: 'Delete a template; automations made from it stay',
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(404),
  },
})

export function createTemplatesApi(templates: TemplateService) {
  const refusalFor = (user: Parameters<typeof callerOf>[0]) => templates.advancedRefusal(callerOf(user).workspace.id)
  return createRouter()
    .openapi(list, async (c) => {
      const user = c.get('member')
      const { scope, category } = c.req.valid('query')
      const rows = scope === 'all' ? await templates.listAll({ category }) : await templates.listPublished({ category })
      const refusal = rows.some((row) => row.advanced) && user.workspace ? await refusalFor(user) : null
      return c.json({ data: rows.map((row) => toTemplateDto(row, refusal)) }, 200)
    })
    .openapi(get, async (c) => {
      const user = c.get('member')
      const { id } = c.req.valid('param')
      const row = actsAsAdmin(user, 'admin:read') ? await templates.get(id) : await templates.getPublished(id)
      if (!row) throw new NotFound('Template not found')
      return c.json({ data: toTemplateDto(row, row.advanced ? await refusalFor(user) : null) }, 200)
    })
    .openapi(use, async (c) => {
      const user = c.get('member')
      const automation = await templates.use(callerOf(user), c.req.valid('param').id, c.req.valid('json'))
      return c.json({ data: toAutomationDto(automation) }, 201)
    })
    .openapi(create, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toTemplateDto(await templates.create(actor, c.req.valid('json')), null) }, 201)
    })
    .openapi(update, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toTemplateDto(await templates.update(actor, c.req.valid('param').id, c.req.valid('json')), null) }, 200)
    })
    .openapi(remove, async (c) => {
      await templates.remove(c.get('member'), c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
