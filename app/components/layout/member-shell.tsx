import {
  Activity,
  ArrowLeft,
  Users,
  CreditCard,
  History,
  LoaderCircle,
  LogOut,
  Settings,
  ShieldCheck,
  UserRound,
  Zap,
  KeyRound,
  LayoutTemplate,
  Webhook,
  Vault,
  MonitorSmartphone,
  type LucideIcon,
} from 'lucide-react'
import type * as React from 'react'
import { Form, Link, NavLink, useLocation, useNavigation } from 'react-router'
import { cn } from '#app/lib/cn.ts'
import { MAIN_CONTENT_ID } from './skip-link.tsx'

interface MenuItem {
  to: string
  label: string
  icon: LucideIcon
  /** Matched on the path alone (NavLink); anchors are plain links. */
  anchor?: boolean
}

// The spec's side menus: the dashboard's, and the one Settings and Billing share. An item is current
// on its own page and the pages under it (Automation History on the builder and run pages, not on
// the gallery, which has its own item).
const DASHBOARD_MENU: MenuItem[] = [
  { to: '/dashboard', label: 'Automation History', icon: History },
  { to: '/dashboard/templates', label: 'Templates', icon: LayoutTemplate },
  { to: '/workspace', label: 'Team', icon: Users },
  { to: '/workspace/activity', label: 'Activity', icon: Activity },
  { to: '/workspace/webhooks', label: 'Webhooks', icon: Webhook },
  { to: '/workspace/vault', label: 'Vault', icon: Vault },
  { to: '/billing', label: 'Billing', icon: CreditCard },
  { to: '/settings', label: 'Settings', icon: Settings },
]
const ACCOUNT_MENU: MenuItem[] = [
  { to: '/settings', label: 'Account', icon: UserRound },
  { to: '/billing', label: 'Billing', icon: CreditCard },
  { to: '/settings#security', label: 'Security', icon: KeyRound, anchor: true },
  { to: '/settings#devices', label: 'Devices', icon: MonitorSmartphone, anchor: true },
]

const itemClass = (active: boolean) =>
  cn(
    'flex items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors',
    active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
  )

export function MemberShell({
  isAdmin,
  email,
  switcher,
  children,
}: {
  isAdmin: boolean
  email: string
  /** The workspace switcher, above the menu. */
  switcher?: React.ReactNode
  children: React.ReactNode
}) {
  const { pathname } = useLocation()
  const navigation = useNavigation()
  const accountArea = pathname.startsWith('/settings') || pathname.startsWith('/billing')
  const menu = accountArea ? ACCOUNT_MENU : DASHBOARD_MENU
  const loading = navigation.state === 'loading' && navigation.location.pathname !== pathname

  return (
    <div className="min-h-screen md:grid md:grid-cols-[240px_1fr]">
      <aside className="border-b md:min-h-screen md:border-r md:border-b-0">
        <div className="flex h-16 items-center gap-2 px-5 font-semibold">
          <Link to="/" className="flex items-center gap-2">
            <Zap className="size-5 text-primary" aria-hidden="true" />
            Aether
          </Link>
        </div>
        {switcher}
        <nav aria-label="Account" className="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-col md:pb-0">
          {accountArea ? (
            <Link to="/dashboard" className={itemClass(false)}>
              <ArrowLeft className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">Dashboard</span>
            </Link>
          ) : null}
          {menu.map(({ to, label, icon: Icon, anchor }) =>
            anchor ? (
              <Link key={to} to={to} className={itemClass(false)}>
                <Icon className="size-4" aria-hidden="true" />
                <span className="whitespace-nowrap">{label}</span>
              </Link>
            ) : (
              <NavLink
                key={to}
                to={to}
                end={to === '/settings' || to === '/workspace' || (to === '/dashboard' && pathname.startsWith('/dashboard/templates'))}
                className={({ isActive }) => itemClass(isActive)}
              >
                <Icon className="size-4" aria-hidden="true" />
                <span className="whitespace-nowrap">{label}</span>
              </NavLink>
            ),
          )}
          {isAdmin ? (
            <NavLink to="/admin" className={({ isActive }) => itemClass(isActive)}>
              <ShieldCheck className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">Admin Panel</span>
            </NavLink>
          ) : null}
          <Form method="post" action="/sign-out">
            <button type="submit" className={cn(itemClass(false), 'w-full')}>
              <LogOut className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">Sign Out</span>
            </button>
          </Form>
        </nav>
        <p className="hidden truncate px-5 py-4 text-xs text-muted-foreground md:block" title={email}>
          {email}
        </p>
      </aside>
      <div className="relative min-w-0 px-4 py-8 sm:px-8" aria-busy={loading || undefined}>
        {loading ? (
          <div role="status" className="absolute inset-x-0 top-0 flex justify-center pt-2">
            <LoaderCircle className="size-6 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
            <span className="sr-only">Loading...</span>
          </div>
        ) : null}
        <div id={MAIN_CONTENT_ID} tabIndex={-1} className={cn('transition-opacity outline-none', loading && 'opacity-50')}>
          {children}
        </div>
      </div>
    </div>
  )
}
