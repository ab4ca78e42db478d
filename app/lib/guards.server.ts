import { data, redirect, type AppLoadContext } from 'react-router'
import { callerOf, type Caller } from '#common/auth.ts'
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
 * The member as the services see them, in the workspace they work in (docs/decisions/021). While
 * their profile cannot be read, they look at their personal workspace and change nothing.
 */
export function pageCaller(user: SessionUser): Caller {
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
