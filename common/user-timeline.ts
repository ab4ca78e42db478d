import { z } from './zod.ts'

/** What a member's timeline (for the admin) lists, each read from its own table. */
export const TIMELINE_KINDS = ['admin', 'payment', 'plan', 'run', 'sign-in'] as const
export type TimelineKind = (typeof TIMELINE_KINDS)[number]

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  admin: 'Admin action',
  payment: 'Payment',
  plan: 'Plan',
  run: 'Run',
  'sign-in': 'Sign-in',
}

/** One event of a member's timeline, newest first. */
export interface TimelineEntry {
  /** `${kind}:${row id}`: unique across the timeline. */
  id: string
  kind: TimelineKind
  /** When it happened (ISO 8601). */
  at: string
  summary: string
  /** More of it in words: a run's error, a sign-in's browser and address, the admin who acted. */
  detail: string | null
  /** A run's outcome (queued, running, succeeded, failed, cancelled) or a payment's (success, pending, failed). */
  status: string | null
  /** A run's id, for the run's page. */
  runId: string | null
}

export const TIMELINE_PAGE_SIZE = 20

/** GET /api/users/:id/timeline and the timeline page: the page after `cursor` (the previous page's nextCursor). */
export const timelineQuerySchema = z.object({
  cursor: z.string().trim().max(400).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(TIMELINE_PAGE_SIZE),
})
export type TimelineQuery = z.infer<typeof timelineQuerySchema>

export interface TimelinePage {
  entries: TimelineEntry[]
  /** The cursor of the next (older) page; null on the last page. */
  nextCursor: string | null
}
