import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { ValidationError } from '#common/errors.ts'
import { TIMELINE_KINDS, type TimelineKind } from '#common/user-timeline.ts'
import { z } from '#common/zod.ts'

/**
 * Where a timeline page ended: its last entry's time (to the microsecond, as the database keeps
 * it, in UTC: "2026-12-04T11:36:03.123456Z"), kind and row id. Entries are ordered by these three,
 * newest first, so every entry has one place and a page never repeats or skips one.
 */
export interface TimelinePosition {
  at: string
  kind: TimelineKind
  id: string
}

const positionSchema = z.object({
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  kind: z.enum(TIMELINE_KINDS),
  id: z.string().min(1).max(100),
})

export function encodeCursor(position: TimelinePosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url')
}

export function decodeCursor(cursor: string): TimelinePosition {
  let parsed: unknown = null
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    // Answered below as any other malformed cursor.
  }
  const position = positionSchema.safeParse(parsed)
  if (!position.success) {
    const message = 'This cursor is not one a timeline page gave: start again without it.'
    throw new ValidationError(`cursor: ${message}`, [{ path: 'cursor', message }])
  }
  return position.data
}

/** A row's time as the position holds it (microseconds, UTC): what sources select and sort by. */
export const positionTime = (at: AnyPgColumn) => sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** A row id as positions compare it: as text, byte by byte (the merge compares them as JavaScript does). */
export const positionId = (id: AnyPgColumn) => sql`${id}::text collate "C"`

/** Newest first, as positions order entries of one kind. */
export const positionOrder = (at: AnyPgColumn, id: AnyPgColumn) => [sql`${at} desc`, sql`${positionId(id)} desc`]

/**
 * The rows of one kind that come after `cursor`: older, or as old and of a kind that sorts before
 * the cursor's (kinds descend too), or the same kind with a smaller id.
 */
export function afterPosition(cursor: TimelinePosition | null, kind: TimelineKind, at: AnyPgColumn, id: AnyPgColumn): SQL | undefined {
  if (!cursor) return undefined
  const time = sql`${cursor.at}::timestamptz`
  if (kind < cursor.kind) return sql`${at} <= ${time}`
  if (kind > cursor.kind) return sql`${at} < ${time}`
  return sql`(${at} < ${time} or (${at} = ${time} and ${positionId(id)} < ${cursor.id}))`
}

/** Orders positions newest first (time, then kind, then id, all descending). */
export function comparePositions(a: TimelinePosition, b: TimelinePosition): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1
  if (a.kind !== b.kind) return a.kind < b.kind ? 1 : -1
  if (a.id !== b.id) return a.id < b.id ? 1 : -1
  return 0
}
