import { CreditCard, History, LogOut, Settings, ShieldCheck, Zap } from 'lucide-react'
import type * as React from 'react'
import { Form, Link, NavLink } from 'react-router'
import { cn } from '#app/lib/cn.ts'

const MENU = [
  { to: '/dashboard', label: 'Automation History', icon: History },
  { to: '/billing', label: 'Billing', icon: CreditCard },
  { to: '/settings', label: 'Settings', icon: Settings },
]

export function MemberShell({ isAdmin, email, children }: { isAdmin: boolean; email: string; children: React.ReactNode }) {
  const itemClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'flex items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors',
      isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
    )
  return (
    <div className="min-h-screen md:grid md:grid-cols-[240px_1fr]">
      <aside className="border-b md:min-h-screen md:border-r md:border-b-0">
        <div className="flex h-16 items-center gap-2 px-5 font-semibold">
          <Link to="/" className="flex items-center gap-2">
            <Zap className="size-5 text-primary" aria-hidden="true" />
            Aether
          </Link>
        </div>
        <nav aria-label="Account" className="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-col md:pb-0">
          {MENU.map(({ to, label, icon: Icon }) => (
            <NavLink key={to} to={to} end className={itemClass}>
              <Icon className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">{label}</span>
            </NavLink>
          ))}
          {isAdmin ? (
            <NavLink to="/admin" className={itemClass}>
              <ShieldCheck className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">Admin Panel</span>
            </NavLink>
          ) : null}
          <Form method="post" action="/sign-out">
            <button
              type="submit"
              className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-foreground"
            >
              <LogOut className="size-4" aria-hidden="true" />
              <span className="whitespace-nowrap">Sign Out</span>
            </button>
          </Form>
        </nav>
        <p className="hidden truncate px-5 py-4 text-xs text-muted-foreground md:block" title={email}>
          {email}
        </p>
      </aside>
      <div className="min-w-0 px-4 py-8 sm:px-8">{children}</div>
    </div>
  )
}
