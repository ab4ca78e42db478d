import { LoaderCircle, ShieldAlert } from 'lucide-react'
import { isRouteErrorResponse, Link, NavLink, Outlet, redirect, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/admin'
import { MemberShell } from '#app/components/layout/member-shell.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { cn } from '#app/lib/cn.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

const TABS = [
  { to: '/admin/overview', label: 'Overview' },
  { to: '/admin', label: 'Users Management', end: true },
  { to: '/admin/blog', label: 'Blog Management' },
  { to: '/admin/inquiries', label: 'Service Inquiries' },
  { to: '/admin/subscriptions', label: 'Subscriptions' },
  { to: '/admin/settings', label: 'System Settings' },
  { to: '/admin/templates', label: 'Templates' },
] as const

const LEGACY_TABS: Record<string, string> = {
  users: '/admin',
  blog: '/admin/blog',
  inquiries: '/admin/inquiries',
  subscriptions: '/admin/subscriptions',
  settings: '/admin/settings',
  templates: '/admin/templates',
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  // The role check itself failed (the profile could not be read): the spec's toast, then /dashboard.
  if (user.profileUnavailable) {
    const flash = await flashHeader({
      type: 'error',
      title: 'Error checking admin status',
      description: 'Your profile could not be read. Please try again.',
    })
    throw redirect('/dashboard', { headers: withCookies([flash]) })
  }
  if (user.profile.role !== 'admin') throw redirect('/dashboard')
  const tab = new URL(request.url).searchParams.get('tab') ?? ''
  // Own keys only: a tab named like an object member ('constructor', '__proto__') is no tab.
  const legacy = Object.hasOwn(LEGACY_TABS, tab) ? LEGACY_TABS[tab] : undefined
  if (legacy && new URL(request.url).pathname === '/admin' && legacy !== '/admin') throw redirect(legacy)
  return { email: user.email, unprocessed: await context.services.inquiries.unprocessedCount() }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Admin Panel')

export default function AdminLayout() {
  const { email, unprocessed } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname.startsWith('/admin')
  return (
    <MemberShell email={email} isAdmin>
      <main className="space-y-6">
        <h1 className="text-2xl font-semibold tracking-tight">Admin Panel</h1>
        <nav aria-label="Admin sections" className="flex flex-wrap gap-1 rounded-lg bg-muted p-1">
          {TABS.map((tab) => (
            <NavLink
              key={tab.to}
              to={tab.to}
              end={'end' in tab ? tab.end : false}
              className={({ isActive }) =>
                cn(
                  'flex flex-auto items-center justify-center gap-2 rounded-md px-3 py-2 text-center text-sm font-medium',
                  isActive ? 'bg-background shadow-sm' : 'text-muted-foreground hover:text-foreground',
                )
              }
            >
              {tab.label}
              {tab.to === '/admin/inquiries' && unprocessed > 0 ? (
                <span className="rounded-full bg-primary px-1.5 text-xs text-primary-foreground" aria-label={`${unprocessed} unprocessed`}>
                  {unprocessed}
                </span>
              ) : null}
            </NavLink>
          ))}
        </nav>
        <div className="relative" aria-busy={loading || undefined}>
          {loading ? (
            <div role="status" className="absolute inset-x-0 top-2 z-10 flex justify-center">
              <LoaderCircle className="size-6 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
              <span className="sr-only">Loading...</span>
            </div>
          ) : null}
          <Outlet />
        </div>
      </main>
    </MemberShell>
  )
}

/** The panel refuses non-admins itself too: a 403 from any admin action or loader lands here. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && (error.status === 403 || error.status === 401)) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md items-center px-4">
        <Card className="w-full">
          <CardHeader>
            <CardTitle level={2} className="flex items-center gap-2">
              <ShieldAlert className="size-5 text-destructive" aria-hidden="true" /> Access Denied
            </CardTitle>
            <CardDescription>You don&apos;t have permission to access the admin panel.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to="/dashboard">Return to Dashboard</Link>
            </Button>
          </CardContent>
        </Card>
      </main>
    )
  }
  throw error
}
