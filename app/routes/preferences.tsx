import { data, redirect } from 'react-router'
import type { Route } from './+types/preferences'
import { withCookies } from '#app/lib/response-headers.ts'
import { analyticsCookieRemovals, consentHeader, safeReturnPath, themeHeader } from '#app/lib/preferences.server.ts'
import { THEMES, type Theme } from '#common/settings.ts'

/** POST /preferences: the colour-scheme switch and the cookie-consent banner (with or without JS). */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const returnTo = safeReturnPath(form.get('returnTo'))
  const cookies: string[] = []
  const theme = form.get('theme')
  if (theme !== null) {
    if (!THEMES.includes(theme as Theme)) return data({ message: 'theme must be light, dark or system' }, { status: 400 })
    cookies.push(await themeHeader(theme as Theme))
  }
  const consent = form.get('consent')
  if (consent !== null) {
    if (consent !== 'accepted' && consent !== 'rejected') return data({ message: 'consent must be accepted or rejected' }, { status: 400 })
    cookies.push(await consentHeader(consent))
    if (consent === 'rejected') cookies.push(...analyticsCookieRemovals(request))
  }
  if (!cookies.length) return data({ message: 'Nothing to change: send theme or consent.' }, { status: 400 })
  return redirect(returnTo, { headers: withCookies(cookies) })
}

export function loader() {
  return redirect('/')
}
