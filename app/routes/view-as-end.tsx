import { redirect } from 'react-router'
import type { Route } from './+types/view-as-end'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'

// POST /view-as/end: the viewing banner's "End viewing" (docs/decisions/064). A plain form post, so
// it works without JavaScript: the view-as session ends (in the audit log), the admin's own session
// comes back, and they land on the Users tab. If their own session ended meanwhile, they sign in again.

export function loader() {
  return redirect('/dashboard')
}

export async function action({ request, context }: Route.ActionArgs) {
  const { viewAs } = context.services
  const held = viewAs.held(request.headers.get('cookie'))
  if (!held) return redirect(context.user ? '/dashboard' : '/auth')
  const ended = await viewAs.end(held, 'ended', { restore: true })
  const flash = await flashHeader(
    ended.restored
      ? {
          type: 'success',
          title: 'Viewing ended',
          description: `You stopped viewing as ${ended.email ?? 'the member'} and are back in your own account.`,
        }
      : { type: 'info', title: 'Viewing ended', description: 'Your own session had ended meanwhile: please sign in again.' },
  )
  return redirect(ended.restored ? '/admin' : '/auth', { headers: withCookies([...ended.setCookies, flash]) })
}
