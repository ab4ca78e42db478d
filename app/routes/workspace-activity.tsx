import { format } from 'date-fns'
import { useLoaderData } from 'react-router'
import type { Route } from './+types/workspace-activity'
import { Pagination } from '#app/components/pagination.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const page = Math.max(1, Math.min(10_000, Number(new URL(request.url).searchParams.get('page')) || 1))
  const entries = await context.services.audit.listForWorkspace(pageCaller(user).workspace.id, { page, limit: DEFAULT_PAGE_SIZE })
  return {
    workspaceName: user.workspace?.kind === 'team' ? user.workspace.name : 'your personal workspace',
    entries: entries.items.map((entry) => ({
      id: entry.id,
      who: entry.actorEmail,
      summary: entry.summary,
      when: entry.createdAt.toISOString(),
      whenLabel: format(entry.createdAt, 'MMM d, yyyy HH:mm'),
    })),
    page,
    pageCount: Math.max(1, Math.ceil(entries.total / DEFAULT_PAGE_SIZE)),
  }
}

export const meta = privatePageMeta('Activity')

export default function WorkspaceActivityPage() {
  const { workspaceName, entries, page, pageCount } = useLoaderData<typeof loader>()
  return (
    <main className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
      <Card>
        <CardHeader>
          <CardTitle>What happened in {workspaceName}</CardTitle>
          <CardDescription>Automations changed and run, people invited and removed, API keys, billing — newest first.</CardDescription>
        </CardHeader>
        <CardContent>
          {entries.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing has happened here yet.</p>
          ) : (
            <ol className="divide-y" aria-label="Activity">
              {entries.map((entry) => (
                <li key={entry.id} className="flex flex-col gap-0.5 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                  <span className="text-sm">
                    <span className="font-medium">{entry.who}</span> · {entry.summary}
                  </span>
                  <time dateTime={entry.when} className="shrink-0 text-xs text-muted-foreground">
                    {entry.whenLabel}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
      <Pagination page={page} pageCount={pageCount} href={(n) => `/workspace/activity?page=${n}`} label="Activity pages" />
    </main>
  )
}
