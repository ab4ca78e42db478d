import { data, redirect, type AppLoadContext } from 'react-router'
import { callerOf, type Caller } from '#common/auth.ts'
import { lacksRequiredTwoFactor, TWO_FACTOR_REQUIRED, TWO_FACTOR_REQUIRED_MESSAGE } from '#common/two-factor-requirement.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'

/** Pages that need a session send visitors to /auth, on the server. */
export function requireMember(context: AppLoadContext) {
  if (!context.user) throw redirect('/auth')
  return context.user
}

/** The admin area sends anyone who is not an admin to /dashboard (visitors to /auth first). */
export function requireAdminMember(context: AppLoadContext) {
  const user = requireMember(context)
  if (user.profile.role !== 'admin') throw redirect('/dashboard')
  return user
}

/** Admin actions answer 403 (the panel's Access Denied) instead of redirecting a form post away. */
export function requireAdminAction(context: AppLoadContext) {
  if (!context.user) throw data({ message: 'You must be logged in to access admin features' }, { status: 401 })
  if (context.user.profile.role !== 'admin')
    throw data({ message: "You don't have permission to access the admin panel." }, { status: 403 })
  return context.user
}

/**
 * A team that requires two-factor sign-in refuses its members without it (docs/decisions/023):
 * the page answers 403 with the message and a link to Settings (root.tsx's error boundary).
 */
export function requireUsableWorkspace(user: SessionUser): void {
  if (lacksRequiredTwoFactor(user)) {
    throw data({ message: TWO_FACTOR_REQUIRED_MESSAGE, code: TWO_FACTOR_REQUIRED, personalWorkspaceId: user.id }, { status: 403 })
  }
}

/**
 * The member as the services see them, in the workspace they work in (docs/decisions/021). While
 * their profile cannot be read, they look at their personal workspace and change nothing.
 */
export function pageCaller(user: SessionUser): Caller {
  requireUsableWorkspace(user)
  return callerOf(user.workspace ? user : { ...user, workspace: { id: user.id, role: 'viewer' } })
}

/** Billing is the workspace owner's; others see the plan but cannot change it. */
export function requireWorkspaceOwner(user: SessionUser) {
  const caller = pageCaller(user)
  if (caller.workspace.role !== 'owner') {
    throw data({ message: "Only the workspace's owners manage its billing." }, { status: 403 })
  }
  return caller
}
