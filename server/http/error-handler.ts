import type { ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError, RateLimited } from '#common/errors.ts'
import type { Logger } from '#server/logger.ts'
import type { AppEnv } from './app-env.ts'

/** Maps AppErrors to their status and message; anything else is logged once and answered 500. */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof AppError) {
      if (error instanceof RateLimited) c.header('Retry-After', String(error.retryAfterSeconds))
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
    logger.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error')
    return c.json({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }, 500)
  }
}
