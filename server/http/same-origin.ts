import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser sent from another site with our cookies (CSRF).
 * Requests without cookies (bearer-token clients such as the browser extension, webhooks, curl)
 * or without an Origin header cannot ride on a browser session, so they pass.
 */
export function sameOriginGuard(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin')
    if (SAFE_METHODS.has(c.req.method) || !origin || !c.req.header('cookie')) return next()
    if (origin === publicOrigin || origin === new URL(c.req.url).origin) return next()
    return c.json({ message: 'Cross-origin request refused.', code: 'FORBIDDEN' }, 403)
  })
}
