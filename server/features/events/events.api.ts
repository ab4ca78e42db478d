import { createRoute, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { requireAdmin } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses } from '#server/http/openapi.ts'
import type { EventBus } from './event-bus.ts'

const HEARTBEAT_MS = 25_000

const inquiries = createRoute({
  method: 'get',
  path: '/inquiries',
  tags: ['Events (admin)'],
  summary: 'Server-sent events: `inquiry` with { type: created|updated|deleted, id, name? } as they happen',
  security: bearerSecurity,
  responses: {
    200: { description: 'An event stream (text/event-stream)', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(401, 403),
  },
})

/** Live updates for the admin's Service Inquiries tab (and anything else that follows inquiries). */
export function createEventsApi(events: EventBus) {
  return createRouter().openapi(inquiries, (c) => {
    requireAdmin(c)
    return streamSSE(c, async (stream) => {
      const unsubscribe = events.subscribe('inquiry', (event) => {
        void stream.writeSSE({ event: 'inquiry', data: JSON.stringify(event) })
      })
      stream.onAbort(unsubscribe)
      await stream.writeSSE({ event: 'ready', data: '{}' })
      // Comments keep proxies from closing an idle stream.
      while (!stream.aborted && !stream.closed) {
        await stream.sleep(HEARTBEAT_MS)
        if (!stream.aborted) await stream.write(': heartbeat\n\n')
      }
      unsubscribe()
    })
  })
}
