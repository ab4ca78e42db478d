import { z } from '@hono/zod-openapi'
import { TIMELINE_KINDS, timelineQuerySchema } from '#common/user-timeline.ts'
import { admin, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses } from '#server/http/openapi.ts'
import type { UserTimelineService } from './user-timeline.service.ts'

const entrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(TIMELINE_KINDS),
    at: z.string(),
    summary: z.string(),
    detail: z.string().nullable(),
    status: z.string().nullable().openapi({ description: "A run's or a payment's outcome" }),
    runId: z.string().nullable(),
  })
  .openapi('TimelineEntry')

const timeline = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/{id}/timeline',
  tags: ['Users (admin)'],
  summary: "A member's timeline, newest first: sign-ins, plan changes, runs, payments and admin actions",
  description:
    'Pages follow nextCursor (pass it as cursor); it is null on the last page. Sign-ins are the sessions the account has now: an ended session is gone, and so is its sign-in.',
  request: { params: z.object({ id: z.string().min(1).max(100) }), query: timelineQuerySchema },
  responses: {
    200: {
      description: 'A page of the timeline',
      content: {
        'application/json': {
          schema: z.object({ data: z.array(entrySchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...errorResponses(400, 404),
  },
})

export function createUserTimelineApi(timelines: UserTimelineService) {
  return createRouter().openapi(timeline, async (c) => {
    const page = await timelines.page(c.req.valid('param').id, c.req.valid('query'))
    return c.json({ data: page.entries, nextCursor: page.nextCursor }, 200)
  })
}
