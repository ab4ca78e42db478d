import { data, type AppLoadContext } from 'react-router'
import { format } from 'date-fns'
import { hasRole } from '#common/workspaces.ts'
import { pageCaller } from '#app/lib/guards.server.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { WorkspaceAccess } from '#server/features/workspaces/workspace.service.ts'

/**
 * What /workspace shows: the workspace the member works in, its people and pending invitations,
 * what their role lets them do there, and whether they may create a team workspace.
 */
export async function loadTeam(context: AppLoadContext, user: SessionUser) {
  const { workspaces, invitations } = context.services
  const caller = pageCaller(user)
  if (!user.workspace) throw data({ message: 'Your workspace could not be read. Please try again in a moment.' }, { status: 503 })
  const workspace: WorkspaceAccess = user.workspace
  const actor = { id: user.id, email: user.email, workspace }
  const manages = hasRole(caller.workspace.role, 'admin') && workspace.kind === 'team'
  const [members, pending, seats, canCreateTeam] = await Promise.all([
    workspaces.members(actor),
    manages ? invitations.listPending(actor) : Promise.resolve([]),
    invitations.seats(workspace.id),
    workspaces.mayCreateTeams(user.id),
  ])
  return {
    workspace: {
      id: workspace.id,
      name: workspace.name,
      kind: workspace.kind,
      planName: workspace.planName,
      requireTwoFactor: workspace.requireTwoFactor,
    },
    role: caller.workspace.role,
    me: user.id,
    /** Only an owner who has two-factor sign-in on may require it (docs/decisions/023). */
    myTwoFactor: user.twoFactorEnabled,
    seats: { total: seats.seats, taken: seats.taken },
    members: members.map((member) => ({ ...member, joinedLabel: format(member.joinedAt, 'MMM d, yyyy') })),
    invitations: pending.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      invitedBy: invitation.invitedBy,
      expiresLabel: format(invitation.expiresAt, 'MMM d, yyyy'),
    })),
    canCreateTeam,
  }
}

export type TeamView = Awaited<ReturnType<typeof loadTeam>>
