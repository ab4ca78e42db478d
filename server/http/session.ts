import { createMiddleware } from 'hono/factory'
import type { SessionService } from '#server/features/auth/session.service.ts'
import type { AppEnv } from './app-env.ts'
import { credentialOf, workspaceRequestOf } from './credentials.ts'
import { isApiPath } from './request-guard.ts'

/** Resolves who is asking (session cookie, bearer session token or API key) once per request. */
export function resolveSession(sessions: SessionService) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const cookieOnly = !isApiPath(c.req.path)
    const credential = credentialOf(c.req.raw.headers, { cookieOnly })
    const { user, setCookies, accountSuspended, accountDeletion } = await sessions.resolve(
      credential,
      workspaceRequestOf(c.req.raw.headers, { cookieOnly }),
    )
    c.set('credential', credential)
    c.set('user', user)
    c.set('accountSuspended', accountSuspended)
    c.set('accountDeletion', accountDeletion)
    c.set('sessionCookies', setCookies)
    await next()
    // Read after the request: a view as a member that ended may have replaced them (view-as.ts).
    for (const cookie of c.get('sessionCookies') ?? []) c.res.headers.append('Set-Cookie', cookie)
  })
}
