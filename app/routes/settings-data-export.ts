import { redirect } from 'react-router'
import type { Route } from './+types/settings-data-export'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'

// GET /settings/data-export/{id}?expires=…&token=…: the e-mailed link to a member's data export
// (docs/decisions/065). It needs the link and the member signed in: a visitor signs in and comes
// back here; a wrong, someone else's or expired link goes to Settings, which says why.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  if (!context.user) throw redirect(`/auth?returnTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`)
  const expires = Number(url.searchParams.get('expires'))
  const token = url.searchParams.get('token') ?? ''
  const found = await attempt(() => context.services.dataExports.download(context.user!, params.exportId, expires, token))
  if (!found.ok) {
    const flash = await flashHeader({ type: 'error', title: 'Download not available', description: found.error.message })
    throw redirect('/settings#data-export', { headers: withCookies([flash]) })
  }
  const { open, size, name } = found.value
  return new Response(open(), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${name}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  })
}
