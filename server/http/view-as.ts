import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { ReadOnlyView } from '#common/view-as.ts'
import { SESSION_COOKIE_NAME, VIEW_AS_COOKIE_NAME } from '#server/auth.ts'
import type { SessionService } from '#server/features/auth/session.service.ts'
import type { ViewAsService } from '#server/features/auth/view-as.service.ts'
import type { AppEnv } from './app-env.ts'
import { workspaceRequestOf } from './credentials.ts'
import { unavailablePage } from './maintenance.ts'
import { isApiPath } from './request-guard.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** What a view-as session may still ask for that is not a read: ending the view, and signing out. */
const ENDING = [/^\/view-as\/end(\.data)?$/, /^\/sign-out(\.data)?$/, /^\/api\/auth\/view-as\/end$/, /^\/api\/auth\/logout$/]
/** Page actions that store nothing: the workspace switch and the colour scheme keep the choice in a cookie of the browser. */
const COOKIE_ONLY = [/^\/workspace\/switch(\.data)?$/, /^\/preferences(\.data)?$/]

/** Whether an answer starts or ends a view (it sets the aether_view_as cookie): then it sets the session cookie too. */
const setsViewAsCookie = (res: Response) => res.headers.getSetCookie().some((value) => value.startsWith(`${VIEW_AS_COOKIE_NAME}=`))

/** React Router's data requests (single fetch): `/billing.data?_routes=…`, `/_root.data` for `/`. */
const isDataRequest = (path: string) => path.endsWith('.data')

/** The page a data request is for, as the browser shows it. */
function pageOf(url: string): string {
  const { pathname, searchParams } = new URL(url)
  searchParams.delete('_routes')
  searchParams.delete('index')
  const page = pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/')
  const query = searchParams.toString()
  return query ? `${page}?${query}` : page
}

/**
 * An admin viewing the app as a member (docs/decisions/064). While the session is a view-as
 * session, every change is refused here, before a page action or an API handler reads the request:
 * 403 READ_ONLY_VIEW (JSON for the API and React Router's data requests, a short page for a form
 * posted without JavaScript). Once it is over (30 minutes, or the member's sessions ended), the
 * first page request the browser makes finds the aether_view_as cookie without a live view: the
 * end goes into the audit log, the admin's own session comes back (if still live) and the page
 * says so. The API never restores: its view-as/end route does, and a page a moment later does.
 */
export function viewingAsMember(deps: { viewAs: ViewAsService; sessions: Pick<SessionService, 'resolve'> }) {
  /** Before the page or API handler: a refusal or a redirect to answer with, or null to go on. */
  async function before(c: Context<AppEnv>): Promise<Response | null> {
    const user = c.get('user')
    const path = c.req.path
    const ending = ENDING.some((pattern) => pattern.test(path))
    if (user?.viewedBy) {
      if (SAFE_METHODS.has(c.req.method) || ending || COOKIE_ONLY.some((pattern) => pattern.test(path))) return null
      return refuse(c, user.email)
    }
    if (ending || isApiPath(path)) return null
    const held = deps.viewAs.held(c.req.header('cookie'))
    if (!held) return null
    // The view is over. Only a page's document GET restores, so that it can say so; anything else becomes one.
    if (isDataRequest(path)) {
      return c.body(null, 204, { 'X-Remix-Redirect': pageOf(c.req.url), 'X-Remix-Reload-Document': 'true' })
    }
    if (!SAFE_METHODS.has(c.req.method)) return c.redirect(pageOf(c.req.url), 303)
    // Someone else signed in on this browser meanwhile: their session stays.
    const ended = await deps.viewAs.end(held, 'found', { restore: !user })
    if (ended.sessionCookie) {
      const credential = { kind: 'cookie', header: `${SESSION_COOKIE_NAME}=${ended.sessionCookie}` } as const
      const admin = await deps.sessions.resolve(credential, workspaceRequestOf(c.req.raw.headers, { cookieOnly: true }))
      c.set('credential', credential)
      c.set('user', admin.user)
      // What the view-as session's resolution answered (clearing it) gives way to the admin's cookie.
      c.set('sessionCookies', [...ended.setCookies, ...admin.setCookies])
    } else {
      c.set('sessionCookies', [...(c.get('sessionCookies') ?? []), ...ended.setCookies])
    }
    c.set('viewAsEnded', { email: ended.email, expired: ended.how === 'expired' })
    return null
  }

  return createMiddleware<AppEnv>(async (c, next) => {
    const answer = await before(c)
    if (answer) return answer
    await next()
    // Starting or ending a view sets the session cookie itself. A refresh of the session this request
    // came with (Better Auth's, answered by resolveSession after the handler) would land after it and
    // win: the admin's browser would stay the admin's after starting, or the member's after ending.
    if (setsViewAsCookie(c.res)) c.set('sessionCookies', [])
  })
}

function refuse(c: Context<AppEnv>, email: string) {
  const refusal = new ReadOnlyView(email)
  if (isApiPath(c.req.path) || isDataRequest(c.req.path)) throw refusal
  c.header('Cache-Control', 'no-store')
  const back = new URL(c.req.url)
  const page = unavailablePage({
    title: 'Read-only',
    heading: 'Read-only',
    message: refusal.message,
    // One leading slash: a path posted as `//host/…` must not become a link to another site.
    link: { href: `${back.pathname.replace(/^\/+/, '/')}${back.search}`, text: 'Back to the page' },
  })
  return c.html(page, 403)
}
