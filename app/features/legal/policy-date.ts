import { format, parseISO } from 'date-fns'

/** A policy's 'Last updated' date ('2026-01-15') as 'January 15, 2026'. */
export function formatPolicyDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMMM d, yyyy')
}
