import { useEffect } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-runs'
import { Pagination } from '#app/components/pagination.tsx'
import { AdminRunFilters } from '#app/features/automations/admin-run-filters.tsx'
import { loadAdminRuns } from '#app/features/automations/admin-runs-view.server.ts'
import { RunHistoryTable } from '#app/features/automations/run-history.tsx'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  return loadAdminRuns(context, new URL(request.url).searchParams)
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
      <RunHistoryTable
        runs={runs}
        caption="Runs of every member, newest first"
        member={(run) => emailOf.get(run.id) ?? run.userId ?? 'a former member'}
      />
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
