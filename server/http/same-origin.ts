import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import { isApiPath } from './request-guard.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Sec-Fetch-Site values of a browser request that another site started. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site'])

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF).
 * - Pages: every form post must come from our own pages. A foreign Origin (or `null`), or a
 *   Sec-Fetch-Site that says another site started it, is refused whether or not cookies come
 *   along: a page action can set cookies (consent, theme) and redirect, so a cookie-less forged
 *   post is an attack too.
 * - The API: only requests that carry cookies are checked. Bearer-token clients (the browser
 *   extension, desktop apps, webhooks, curl) cannot ride on a browser session, and those without
 *   an Origin header are not browsers posting across sites.
 */
export function sameOriginGuard(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next()
    const origin = c.req.header('origin')
    const ours = (value: string) => value === publicOrigin || value === new URL(c.req.url).origin
    const page = !isApiPath(c.req.path)
    const foreign = origin !== undefined && !ours(origin)
    if (page && (foreign || FOREIGN_SITES.has(c.req.header('sec-fetch-site') ?? ''))) {
      return c.text('Cross-origin form submission refused.', 403, { 'Cache-Control': 'no-store' })
    }
    if (!page && foreign && c.req.header('cookie')) return c.json({ message: 'Cross-origin request refused.', code: 'FORBIDDEN' }, 403)
    return next()
  })
}
