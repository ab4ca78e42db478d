import { createMiddleware } from 'hono/factory'
import type { isRouteErrorResponse, ServerBuild } from 'react-router'
import { DatabaseUnavailableError, isDatabaseUnavailable } from '#server/db/errors.ts'
import type { Services } from '#server/services.ts'
import type { AppEnv } from './app-env.ts'
import type { PageContext } from './page-context.ts'

/**
 * Hands every non-API request to React Router, with the services and caller as load context. A
 * loader or action that failed because the database is out of reach turns the page into the 503
 * page (error-handler.ts) instead of the generic error screen.
 */
export function pages(options: {
  getBuild: () => Promise<ServerBuild>
  mode: 'development' | 'production'
  services: Services
  publicUrl: string
}) {
  let cached: {
    build: ServerBuild
    handle: (request: Request, context: PageContext) => Promise<Response>
    isRouteErrorResponse: typeof isRouteErrorResponse
  } | null = null
  return createMiddleware<AppEnv>(async (c) => {
    const build = await options.getBuild()
    if (cached?.build !== build) {
      // React Router loads with the pages' build, not at start (issue 18, cold start).
      const router = await import('react-router')
      cached = { build, handle: router.createRequestHandler(build, options.mode), isRouteErrorResponse: router.isRouteErrorResponse }
    }
    const { handle, isRouteErrorResponse } = cached
    let outage: unknown = null
    const context: PageContext = {
      services: options.services,
      user: c.get('user'),
      credential: c.get('credential'),
      cspNonce: c.get('cspNonce'),
      clientIp: c.get('clientIp'),
      publicUrl: options.publicUrl,
      viewAsEnded: c.get('viewAsEnded'),
      reportError(error) {
        // A refused body the action tried to read: answered below, not an error of ours.
        if (c.get('refusedBody')?.read) return
        // React Router wraps some errors in an error response (its private `error` field).
        const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error
        if (isDatabaseUnavailable(cause)) outage ??= cause
        // React Router's own default for an unexpected loader or action error.
        else console.error(cause)
      },
    }
    const response = await handle(c.req.raw, context)
    if (outage && response.status >= 500) {
      await response.body?.cancel()
      throw new DatabaseUnavailableError(outage)
    }
    return response
  })
}
