import { data, redirect, type AppLoadContext } from 'react-router'

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
