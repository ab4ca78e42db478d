import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { Logger } from '#server/logger.ts'
import type { AppEnv } from './app-env.ts'

/** Lower case, as Headers gives names: an answer that has it already (a kept page's) is left as it is. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** Nginx's status for a request whose client left before the answer: nothing was delivered. */
const CLIENT_CLOSED_REQUEST = 499

/** A trigger URL's last part is its secret (docs/decisions/027): logs keep only its last four characters. */
export const loggedPath = (path: string) => path.replace(/^(\/api\/triggers\/)[^/]*?([^/]{0,4})$/, '$1…$2')

/**
 * One structured line per request: method, path, status, duration. A request the client gave up
 * on (a page revalidation overtaken by a newer one, a closed tab) is logged as 499 at info level,
 * whatever the interrupted work answered: it is not a server error.
 */
export function requestLogger(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now()
    const requestId = requestIdOf(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    await next()
    // A kept page (page-cache.ts) carries the id in its ready-made headers; reading them here
    // would turn them into a Headers object for nothing.
    if (!c.get('requestIdSent')) c.res.headers.set(REQUEST_ID_HEADER, requestId)
    const clientLeft = c.req.raw.signal.aborted
    const status = clientLeft ? CLIENT_CLOSED_REQUEST : c.res.status
    // What the interrupted work answered, for the record.
    logRequest(
      logger,
      { requestId, method: c.req.method, path: c.req.path, status, started },
      clientLeft ? { responseStatus: c.res.status } : {},
    )
  })
}

/** The request's id: the one the client (or a proxy) sent, else a new one. */
export const requestIdOf = (sent: string | undefined) => sent?.slice(0, 64) || randomUUID()

/** The request's line in the log; `started` is performance.now() at its arrival. */
export function logRequest(
  logger: Logger,
  request: { requestId: string; method: string; path: string; status: number; started: number },
  extra: Record<string, unknown> = {},
) {
  const entry = {
    requestId: request.requestId,
    method: request.method,
    path: loggedPath(request.path),
    status: request.status,
    ...extra,
    durationMs: Math.round((performance.now() - request.started) * 10) / 10,
  }
  if (request.status >= 500) logger.error(entry, 'request')
  else logger.info(entry, 'request')
}
