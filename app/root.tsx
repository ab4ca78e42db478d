import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteLoaderData,
  type LinksFunction,
} from 'react-router'
import type { Route } from './+types/root'
import type { Theme } from '#common/settings.ts'
import { TWO_FACTOR_REQUIRED } from '#common/two-factor-requirement.ts'
import { READ_ONLY_VIEW_CODE, utcTimeOfDay, VIEW_AS_MINUTES } from '#common/view-as.ts'
import stylesheet from './app.css?url'
import { Stylesheet } from './components/inline-stylesheet.tsx'
import { PaintFirstScripts, useAnnounceHydrated } from './components/paint-first-scripts.tsx'
import { MAIN_CONTENT_ID, SkipLink } from './components/layout/skip-link.tsx'
import { ViewingBanner } from './features/view-as/viewing-banner.tsx'
import { readFlash, type Flash } from './lib/flash.server.ts'
import { scriptsStart } from './lib/reading-page.ts'
import { toast } from './lib/toast.ts'
import { readConsent, readTheme } from './lib/preferences.server.ts'

// React Router rejects a fetcher submission or a revalidation cut short by a navigation (or by a
// newer one) with an AbortError that nobody awaits. The newer request brings the data: no error.
if (typeof window !== 'undefined') {
  window.addEventListener('unhandledrejection', (event) => {
    if ((event.reason as Error | undefined)?.name === 'AbortError') event.preventDefault()
  })
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.services.settings.get()
  const { flash, clear } = await readFlash(request)
  const user = context.user
  const analyticsId = context.services.site.analyticsId
  const consent = analyticsId ? await readConsent(request) : null
  return data(
    {
      user: user ? { email: user.email, name: user.profile.fullName ?? user.name, role: user.profile.role } : null,
      flash: viewAsEndedFlash(context) ?? flash,
      // An admin viewing the app as this member (docs/decisions/064): the banner on every page.
      viewing: user?.viewedBy
        ? {
            email: user.email,
            until: user.viewedBy.until.toISOString(),
            endsAt: utcTimeOfDay(user.viewedBy.until),
            siteName: settings.siteName,
          }
        : null,
      // The visitor's own choice, else the admin's default (System Settings).
      theme: (await readTheme(request)) ?? settings.theme,
      analytics: analyticsId ? { id: analyticsId, consent } : null,
      siteName: settings.siteName,
      googleEnabled: context.services.features.googleSignIn,
      site: context.services.site,
      publicUrl: context.publicUrl,
      cspNonce: context.cspNonce,
    },
    { headers: clear ? { 'Set-Cookie': clear } : undefined },
  )
}

/** What the first page after an admin's view as a member ended by itself says (docs/decisions/064). */
function viewAsEndedFlash({ viewAsEnded: ended, user }: Route.LoaderArgs['context']): Flash | null {
  if (!ended) return null
  return {
    type: 'info',
    title: ended.email ? `Viewing as ${ended.email} ended` : 'Viewing as a member ended',
    description: `${ended.expired ? `The ${VIEW_AS_MINUTES} minutes were up. ` : ''}${user ? 'You are back in your own account.' : 'Please sign in again.'}`,
  }
}

export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

/** Pages whose address carries a one-time token: no third-party script may see their URL. */
const TOKEN_PAGES = ['/reset-password', '/confirm-email', '/verify-email']

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>('root')
  const { pathname } = useLocation()
  const matches = useMatches()
  useAnnounceHydrated()
  const theme = root?.theme ?? 'dark'
  const nonce = root?.cspNonce
  return (
    <html lang="en" className={theme === 'light' ? 'light' : theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <Stylesheet href={stylesheet} />
      </head>
      <body className="min-h-screen">
        <SkipLink />
        {root?.viewing ? <ViewingBanner {...root.viewing} /> : null}
        {children}
        {root?.analytics && !root.analytics.consent ? (
          <Suspense fallback={null}>
            <CookieConsentBanner />
          </Suspense>
        ) : null}
        {root?.analytics?.consent === 'accepted' && !TOKEN_PAGES.includes(pathname) ? (
          <Analytics id={root.analytics.id} nonce={nonce} />
        ) : null}
        <LazyToaster theme={theme} />
        <ScrollRestoration nonce={nonce} />
        <PaintFirstScripts nonce={nonce} loadModules={scriptsStart(matches, Boolean(root?.flash))} />
      </body>
    </html>
  )
}

const Toaster = lazy(() => import('./components/toaster.tsx'))
// Rarely shown, so kept out of every page's first JavaScript.
const CookieConsentBanner = lazy(() =>
  import('./components/preferences/cookie-consent.tsx').then((module) => ({ default: module.CookieConsentBanner })),
)
const NotFoundView = lazy(() => import('./components/not-found-view.tsx').then((module) => ({ default: module.NotFoundView })))

/** The toaster arrives after hydration, so no page pays for it in its first JavaScript. */
function LazyToaster({ theme }: { theme: Theme }) {
  const hydrated = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  )
  if (!hydrated) return null
  return (
    <Suspense fallback={null}>
      <Toaster theme={theme} />
    </Suspense>
  )
}

/** Google Analytics, loaded only after the visitor accepted analytics cookies. */
function Analytics({ id, nonce }: { id: string; nonce?: string }) {
  const config = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(id)});`
  return (
    <>
      <script async nonce={nonce} src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`} />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: config }} />
    </>
  )
}

export default function App() {
  const { flash } = useLoaderData<typeof loader>()
  useEffect(() => {
    if (!flash || flash.inline) return
    const show = flash.type === 'error' ? toast.error : flash.type === 'success' ? toast.success : toast
    show(flash.title, { description: flash.description })
  }, [flash])
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFoundView />
      </Suspense>
    )
  }
  if (isRouteErrorResponse(error) && error.status === 403 && (error.data as { code?: string } | null)?.code === TWO_FACTOR_REQUIRED) {
    const refused = error.data as { message: string; personalWorkspaceId: string }
    // A team that requires two-factor sign-in (docs/decisions/023): set it up, or work elsewhere.
    return (
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="mx-auto flex min-h-screen max-w-2xl flex-col items-center justify-center gap-4 p-6 text-center outline-none"
      >
        <h1 className="text-3xl font-bold">Two-factor sign-in required</h1>
        <p className="text-muted-foreground">{refused.message}</p>
        <a className="font-medium text-primary underline" href="/settings#two-factor">
          Set up two-factor sign-in in Settings
        </a>
        <form method="post" action="/workspace/switch">
          <input type="hidden" name="workspaceId" value={refused.personalWorkspaceId} />
          <button type="submit" className="text-sm text-muted-foreground underline">
            Switch to your personal workspace
          </button>
        </form>
      </main>
    )
  }
  const readOnly = readOnlyRefusal(error)
  if (readOnly) {
    // A change asked for while an admin views the app as a member (docs/decisions/064); the banner above ends the view.
    return (
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center gap-4 p-6 text-center outline-none"
      >
        <h1 className="text-3xl font-bold">Read-only</h1>
        <p className="text-muted-foreground">{readOnly}</p>
        <a className="font-medium text-primary underline" href="">
          Back to the page
        </a>
      </main>
    )
  }
  if (isRouteErrorResponse(error) && error.status === 503) {
    // The server could not reach its database (or is in maintenance); navigating again later works.
    return (
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="mx-auto flex min-h-screen max-w-2xl flex-col items-center justify-center gap-4 p-6 text-center outline-none"
      >
        <h1 className="text-3xl font-bold">We will be right back</h1>
        <p className="text-muted-foreground">The service is temporarily unavailable. Please try again in a moment.</p>
        <a className="text-primary underline" href="">
          Try again
        </a>
      </main>
    )
  }
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : null
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="mx-auto flex min-h-screen max-w-2xl flex-col items-center justify-center gap-4 p-6 text-center outline-none"
    >
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="text-muted-foreground">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Something went wrong on our side. Please try again.'}
      </p>
      {detail ? <pre className="max-w-full overflow-x-auto rounded-md bg-muted p-4 text-left text-xs">{detail}</pre> : null}
      <a className="text-primary underline" href="/">
        Return to Home
      </a>
    </main>
  )
}

/**
 * The message of a change refused while viewing as a member: the server answers it before React
 * Router runs the action, so a data request's error carries the JSON answer as text.
 */
function readOnlyRefusal(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status !== 403) return null
  let answer: unknown = error.data
  if (typeof answer === 'string') {
    try {
      answer = JSON.parse(answer)
    } catch {
      return null
    }
  }
  const refusal = answer as { code?: unknown; message?: unknown } | null
  return refusal?.code === READ_ONLY_VIEW_CODE && typeof refusal.message === 'string' ? refusal.message : null
}
