import { Monitor, Moon, Sun } from 'lucide-react'
import { useFetcher, useLocation } from 'react-router'
import type { Theme } from '#common/settings.ts'
import { cn } from '#app/lib/cn.ts'

const OPTIONS: { value: Theme; label: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
]

/** Light / dark / system, remembered in a cookie so the server renders the right scheme. */
export function ThemeSwitch({ theme }: { theme: Theme }) {
  const fetcher = useFetcher()
  const location = useLocation()
  const pending = fetcher.formData?.get('theme')
  const current = typeof pending === 'string' ? (pending as Theme) : theme
  return (
    <fetcher.Form method="post" action="/preferences" className="flex items-center rounded-full border p-0.5" aria-label="Colour scheme">
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      {OPTIONS.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="submit"
          name="theme"
          value={value}
          aria-pressed={current === value}
          title={`${label} theme`}
          className={cn(
            'inline-flex size-7 items-center justify-center rounded-full text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
            current === value && 'bg-accent text-accent-foreground',
          )}
        >
          <Icon className="size-3.5" aria-hidden="true" />
          <span className="sr-only">{label} theme</span>
        </button>
      ))}
    </fetcher.Form>
  )
}
