import type { ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError, BearerTokenRefused, RateLimited, ServiceUnavailable } from '#common/errors.ts'
import { isDatabaseUnavailable, isUnstorableText } from '#server/db/errors.ts'
import type { Logger } from '#server/logger.ts'
import { setRateLimitHeaders } from './api-rate-limit.ts'
import type { AppEnv } from './app-env.ts'
import { unavailablePage } from './maintenance.ts'
import { isApiPath, NUL_MESSAGE } from './request-guard.ts'

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.'
/** A database restart takes seconds; clients that honour Retry-After come back soon. */
const DATABASE_RETRY_AFTER_SECONDS = 5

/**
 * Maps AppErrors to their status and message, and a database outage to 503 (JSON under /api, a
 * page elsewhere; docs/decisions/013-database-outage.md); anything else is logged once and
 * answered 500.
 */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof AppError) {
      if (error instanceof RateLimited) {
        c.header('Retry-After', String(error.retryAfterSeconds))
        if (error.policy) setRateLimitHeaders(c, { ...error.policy, remaining: 0, resetSeconds: error.retryAfterSeconds })
      }
      if (error instanceof ServiceUnavailable && error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds))
      if (error instanceof BearerTokenRefused) c.header('WWW-Authenticate', 'Bearer error="invalid_token"')
      return c.json({ message: error.message, code: error.code, ...(error.issues ? { issues: error.issues } : {}) }, error.status)
    }
    if (error instanceof HTTPException) {
      const status = error.status
      const message =
        status === 413
          ? 'Request body is too large.'
          : status === 415
            ? 'Send the request body as JSON (Content-Type: application/json).'
            : error.message || 'Bad request'
      return c.json(
        { message, code: status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST' },
        status,
      )
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ reason: rootMessage(error), requestId: c.get('requestId'), path: c.req.path }, 'database unavailable: answered 503')
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
      c.header('Cache-Control', 'no-store')
      if (isApiPath(c.req.path)) {
        return c.json({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' }, 503)
      }
      return c.html(
        unavailablePage({ title: 'Temporarily unavailable', heading: 'We will be right back', message: DATABASE_UNAVAILABLE_MESSAGE }),
        503,
      )
    }
    // The request guard refuses NUL characters up front; this catches what it did not read.
    if (isUnstorableText(error)) return c.json({ message: NUL_MESSAGE, code: 'INVALID_TEXT' }, 400)
    logger.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error')
    return c.json({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }, 500)
  }
}

/** The driver's own message ("connect ECONNREFUSED ..."), without Drizzle's query text around it. */
function rootMessage(error: Error): string {
  let current: unknown = error
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  return current instanceof Error ? current.message : String(current)
}
