import { redirect } from 'react-router'
import type { Route } from './+types/sign-out'
import { withCookies } from '#app/lib/response-headers.ts'

export async function action({ request, context }: Route.ActionArgs) {
  // An admin viewing as a member signs out of both: the view ends, and so does their own session (docs/decisions/064).
  const held = context.services.viewAs.held(request.headers.get('cookie'))
  const viewing = held ? (await context.services.viewAs.end(held, 'signed-out', { restore: false })).setCookies : []
  const cookies = await context.services.auth.logout(context.credential)
  return redirect('/', { headers: withCookies([...viewing, ...cookies]) })
}

export function loader() {
  return redirect('/')
}
