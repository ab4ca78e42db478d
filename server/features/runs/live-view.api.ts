import { z } from '@hono/zod-openapi'
import { AppError } from '#common/errors.ts'
import type { SessionService } from '#server/features/auth/session.service.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { liveStream } from '#server/http/live-stream.ts'
import { createRouter, errorResponses, ownedResourceParams } from '#server/http/openapi.ts'
import type { LiveFrame } from '#common/live-view.ts'
import type { LiveView } from './live-view.ts'
import type { RunService } from './run.service.ts'

const NOT_LIVE = 'This run is not running in the cloud, so there is no live view of it.'

const access = member('automations', 'viewer')

const live = signedInRoute(access, {
  method: 'get',
  path: '/{id}/live',
  tags: ['Runs'],
  summary: "Server-sent events: the live view of a running cloud run's browser",
  description:
    'Everyone who may see the run may watch it. Each `frame` event is { seq, image, width, height }: `image` is a base64 JPEG of ' +
    'the browser (at most two a second, only when it changes), or null while the live view is paused because a vault value is ' +
    'being typed or is on the page; width and height are the page’s size in CSS pixels. The stream ends when the run does. ' +
    '204 (nothing to show, and an EventSource stops trying) once the cloud run has ended; 409 when the run is not a cloud run ' +
    'or is still queued.',
  request: { params: ownedResourceParams },
  responses: {
    200: { description: 'An event stream (text/event-stream)', content: { 'text/event-stream': { schema: z.string() } } },
    204: { description: 'The cloud run has ended: there is nothing to show' },
    ...errorResponses(404, 409),
  },
})

const ENDED = new Set(['succeeded', 'failed', 'cancelled'])

/** GET /runs/{id}/live: mounted under /runs, beside the runs' own routes (docs/decisions/058). */
export function createLiveViewApi(deps: { runs: RunService; liveView: LiveView; events: EventBus; sessions: SessionService }) {
  const { runs, liveView, events, sessions } = deps
  return createRouter().openapi(live, async (c) => {
    const caller = callerOf(c.get('member'))
    const run = await runs.get(c.req.valid('param').id, caller)
    // A page opened while the run ran may connect (or reconnect) just after it ended: an empty
    // answer ends its EventSource quietly, where an error status is logged in the browser.
    if (run.runner === 'cloud' && ENDED.has(run.status)) return c.body(null, 204)
    if (run.runner !== 'cloud' || run.status !== 'running') throw new AppError(409, NOT_LIVE, 'RUN_NOT_LIVE')
    return liveStream<LiveFrame>(c, {
      sessions,
      rule: access,
      event: 'frame',
      subscribe: (send, end) => {
        const stopWatching = liveView.watch(run.id, send)
        const stopFollowing = events.subscribe('run', (event) => {
          if (event.id === run.id && event.status !== 'running') end()
        })
        // It may have ended while the stream opened, before its event could be heard.
        void runs.get(run.id, caller).then((now) => now.status !== 'running' && end(), end)
        return () => {
          stopWatching()
          stopFollowing()
        }
      },
    })
  })
}
