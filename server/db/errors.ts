/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it (directly or as the cause). */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, '23505')
}

/** A foreign key refused the change: foreign_key_violation (23503) or, for ON DELETE RESTRICT, restrict_violation (23001). */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasCode(error, '23503') || hasCode(error, '23001')
}

/** Text PostgreSQL cannot store: a NUL character (22021) or bytes with no character (22P05). */
export function isUnstorableText(error: unknown): boolean {
  return hasCode(error, '22021') || hasCode(error, '22P05')
}

function hasCode(error: unknown, code: string): boolean {
  const direct = (error as { code?: string } | null)?.code
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code
  return direct === code || cause === code
}

/** Socket errors of a database server that is down, restarting or out of reach. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exceptions), the server shutting
 * down or starting up (57P01-57P03), and no free connection slot (53300).
 */
const SQLSTATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300'])

/** node-postgres' own messages for a lost or never-made connection. */
const MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
]

/**
 * Whether an error means "the database cannot be reached right now" rather than a bug: requests
 * then answer 503 and background work retries later (docs/decisions/013-database-outage.md).
 * Follows `cause` (Drizzle wraps driver errors in DrizzleQueryError) and AggregateError (a host
 * name with several addresses, each refused).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  while (queue.length) {
    const current = queue.shift()
    if (!(current instanceof Error) || seen.has(current)) continue
    seen.add(current)
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code))) return true
    if (MESSAGES.some((pattern) => pattern.test(current.message))) return true
    if (current.cause) queue.push(current.cause)
    if (current instanceof AggregateError) queue.push(...(current.errors as unknown[]))
  }
  return false
}

/** Thrown where a database outage must surface as one (the pages, the session lookup). */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause })
    this.name = 'DatabaseUnavailableError'
  }
}
