import { useEffect } from 'react'
import { ArrowLeft } from 'lucide-react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-user-timeline'
import { Button } from '#app/components/ui/button.tsx'
import { UserTimeline } from '#app/features/admin/users/user-timeline.tsx'
import { loadUserTimeline } from '#app/features/admin/users/timeline-view.server.ts'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { toast } from '#app/lib/toast.ts'

export function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  return loadUserTimeline(context, params.userId, new URL(request.url).searchParams)
}

export const meta = privatePageMeta('Member timeline')

export default function AdminUserTimelinePage() {
  const { user, entries, nextCursor, newest, error } = useLoaderData<typeof loader>()
  useEffect(() => {
    if (error) toast.error('Error fetching timeline', { description: error })
  }, [error])
  const here = `/admin/users/${user.id}`
  return (
    <section aria-labelledby="timeline-heading" className="space-y-4">
      <Link to="/admin" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" /> Back to Users Management
      </Link>
      <h2 id="timeline-heading" className="text-xl font-semibold [overflow-wrap:anywhere]">
        Timeline of {user.email}
      </h2>
      <p className="text-sm text-muted-foreground">
        {user.name ? `${user.name}. ` : null}
        Sign-ins, plan changes, runs, payments and what admins did, newest first. Sign-ins are the sessions open now.
      </p>
      {user.suspension ? (
        <p role="status" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm [overflow-wrap:anywhere]">
          Suspended since {user.suspension.since}: {user.suspension.reason}
        </p>
      ) : null}
      <UserTimeline entries={entries} />
      <nav aria-label="Timeline pages" className="flex flex-wrap justify-center gap-2">
        {newest ? null : (
          <Button asChild variant="outline">
            <Link to={here}>Newest</Link>
          </Button>
        )}
        {nextCursor ? (
          <Button asChild variant="outline">
            <Link to={`${here}?${new URLSearchParams({ cursor: nextCursor })}`} rel="next">
              Older
            </Link>
          </Button>
        ) : null}
      </nav>
    </section>
  )
}
