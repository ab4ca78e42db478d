import { format } from 'date-fns'
import { data, type AppLoadContext } from 'react-router'
import { TIMELINE_PAGE_SIZE, timelineQuerySchema } from '#common/user-timeline.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'

const FALLBACK = 'An error occurred while reading the timeline'

/**
 * A member's timeline page (/admin/users/:userId): who they are, whether they are suspended, and a
 * page of their timeline after the URL's cursor. A cursor that is not one a page gave shows the
 * newest page, with the reason as the page's error toast; an unknown member is 404.
 */
export async function loadUserTimeline(context: AppLoadContext, userId: string, params: URLSearchParams) {
  const { users, userTimelines } = context.services
  const user = await users.get(userId)
  if (!user) throw data({ message: 'User not found' }, { status: 404 })
  const query = timelineQuerySchema.safeParse({ cursor: params.get('cursor') ?? undefined })
  const cursor = query.success ? query.data.cursor : undefined
  const pageAfter = (after: string | undefined) =>
    readForPage(context, () => userTimelines.page(userId, { limit: TIMELINE_PAGE_SIZE, cursor: after }), FALLBACK)
  let read = await pageAfter(cursor)
  let error = query.success ? null : 'This page address is not one the timeline gave: the newest entries are shown.'
  if (!read.ok && cursor) {
    error = read.message
    read = await pageAfter(undefined)
  }
  if (!read.ok) error = read.message
  const page = read.ok ? read.value : { entries: [], nextCursor: null }
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.profile.fullName ?? '',
      suspension: user.suspension ? { since: format(user.suspension.at, 'MMM d, yyyy'), reason: user.suspension.reason } : null,
    },
    error,
    newest: !cursor || error !== null,
    nextCursor: page.nextCursor,
    entries: page.entries.map((entry) => ({ ...entry, when: format(new Date(entry.at), 'MMM d, yyyy, HH:mm:ss') })),
  }
}

export type TimelineRow = Awaited<ReturnType<typeof loadUserTimeline>>['entries'][number]
