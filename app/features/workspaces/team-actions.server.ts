import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type AppLoadContext } from 'react-router'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireUsableWorkspace } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { invitationCreateSchema, roleChangeSchema, workspaceCreateSchema, workspaceUpdateSchema } from '#common/workspaces.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { WorkspaceAccess } from '#server/features/workspaces/workspace.service.ts'
import { rememberWorkspace } from './workspace-cookie.server.ts'

const refused = (title: string, description: string) => data<ActionResult>({ ok: false, error: { title, description } }, { status: 400 })

/**
 * The team page's forms. Each one names its intent; the services check the member's role in the
 * workspace (the page shows only what the role allows, the server decides).
 */
export async function teamAction(context: AppLoadContext, user: SessionUser, form: FormData) {
  const { workspaces, invitations } = context.services
  const intent = String(form.get('intent'))
  if (!user.workspace && intent !== 'create-team') {
    return refused('Workspace not available', 'Your workspace could not be read. Please try again in a moment.')
  }
  if (intent !== 'create-team') requireUsableWorkspace(user)
  const actor = { id: user.id, email: user.email, emailVerified: user.emailVerified, workspace: user.workspace as WorkspaceAccess }
  const userId = String(form.get('userId') ?? '').slice(0, 100)

  if (intent === 'create-team') {
    const submission = parseWithZod(form, { schema: workspaceCreateSchema })
    if (submission.status !== 'success') return refused('Could not create the workspace', submission.error?.name?.[0] ?? 'Check the name.')
    const outcome = await attempt(() => workspaces.createTeam(user, submission.value.name))
    if (!outcome.ok) return refused('Could not create the workspace', outcome.error.message)
    const flash = await flashHeader({
      type: 'success',
      title: 'Workspace created',
      description: `You are now working in ${outcome.value.name}.`,
    })
    return redirect('/workspace', { headers: withCookies([rememberWorkspace(outcome.value.id), flash]) })
  }
  if (intent === 'invite') {
    const submission = parseWithZod(form, { schema: invitationCreateSchema })
    if (submission.status !== 'success')
      return refused('Could not send the invitation', submission.error?.email?.[0] ?? 'Check the address.')
    return actionResult(() => invitations.invite(actor, submission.value), {
      success: (invitation) => ({ title: 'Invitation sent', description: `${invitation.email} gets a link that works for 7 days.` }),
      error: 'Could not send the invitation',
      intent,
    })
  }
  if (intent === 'revoke-invitation') {
    return actionResult(() => invitations.revoke(actor, String(form.get('invitationId') ?? '').slice(0, 100)), {
      success: { title: 'Invitation withdrawn' },
      error: 'Could not withdraw the invitation',
    })
  }
  if (intent === 'change-role') {
    const submission = parseWithZod(form, { schema: roleChangeSchema })
    if (submission.status !== 'success') return refused('Could not change the role', 'Choose admin, member or viewer.')
    return actionResult(() => workspaces.changeRole(actor, userId, submission.value.role), {
      success: { title: 'Role changed' },
      error: 'Could not change the role',
    })
  }
  if (intent === 'remove-member') {
    return actionResult(() => workspaces.removeMember(actor, userId), {
      success: { title: 'Removed from the workspace', description: 'What they built stays here.' },
      error: 'Could not remove them',
    })
  }
  if (intent === 'transfer') {
    return actionResult(() => workspaces.transferOwnership(actor, userId), {
      success: { title: 'Ownership transferred', description: 'You stay in the workspace as an admin.' },
      error: 'Could not transfer ownership',
    })
  }
  if (intent === 'update-workspace') {
    const submission = parseWithZod(form, { schema: workspaceUpdateSchema })
    if (submission.status !== 'success') return refused('Could not save the settings', submission.error?.name?.[0] ?? 'Check the fields.')
    return actionResult(() => workspaces.update(actor, submission.value), {
      success: { title: 'Workspace settings saved' },
      error: 'Could not save the settings',
    })
  }
  if (intent === 'require-two-factor') {
    return actionResult(() => workspaces.update(actor, { requireTwoFactor: form.get('requireTwoFactor') === 'on' }), {
      success: (saved) => ({
        title: saved.requireTwoFactor ? 'Two-factor sign-in required' : 'Two-factor sign-in no longer required',
        description: saved.requireTwoFactor ? 'Members without it are sent to Settings to set it up.' : undefined,
      }),
      error: 'Could not save the settings',
    })
  }
  if (intent === 'leave' || intent === 'delete-workspace') {
    const outcome = await attempt(() => (intent === 'leave' ? workspaces.removeMember(actor, actor.id) : workspaces.remove(actor)))
    if (!outcome.ok) return refused(intent === 'leave' ? 'Could not leave' : 'Could not delete the workspace', outcome.error.message)
    const flash = await flashHeader({
      type: 'success',
      title: intent === 'leave' ? `You left ${actor.workspace.name}` : `${actor.workspace.name} was deleted`,
      description: 'You are back in your personal workspace.',
    })
    return redirect('/dashboard', { headers: withCookies([rememberWorkspace(user.id), flash]) })
  }
  throw data('Unknown action', { status: 400 })
}
