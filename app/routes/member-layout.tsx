import { Outlet, useLoaderData } from 'react-router'
import type { Route } from './+types/member-layout'
import { MemberShell } from '#app/components/layout/member-shell.tsx'
import { VerificationBanner } from '#app/features/account/verification-banner.tsx'
import { verificationBannerOf } from '#app/features/account/verification-banner.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { WorkspaceSwitcher } from '#app/features/workspaces/workspace-switcher.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const [mine, verification] = await Promise.all([
    user.profileUnavailable ? [] : context.services.workspaces.listFor(user.id),
    verificationBannerOf(request, context, user),
  ])
  return {
    email: user.email,
    isAdmin: user.profile.role === 'admin',
    workspaces: mine.map(({ id, name, kind }) => ({ id, name, kind })),
    currentWorkspace: user.workspace?.id ?? user.id,
    verification,
  }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export default function MemberLayout() {
  const { email, isAdmin, workspaces, currentWorkspace, verification } = useLoaderData<typeof loader>()
  return (
    <MemberShell email={email} isAdmin={isAdmin} switcher={<WorkspaceSwitcher workspaces={workspaces} current={currentWorkspace} />}>
      {verification ? <VerificationBanner {...verification} /> : null}
      <Outlet />
    </MemberShell>
  )
}
