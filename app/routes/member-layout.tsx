import { Outlet, useLoaderData } from 'react-router'
import type { Route } from './+types/member-layout'
import { MemberShell } from '#app/components/layout/member-shell.tsx'
import { requireMember } from '#app/lib/guards.server.ts'

export function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  return { email: user.email, isAdmin: user.profile.role === 'admin' }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export default function MemberLayout() {
  const { email, isAdmin } = useLoaderData<typeof loader>()
  return (
    <MemberShell email={email} isAdmin={isAdmin}>
      <Outlet />
    </MemberShell>
  )
}
