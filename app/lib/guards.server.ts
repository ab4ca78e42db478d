import { redirect, type AppLoadContext } from 'react-router'

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
