import { Outlet, useLoaderData } from 'react-router'
import type { Route } from './+types/member-layout'
import { MemberShell } from '#app/components/layout/member-shell.tsx'
import { requireMember } from '#app/lib/guards.server.ts'
import { WorkspaceSwitcher } from '#app/features/workspaces/workspace-switcher.tsx'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const mine = user.profileUnavailable ? [] : await context.services.workspaces.listFor(user.id)
  return {
    email: user.email,
    isAdmin: user.profile.role === 'admin',
    workspaces: mine.map(({ id, name, kind }) => ({ id, name, kind })),
    currentWorkspace: user.workspace?.id ?? user.id,
  }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export default function MemberLayout() {
  const { email, isAdmin, workspaces, currentWorkspace } = useLoaderData<typeof loader>()
  return (
    <MemberShell email={email} isAdmin={isAdmin} switcher={<WorkspaceSwitcher workspaces={workspaces} current={currentWorkspace} />}>
      <Outlet />
    </MemberShell>
  )
}
