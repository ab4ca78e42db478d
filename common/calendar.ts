/** The first moment of the current calendar month in UTC: a plan's monthly allowances count from here. */
export function monthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
}
