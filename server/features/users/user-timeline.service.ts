import { eq } from 'drizzle-orm'
import { NotFound } from '#common/errors.ts'
import type { TimelineEntry, TimelinePage, TimelineQuery } from '#common/user-timeline.ts'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { comparePositions, decodeCursor, encodeCursor } from './timeline-cursor.ts'
import { TIMELINE_SOURCES } from './timeline-sources.ts'

/**
 * A member's timeline for the admin (README "Admin area"): sign-ins, plan changes, runs, payments
 * and admin actions, newest first, a page at a time. Nothing is stored for it: each source reads
 * its own table once per page, at most a page and one more rows after the cursor, and the rows
 * are merged by time. Each source's first rows after the cursor are all a page can need.
 */
export function createUserTimelineService(db: Db) {
  return {
    /** A page of the member's timeline; NotFound for an unknown account. */
    async page(userId: string, query: TimelineQuery): Promise<TimelinePage & { email: string }> {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
      if (!user) throw new NotFound('User not found')
      const cursor = query.cursor ? decodeCursor(query.cursor) : null
      const bounded = { userId, cursor, limit: query.limit + 1 }
      const found = (await Promise.all(TIMELINE_SOURCES.map((source) => source(db, bounded)))).flat()
      found.sort((a, b) => comparePositions(a.position, b.position))
      const shown = found.slice(0, query.limit)
      const last = shown.at(-1)
      return {
        email: user.email,
        entries: shown.map(({ position: _position, ...entry }): TimelineEntry => entry),
        nextCursor: found.length > query.limit && last ? encodeCursor(last.position) : null,
      }
    },
  }
}

export type UserTimelineService = ReturnType<typeof createUserTimelineService>
