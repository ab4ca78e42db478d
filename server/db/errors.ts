/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it (directly or as the cause). */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, '23505')
}

/** A foreign key refused the change: foreign_key_violation (23503) or, for ON DELETE RESTRICT, restrict_violation (23001). */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasCode(error, '23503') || hasCode(error, '23001')
}

function hasCode(error: unknown, code: string): boolean {
  const direct = (error as { code?: string } | null)?.code
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code
  return direct === code || cause === code
}
