import { z } from '@hono/zod-openapi'
import { suspendUserSchema } from '#common/suspension.ts'
import { admin, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { UserSuspensionService } from './user-suspension.service.ts'

const tags = ['Users (admin)']
const idParam = z.object({ id: z.string().min(1).max(100) })

const suspend = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/suspend',
  tags,
  summary: 'Suspend a member, with a reason; recorded in the audit log',
  description:
    'Takes effect at once (docs/decisions/062): their sessions end, their unfinished runs are cancelled (queued ones refunded), and until they are unsuspended their API keys and connected devices are answered 403 ACCOUNT_SUSPENDED, their trigger URLs and schedules start no runs, and signing in is refused. Nobody suspends themselves or an admin (409).',
  request: { params: idParam, body: jsonBody(suspendUserSchema) },
  responses: {
    200: {
      description: 'Suspended',
      content: {
        'application/json': {
          schema: z.object({ data: z.object({ sessionsEnded: z.number().int(), runsStopped: z.number().int() }) }),
        },
      },
    },
    ...errorResponses(400, 404, 409),
  },
})

const unsuspend = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/unsuspend',
  tags,
  summary: 'Restore a suspended member: keys, devices, trigger URLs and schedules work again; recorded in the audit log',
  request: { params: idParam },
  responses: {
    200: { description: 'Restored', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(404, 409),
  },
})

export function createUserSuspensionApi(suspensions: UserSuspensionService) {
  return createRouter()
    .openapi(suspend, async (c) => {
      const data = await suspensions.suspend(c.get('member'), c.req.valid('param').id, c.req.valid('json').reason)
      return c.json({ data }, 200)
    })
    .openapi(unsuspend, async (c) => {
      await suspensions.unsuspend(c.get('member'), c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
