import { z } from '@hono/zod-openapi'
import { admin, publicRoute, signedInRoute } from '#server/http/access.ts'
import { inquiryInputSchema, inquiryUpdateSchema } from '#common/inquiries.ts'
import { PROJECT_TYPES } from '#common/inquiry-fields.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { addSnakeCaseTwins, withSnakeCaseTwins } from '#server/http/field-aliases.ts'
import { createRouter, errorResponses, jsonBody, pageResponse } from '#server/http/openapi.ts'
import type { Inquiry, InquiryService } from './inquiry.service.ts'

const INQUIRY_TWINS = ['projectType', 'createdAt'] as const

const inquirySchema = withSnakeCaseTwins(
  {
    id: z.string(),
    name: z.string(),
    email: z.string(),
    projectType: z.enum(PROJECT_TYPES),
    subject: z.string().nullable(),
    message: z.string(),
    processed: z.boolean(),
    createdAt: z.string(),
  },
  INQUIRY_TWINS,
).openapi('ServiceInquiry')

function toInquiryDto(row: Inquiry): z.infer<typeof inquirySchema> {
  return addSnakeCaseTwins({ ...row, createdAt: row.createdAt.toISOString() }, INQUIRY_TWINS)
}

const idParam = z.object({ id: z.uuid({ error: 'id must be an inquiry id (UUID)' }) })

const submit = publicRoute({
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

const list = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/',
  tags: ['Service inquiries'],
  summary: 'List inquiries, newest first (admin)',
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
    200: pageResponse(inquirySchema, 'A page of inquiries'),
    ...errorResponses(400),
  },
})

const update = signedInRoute(admin('admin:content'), {
  method: 'put',
  path: '/{id}',
  tags: ['Service inquiries'],
  summary: 'Mark an inquiry processed or pending (admin)',
  request: { params: idParam, body: jsonBody(inquiryUpdateSchema) },
  responses: {
    200: { description: 'Updated', content: { 'application/json': { schema: z.object({ data: inquirySchema }) } } },
    ...errorResponses(400, 404),
  },
})

const remove = signedInRoute(admin('admin:content'), {
  method: 'delete',
  path: '/{id}',
  tags: ['Service inquiries'],
  summary: 'Delete an inquiry (admin)',
  request: { params: idParam },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(400, 404),
  },
})

export function createInquiriesApi(inquiries: InquiryService) {
  return createRouter()
    .openapi(submit, async (c) => {
      const row = await inquiries.submit(c.req.valid('json'), { ip: c.get('clientIp') })
      return c.json({ data: toInquiryDto(row) }, 201)
    })
    .openapi(list, async (c) => {
      const page = await inquiries.list(c.req.valid('query'))
      return c.json({ data: page.items.map(toInquiryDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(update, async (c) => {
      const admin = c.get('member')
      const row = await inquiries.setProcessed(admin, c.req.valid('param').id, c.req.valid('json').processed)
      return c.json({ data: toInquiryDto(row) }, 200)
    })
    .openapi(remove, async (c) => {
      const admin = c.get('member')
      await inquiries.remove(admin, c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
