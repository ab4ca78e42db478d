import { redirect } from 'react-router'
import type { Route } from './+types/workspace-switch'
import { rememberWorkspace } from '#app/features/workspaces/workspace-cookie.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'

// POST /workspace/switch: work in another of one's workspaces (docs/decisions/021). A workspace
// the member is not in is refused; the choice is remembered in a cookie every request re-checks.

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const workspaceId = String(form.get('workspaceId') ?? '').slice(0, 100)
  const access = workspaceId ? await context.services.workspaces.access(user.id, workspaceId) : null
  if (!access) throw new Response('Workspace not found', { status: 404 })
  return redirect('/dashboard', { headers: { 'Set-Cookie': rememberWorkspace(access.id) } })
}

export function loader() {
  return redirect('/dashboard')
}
