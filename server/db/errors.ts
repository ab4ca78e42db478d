/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it (directly or as the cause). */
export function isUniqueViolation(error: unknown): boolean {
  const direct = (error as { code?: string } | null)?.code
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code
  return direct === '23505' || cause === '23505'
}
