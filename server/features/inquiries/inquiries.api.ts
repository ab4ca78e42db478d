import { createRoute, z } from '@hono/zod-openapi'
import { inquiryInputSchema, inquiryUpdateSchema } from '#common/inquiries.ts'
import { PROJECT_TYPES } from '#common/inquiry-fields.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { requireAdmin } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { Inquiry, InquiryService } from './inquiry.service.ts'

const inquirySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    projectType: z.enum(PROJECT_TYPES),
    project_type: z.enum(PROJECT_TYPES),
    subject: z.string().nullable(),
    message: z.string(),
    processed: z.boolean(),
    createdAt: z.string(),
    created_at: z.string(),
  })
  .openapi('ServiceInquiry')

function toInquiryDto(row: Inquiry): z.infer<typeof inquirySchema> {
  const createdAt = row.createdAt.toISOString()
  return { ...row, project_type: row.projectType, createdAt, created_at: createdAt }
}

const idParam = z.object({ id: z.uuid({ error: 'id must be an inquiry id (UUID)' }) })

const submit = createRoute({
  method: 'post',
  path: '/',
  tags: ['Service inquiries'],
  summary: 'Send a service inquiry (public; rate limited per address)',
  request: { body: jsonBody(inquiryInputSchema) },
  responses: {
    201: { description: 'Stored; the owner is notified', content: { 'application/json': { schema: z.object({ data: inquirySchema }) } } },
    ...errorResponses(400, 429),
  },
})

const list = createRoute({
  method: 'get',
  path: '/',
  tags: ['Service inquiries'],
  summary: 'List inquiries, newest first (admin)',
  security: bearerSecurity,
  request: {
    query: paginationQuerySchema.extend({
      processed: z
        .enum(['true', 'false'], { error: 'processed must be true or false' })
        .transform((value) => value === 'true')
        .optional(),
      search: z.string().trim().max(200).optional(),
    }),
  },
  responses: {
    200: {
      description: 'A page of inquiries',
      content: {
        'application/json': {
          schema: z.object({ data: z.array(inquirySchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
        },
      },
    },
    ...errorResponses(400, 401, 403),
  },
})

const update = createRoute({
  method: 'put',
  path: '/{id}',
  tags: ['Service inquiries'],
  summary: 'Mark an inquiry processed or pending (admin)',
  security: bearerSecurity,
  request: { params: idParam, body: jsonBody(inquiryUpdateSchema) },
  responses: {
    200: { description: 'Updated', content: { 'application/json': { schema: z.object({ data: inquirySchema }) } } },
    ...errorResponses(400, 401, 403, 404),
  },
})

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags: ['Service inquiries'],
  summary: 'Delete an inquiry (admin)',
  security: bearerSecurity,
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(400, 401, 403, 404),
  },
})

export function createInquiriesApi(inquiries: InquiryService) {
  return createRouter()
    .openapi(submit, async (c) => {
      const row = await inquiries.submit(c.req.valid('json'), { ip: c.get('clientIp') })
      return c.json({ data: toInquiryDto(row) }, 201)
    })
    .openapi(list, async (c) => {
      requireAdmin(c)
      const page = await inquiries.list(c.req.valid('query'))
      return c.json({ data: page.items.map(toInquiryDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(update, async (c) => {
      const admin = requireAdmin(c)
      const row = await inquiries.setProcessed(admin, c.req.valid('param').id, c.req.valid('json').processed)
      return c.json({ data: toInquiryDto(row) }, 200)
    })
    .openapi(remove, async (c) => {
      const admin = requireAdmin(c)
      await inquiries.remove(admin, c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
