import { useEffect } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-runs'
import { Pagination } from '#app/components/pagination.tsx'
import { AdminRunFilters } from '#app/features/automations/admin-run-filters.tsx'
import { readHistoryQuery } from '#app/features/automations/history-query.server.ts'
import { RunHistoryTable } from '#app/features/automations/run-history.tsx'
import { runRow } from '#app/features/automations/run-view.server.ts'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { toast } from '#app/lib/toast.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const params = new URL(request.url).searchParams
  const { page, status } = readHistoryQuery(params)
  const member = params.get('member')?.trim().slice(0, 200) || undefined
  const { runs, users } = context.services
  const read = await readForPage(
    context,
    async () => {
      // A member by e-mail (exactly, in any case) or by id.
      let userId = member
      if (member?.includes('@')) {
        const found = await users.list({ page: 1, limit: 10, search: member })
        userId = found.items.find((user) => user.email.toLowerCase() === member.toLowerCase())?.id
        if (!userId) return { items: [], total: 0, emails: {}, unknownMember: true }
      }
      const result = await runs.list({ page, limit: DEFAULT_PAGE_SIZE, status, userId })
      const owners = await Promise.all([...new Set(result.items.map((run) => run.userId))].map((id) => users.get(id)))
      const emails = Object.fromEntries(owners.flatMap((owner) => (owner ? [[owner.id, owner.email]] : [])))
      return { items: result.items, total: result.total, emails, unknownMember: false }
    },
    'An error occurred while fetching runs',
  )
  const result = read.ok ? read.value : { items: [], total: 0, emails: {}, unknownMember: false }
  return {
    error: read.ok ? null : read.message,
    runs: result.items.map((run) => ({ ...runRow(run), email: (result.emails as Record<string, string>)[run.userId] ?? run.userId })),
    total: result.total,
    unknownMember: result.unknownMember,
    page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    filters: { status, member },
  }
}

export default function AdminRunsPage() {
  const { runs, total, unknownMember, page, pageCount, filters, error } = useLoaderData<typeof loader>()
  useEffect(() => {
    if (error) toast.error('Error fetching runs', { description: error })
  }, [error])
  const emailOf = new Map(runs.map((run) => [run.id, run.email]))
  return (
    <section aria-labelledby="admin-runs-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="admin-runs-heading" className="text-lg font-semibold">
          Automation Runs
        </h2>
        <Link to="/admin" className="text-sm text-primary hover:underline">
          Back to Users Management
        </Link>
      </div>
      <AdminRunFilters status={filters.status} member={filters.member} />
      <p className="text-sm text-muted-foreground">
        {unknownMember ? 'No member has that e-mail address.' : total === 1 ? '1 run' : `${total} runs`}
      </p>
      <RunHistoryTable runs={runs} caption="Runs of every member, newest first" member={(run) => emailOf.get(run.id) ?? run.userId} />
      <Pagination
        page={page}
        pageCount={pageCount}
        href={(n) =>
          `/admin/runs?${new URLSearchParams({
            ...(filters.status ? { status: filters.status } : {}),
            ...(filters.member ? { member: filters.member } : {}),
            page: String(n),
          })}`
        }
        label="Run pages"
      />
    </section>
  )
}
