import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/workspace'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { CreateTeamCard } from '#app/features/workspaces/create-team-card.tsx'
import { InvitationsCard } from '#app/features/workspaces/invitations-card.tsx'
import { MembersCard } from '#app/features/workspaces/members-card.tsx'
import { WorkspaceSettingsCard } from '#app/features/workspaces/workspace-settings-card.tsx'
import { teamAction } from '#app/features/workspaces/team-actions.server.ts'
import { loadTeam } from '#app/features/workspaces/team-view.server.ts'

export function loader({ context }: Route.LoaderArgs) {
  return loadTeam(context, requireMember(context))
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  return teamAction(context, user, await request.formData())
}

export const meta = privatePageMeta('Team')

export default function WorkspacePage() {
  const view = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>() as ActionResult | undefined)
  const { workspace, role } = view
  const manages = workspace.kind === 'team' && (role === 'owner' || role === 'admin')
  return (
    <main className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{workspace.kind === 'team' ? workspace.name : 'Personal workspace'}</h1>
        <p className="text-sm text-muted-foreground">
          {workspace.kind === 'team'
            ? `${workspace.planName} plan · ${view.seats.taken} of ${view.seats.total} seats taken · you are ${role}`
            : 'Yours alone. Create a team workspace to build and run automations with others.'}
        </p>
      </div>
      {workspace.kind === 'team' ? <MembersCard view={view} /> : null}
      {manages ? <InvitationsCard view={view} /> : null}
      {workspace.kind === 'team' ? <WorkspaceSettingsCard view={view} /> : null}
      <CreateTeamCard key={workspace.id} allowed={view.canCreateTeam} />
    </main>
  )
}
