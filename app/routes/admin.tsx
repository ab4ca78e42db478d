import { Link, useLoaderData, useSearchParams } from 'react-router'
import type { Route } from './+types/admin'
import { MemberShell } from '#app/components/layout/member-shell.tsx'
import { requireAdminMember } from '#app/lib/guards.server.ts'
import { cn } from '#app/lib/cn.ts'

const TABS = [
  { id: 'users', label: 'Users Management' },
  { id: 'blog', label: 'Blog Management' },
  { id: 'inquiries', label: 'Service Inquiries' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'settings', label: 'System Settings' },
] as const

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireAdminMember(context)
  const settings = await context.services.settings.get()
  return { email: user.email, settings }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = () => [{ title: 'Admin Panel | Aether' }, { name: 'robots', content: 'noindex' }]

export default function AdminPage() {
  const { email, settings } = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const active = TABS.find((tab) => tab.id === searchParams.get('tab'))?.id ?? 'users'
  return (
    <MemberShell email={email} isAdmin>
      <main className="space-y-6">
        <h1 className="text-2xl font-semibold tracking-tight">Admin Panel</h1>
        <nav aria-label="Admin sections" className="grid grid-cols-2 gap-1 rounded-lg bg-muted p-1 sm:grid-cols-5">
          {TABS.map((tab) => (
            <Link
              key={tab.id}
              to={`?tab=${tab.id}`}
              aria-current={tab.id === active ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-2 text-center text-sm font-medium',
                tab.id === active ? 'bg-background shadow-sm' : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        <section className="rounded-lg border p-6 text-sm text-muted-foreground">
          <p>
            Signed in as administrator <strong className="text-foreground">{email}</strong>. Site: {settings.siteName}; new users start with{' '}
            {settings.defaultCredits} credits; API limit {settings.apiRateLimit} requests per minute.
          </p>
        </section>
      </main>
    </MemberShell>
  )
}
