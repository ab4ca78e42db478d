import { redirect } from 'react-router'
import type { Route } from './+types/sign-out'
import { withCookies } from '#app/lib/response-headers.ts'

export async function action({ context }: Route.ActionArgs) {
  const cookies = await context.services.auth.logout(context.credential)
  return redirect('/', { headers: withCookies(cookies) })
}

export function loader() {
  return redirect('/')
}
