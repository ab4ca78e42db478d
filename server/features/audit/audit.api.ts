import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { createRouter, errorResponses, pageResponse } from '#server/http/openapi.ts'
import type { AuditService } from './audit.service.ts'
import { ACTIVITY_TARGETS } from '#server/db/schema/index.ts'

const TARGETS = ACTIVITY_TARGETS

const entrySchema = z
  .object({
    id: z.string(),
    actor: z.object({ id: z.string().nullable(), email: z.string() }),
    /** The workspace it happened in; null for the site's own settings and content. */
    workspaceId: z.string().nullable(),
    action: z.string(),
    targetType: z.enum(TARGETS),
    targetId: z.string().nullable(),
    summary: z.string(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .openapi('AuditEntry')

const list = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/',
  tags: ['Audit log (admin)'],
  summary: 'Every admin change and workspace activity, newest first: who, what, before and after',
  request: {
    query: paginationQuerySchema.extend({
      targetType: z.enum(TARGETS, { error: `targetType must be one of ${TARGETS.join(', ')}` }).optional(),
    }),
  },
  responses: {
    200: pageResponse(entrySchema, 'A page of the audit log'),
    ...errorResponses(400),
  },
})

export function createAuditApi(audit: AuditService) {
  return createRouter().openapi(list, async (c) => {
    const page = await audit.list(c.req.valid('query'))
    const data = page.items.map((entry) => ({
      id: entry.id,
      actor: { id: entry.actorId, email: entry.actorEmail },
      workspaceId: entry.workspaceId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      summary: entry.summary,
      before: entry.before,
      after: entry.after,
      createdAt: entry.createdAt.toISOString(),
    }))
    return c.json({ data, total: page.total, page: page.page, limit: page.limit }, 200)
  })
}
