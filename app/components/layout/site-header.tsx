import { Menu, X, Zap } from 'lucide-react'
import { useState } from 'react'
import { Form, Link } from 'react-router'
import { ThemeSwitch } from '#app/components/preferences/theme-switch.tsx'
import { Button } from '#app/components/ui/button.tsx'
import type { Theme } from '#common/settings.ts'

const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/#features', label: 'Features' },
  { to: '/#how-it-works', label: 'How It Works' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/services', label: 'Services' },
]

export function SiteHeader({ signedIn, theme }: { signedIn: boolean; theme: Theme }) {
  const [open, setOpen] = useState(false)
  const close = () => setOpen(false)
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 font-semibold tracking-tight" onClick={close}>
          <Zap className="size-5 text-primary" aria-hidden="true" />
          Aether
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-6 text-sm md:flex">
          {NAV_LINKS.map((link) => (
            <Link key={link.to} to={link.to} className="text-muted-foreground transition-colors hover:text-foreground">
              {link.label}
            </Link>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <ThemeSwitch theme={theme} />
          <AccountActions signedIn={signedIn} onNavigate={close} />
        </div>
        <div className="md:hidden">
          <ThemeSwitch theme={theme} />
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <X /> : <Menu />}
        </Button>
      </div>
      {open ? (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t bg-background px-4 pb-4 md:hidden">
          <ul className="flex flex-col py-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  onClick={close}
                  className="block rounded-md px-2 py-2.5 text-muted-foreground hover:bg-accent hover:text-foreground"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="flex flex-col gap-2">
            <AccountActions signedIn={signedIn} onNavigate={close} />
          </div>
        </nav>
      ) : null}
    </header>
  )
}

function AccountActions({ signedIn, onNavigate }: { signedIn: boolean; onNavigate: () => void }) {
  if (signedIn) {
    return (
      <>
        <Button asChild variant="ghost">
          <Link to="/dashboard" onClick={onNavigate}>
            Dashboard
          </Link>
        </Button>
        <Form method="post" action="/sign-out" onSubmit={onNavigate}>
          <Button type="submit" variant="outline" className="w-full">
            Sign Out
          </Button>
        </Form>
      </>
    )
  }
  return (
    <>
      <Button asChild variant="ghost">
        <Link to="/auth" onClick={onNavigate}>
          Log In
        </Link>
      </Button>
      <Button asChild>
        <Link to="/auth?mode=signup" onClick={onNavigate}>
          Sign Up Free
        </Link>
      </Button>
    </>
  )
}
