/** A broken business rule, with the HTTP status and the message a client may read. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429 | 503,
    message: string,
    readonly code: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class ValidationError extends AppError {
  constructor(message: string, issues?: { path: string; message: string }[]) {
    super(400, message, 'VALIDATION_ERROR', issues)
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'You must be signed in.') {
    super(401, message, 'UNAUTHORIZED')
  }
}

/**
 * A signed-in route's refusal of the bearer token the request carried (a revoked API key or device,
 * an ended session): answered with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750), so a
 * client tells it from a wrong secret on a public route, which is a plain 401.
 */
export class BearerTokenRefused extends Unauthorized {}

export class Forbidden extends AppError {
  /** `issues` names the field a refusal is about (a step that uses a secret kept for a higher role). */
  constructor(message = 'You do not have permission to do this.', issues?: { path: string; message: string }[]) {
    super(403, message, 'FORBIDDEN', issues)
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message, 'NOT_FOUND')
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message, 'CONFLICT')
  }
}

/** A limit of so many requests per window, as the RateLimit-Policy header states it. */
export interface RateLimitPolicy {
  limit: number
  windowSeconds: number
}

export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** The limit that refused, when it is not the general API limit (whose headers are already set). */
    readonly policy?: RateLimitPolicy,
  ) {
    super(429, message, 'RATE_LIMITED')
  }
}

export class ServiceUnavailable extends AppError {
  constructor(
    message = 'The service is temporarily unavailable. Please try again shortly.',
    /** When known, how soon to try again: the API sends it as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(503, message, 'SERVICE_UNAVAILABLE')
  }
}

/** A run or save the member's plan or credit balance does not allow (code PLAN_LIMIT or INSUFFICIENT_CREDITS). */
export class LimitReached extends AppError {
  constructor(message: string, code: 'PLAN_LIMIT' | 'INSUFFICIENT_CREDITS', issues?: { path: string; message: string }[]) {
    super(409, message, code, issues)
  }
}
