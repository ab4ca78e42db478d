import { createMiddleware } from 'hono/factory'
import type { AuthService } from '#server/features/auth/auth.service.ts'
import type { AppEnv } from './app-env.ts'

/** Resolves the signed-in user (session cookie, bearer session token or API key) once per request. */
export function resolveSession(authService: AuthService) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { user, setCookies } = await authService.currentSession(c.req.raw.headers)
    c.set('user', user)
    await next()
    for (const cookie of setCookies) c.res.headers.append('Set-Cookie', cookie)
  })
}
