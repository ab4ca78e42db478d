import { Menu, X, Zap } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Form, Link, useLocation } from 'react-router'
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

/** Whether this browser has popovers (Baseline 2024); without, React shows and hides the menu itself. */
const browserHasPopovers = () => 'popover' in HTMLElement.prototype

/**
 * The site's header. On a small screen the links fold into a menu that is a popover: the browser
 * opens it from the toggle and closes it on Escape or a tap outside, with no script (a reading
 * page may have none, docs/decisions/051); a link followed in it, or any change of page, closes it
 * too. The toggle's aria-expanded follows the menu: here once hydrated, and by the page's
 * bootstrap before. A browser without popovers gets the menu from React (`data-open`, app.css).
 */
export function SiteHeader({ signedIn, theme }: { signedIn: boolean; theme: Theme }) {
  const menu = useRef<HTMLElement>(null)
  const [open, setOpen] = useState(false)
  const closeMenu = () => {
    if (!browserHasPopovers()) setOpen(false)
    else if (menu.current?.matches(':popover-open')) menu.current.hidePopover()
  }
  const { pathname, hash } = useLocation()
  useEffect(() => {
    const element = menu.current
    if (element && browserHasPopovers() && element.matches(':popover-open')) element.hidePopover()
  }, [pathname, hash])
  return (
    <header className="group/header fixed inset-x-0 top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 font-semibold tracking-tight">
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
          <AccountActions signedIn={signedIn} onNavigate={closeMenu} />
        </div>
        <div className="md:hidden">
          <ThemeSwitch theme={theme} />
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          popoverTarget="mobile-menu"
          aria-controls="mobile-menu"
          aria-expanded={open}
          onClick={() => {
            if (!browserHasPopovers()) setOpen((value) => !value)
          }}
        >
          <Menu className="group-has-[#mobile-menu:popover-open]/header:hidden" aria-hidden="true" />
          <X className="hidden group-has-[#mobile-menu:popover-open]/header:block" aria-hidden="true" />
          <span className="sr-only group-has-[#mobile-menu:popover-open]/header:hidden">Open menu</span>
          <span className="sr-only hidden group-has-[#mobile-menu:popover-open]/header:inline">Close menu</span>
        </Button>
      </div>
      <nav
        ref={menu}
        id="mobile-menu"
        popover="auto"
        onToggle={(event) => setOpen(event.newState === 'open')}
        data-open={open ? '' : undefined}
        aria-label="Mobile"
        className="fixed inset-x-0 top-16 bottom-auto m-0 h-auto w-full border-0 border-b bg-background px-4 pt-0 pb-4 text-foreground md:hidden"
      >
        <ul className="flex flex-col py-2">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                onClick={closeMenu}
                className="block rounded-md px-2 py-2.5 text-muted-foreground hover:bg-accent hover:text-foreground"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="flex flex-col gap-2">
          <AccountActions signedIn={signedIn} onNavigate={closeMenu} />
        </div>
      </nav>
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
