import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { createRouter, errorResponses, pageResponse } from '#server/http/openapi.ts'
import type { Mailer } from './mailer.ts'

const outboxMailSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    status: z.enum(['logged', 'sent', 'failed']),
    error: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('OutboxMail')

const list = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/outbox',
  tags: ['Mail (admin)'],
  summary: 'Every e-mail the platform sent or, without SMTP, only logged: newest first',
  request: { query: paginationQuerySchema.extend({ to: z.string().trim().toLowerCase().max(254).optional() }) },
  responses: {
    200: pageResponse(outboxMailSchema, 'A page of the outbox'),
    ...errorResponses(400),
  },
})

export function createMailApi(mailer: Mailer) {
  return createRouter().openapi(list, async (c) => {
    const result = await mailer.list(c.req.valid('query'))
    const data = result.items.map((mail) => ({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      status: mail.status,
      error: mail.error,
      created_at: mail.createdAt.toISOString(),
    }))
    return c.json({ data, total: result.total, page: result.page, limit: result.limit }, 200)
  })
}
