import { z } from '@hono/zod-openapi'
import { Conflict } from '#common/errors.ts'
import { viewAsSchema } from '#common/view-as.ts'
import { admin, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { ViewAsService } from './view-as.service.ts'

const COOKIES =
  'The answer sets two HttpOnly cookies: auth_session now carries a session of the member, and aether_view_as keeps the ' +
  "admin's own session until viewing ends."

const start = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/view-as',
  tags: ['Users (admin)'],
  summary: 'View the app as a member for 30 minutes, read-only, with a reason; recorded in the audit log',
  description:
    `For support (docs/decisions/064). ${COOKIES} While viewing, every page shows a banner, and any change (a page action, ` +
    'or POST, PUT, PATCH or DELETE under /api) is answered 403 READ_ONLY_VIEW, except ending the view and signing out. ' +
    'The view ends after 30 minutes (it is never extended) or with POST /auth/view-as/end. Only with a session, never ' +
    'an API key; not for yourself, an admin, a suspended member or one whose deletion waits (409).',
  request: { params: z.object({ id: z.string().min(1).max(100) }), body: jsonBody(viewAsSchema) },
  responses: {
    200: {
      description: 'Viewing as the member until `until`',
      content: { 'application/json': { schema: z.object({ data: z.object({ until: z.string().openapi({ format: 'date-time' }) }) }) } },
    },
    ...errorResponses(400, 404, 409),
  },
})

const end = publicRoute({
  method: 'post',
  path: '/view-as/end',
  tags: ['Auth'],
  summary: "End viewing as a member: the admin's own session comes back; recorded in the audit log",
  description:
    "Reads the aether_view_as cookie: the view-as session ends and the admin's own session goes back into auth_session " +
    '(`restored: false` when it had meanwhile ended: then the browser is signed out). 409 when the browser is not viewing as anyone.',
  security: [{ cookieAuth: [] }],
  responses: {
    200: {
      description: 'Viewing ended',
      content: { 'application/json': { schema: z.object({ data: z.object({ restored: z.boolean() }) }) } },
    },
    ...errorResponses(409),
  },
})

/** POST /users/{id}/view-as (mounted at /users). */
export function createViewAsApi(viewAs: ViewAsService) {
  return createRouter().openapi(start, async (c) => {
    const caller = c.get('member')
    // admin('never'): a session, never a key or device.
    const sessionId = caller.signedInWith.kind === 'session' ? caller.signedInWith.sessionId : ''
    const { until, setCookies } = await viewAs.start(
      { id: caller.id, email: caller.email, sessionId },
      c.req.valid('param').id,
      c.req.valid('json').reason,
    )
    for (const cookie of setCookies) c.header('Set-Cookie', cookie, { append: true })
    return c.json({ data: { until: until.toISOString() } }, 200)
  })
}

/** POST /auth/view-as/end (mounted at /auth). */
export function createViewAsEndApi(viewAs: ViewAsService) {
  return createRouter().openapi(end, async (c) => {
    const held = viewAs.held(c.req.header('cookie'))
    if (!held) throw new Conflict('You are not viewing Aether as anyone.')
    const ended = await viewAs.end(held, 'ended', { restore: true })
    for (const cookie of ended.setCookies) c.header('Set-Cookie', cookie, { append: true })
    return c.json({ data: { restored: ended.restored } }, 200)
  })
}
