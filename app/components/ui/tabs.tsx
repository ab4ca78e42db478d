import { createContext, use, useId, useState, type ComponentProps, type KeyboardEvent } from 'react'
import { cn } from '#app/lib/cn.ts'

/**
 * Tabs per the WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs and select them.
 * Every panel is rendered (crawlers and readers without JavaScript get all of them); inactive ones
 * are `hidden`. Our own instead of Radix Tabs, whose presence logic forced a style recalculation
 * during hydration (docs/decisions/009-head-tags-in-loaders-and-site-core-chunk.md).
 */
const TabsContext = createContext<{ value: string; select: (value: string) => void; baseId: string } | null>(null)

function useTabs() {
  const tabs = use(TabsContext)
  if (!tabs) throw new Error('Tabs parts must be inside <Tabs>')
  return tabs
}

const tabId = (baseId: string, value: string) => `${baseId}-tab-${value}`
const panelId = (baseId: string, value: string) => `${baseId}-panel-${value}`

export function Tabs({
  defaultValue,
  onValueChange,
  ...props
}: Omit<ComponentProps<'div'>, 'defaultValue'> & { defaultValue: string; onValueChange?: (value: string) => void }) {
  const [value, setValue] = useState(defaultValue)
  const baseId = useId()
  const select = (next: string) => {
    if (next === value) return
    setValue(next)
    onValueChange?.(next)
  }
  return (
    <TabsContext value={{ value, select, baseId }}>
      <div {...props} />
    </TabsContext>
  )
}

const KEY_STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
}

export function TabsList({ className, ...props }: ComponentProps<'div'>) {
  function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
    const step = KEY_STEPS[event.key]
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')]
    const index = tabs.indexOf(event.target as HTMLButtonElement)
    if (!step || index < 0) return
    event.preventDefault()
    const next = tabs[step(index, tabs.length)]
    next?.focus()
    next?.click()
  }
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={moveFocus}
      className={cn('inline-flex items-center justify-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground', className)}
      {...props}
    />
  )
}

export function TabsTrigger({ value, className, ...props }: ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs()
  const selected = tabs.value === value
  return (
    <button
      type="button"
      role="tab"
      id={tabId(tabs.baseId, value)}
      aria-selected={selected}
      aria-controls={panelId(tabs.baseId, value)}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      onClick={() => tabs.select(value)}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  )
}

export function TabsContent({ value, className, ...props }: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs()
  const selected = tabs.value === value
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.baseId, value)}
      aria-labelledby={tabId(tabs.baseId, value)}
      tabIndex={0}
      hidden={!selected}
      data-state={selected ? 'active' : 'inactive'}
      className={cn('mt-4 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none', className)}
      {...props}
    />
  )
}
