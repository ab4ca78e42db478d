import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { Logger } from '#server/logger.ts'
import type { AppEnv } from './app-env.ts'

/** One structured line per request: method, path, status, duration. */
export function requestLogger(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now()
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID()
    c.set('requestId', requestId)
    await next()
    c.res.headers.set('X-Request-Id', requestId)
    const status = c.res.status
    const entry = {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    }
    if (status >= 500) logger.error(entry, 'request')
    else logger.info(entry, 'request')
  })
}
