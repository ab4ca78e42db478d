import { z } from '@hono/zod-openapi'
import type { SessionService } from '#server/features/auth/session.service.ts'
import { admin, signedInRoute } from '#server/http/access.ts'
import { liveStream } from '#server/http/live-stream.ts'
import { createRouter } from '#server/http/openapi.ts'
import type { EventBus, InquiryEvent } from './event-bus.ts'

const access = admin('admin:read')

const inquiries = signedInRoute(access, {
  method: 'get',
  path: '/inquiries',
  tags: ['Events (admin)'],
  summary: 'Server-sent events: `inquiry` with { type: created|updated|deleted, id, name? } as they happen',
  description: 'The stream ends when the session that opened it ends, its API key is revoked or its admin role is taken away.',
  responses: {
    200: { description: 'An event stream (text/event-stream)', content: { 'text/event-stream': { schema: z.string() } } },
  },
})

/** Live updates for the admin's Service Inquiries tab (and anything else that follows inquiries). */
export function createEventsApi(deps: { events: EventBus; sessions: SessionService }) {
  return createRouter().openapi(inquiries, (c) =>
    liveStream<InquiryEvent>(c, {
      sessions: deps.sessions,
      rule: access,
      event: 'inquiry',
      subscribe: (send) => deps.events.subscribe('inquiry', send),
    }),
  )
}
