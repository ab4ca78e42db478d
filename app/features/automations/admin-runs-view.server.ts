import type { AppLoadContext } from 'react-router'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import { readHistoryQuery } from './history-query.server.ts'
import { runRow } from './run-view.server.ts'

/** The admin's Runs tab: every member's runs, newest first, by status and by member (e-mail or id). */
export async function loadAdminRuns(context: AppLoadContext, params: URLSearchParams) {
  const { page, status } = readHistoryQuery(params)
  const member = params.get('member')?.trim().slice(0, 200) || undefined
  const { runs, users } = context.services
  const empty = { items: [], total: 0, emails: {} as Record<string, string>, unknownMember: false }
  const read = await readForPage(
    context,
    async () => {
      const userId = member?.includes('@') ? await users.idByEmail(member) : member
      if (member && !userId) return { ...empty, unknownMember: true }
      const result = await runs.list({ page, limit: DEFAULT_PAGE_SIZE, status, userId: userId ?? undefined })
      const emails = await users.emailsOf(result.items.flatMap((run) => (run.userId ? [run.userId] : [])))
      return { items: result.items, total: result.total, emails, unknownMember: false }
    },
    'An error occurred while fetching runs',
  )
  const result = read.ok ? read.value : empty
  return {
    error: read.ok ? null : read.message,
    runs: result.items.map((run) => ({
      ...runRow(run),
      email: run.userId ? (result.emails[run.userId] ?? run.userId) : 'a former member',
    })),
    total: result.total,
    unknownMember: result.unknownMember,
    page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    filters: { status, member },
  }
}
