import { Bot, CalendarClock, Check, ChevronLeft, ChevronRight, Circle, Pause, Play, Sparkles } from 'lucide-react'
import { useEffect, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#app/components/ui/dialog.tsx'
import { cn } from '#app/lib/cn.ts'
import { STEPS } from './steps.ts'

const STEP_MS = 4500

/**
 * 'Watch Demo': a product walkthrough in four scenes, drawn with HTML (no video, no external
 * image). It advances on its own unless the visitor prefers reduced motion, and can be paused
 * and stepped through by keyboard.
 */
export default function DemoDialog({
  open,
  onOpenChange,
  startHref,
  returnFocusTo,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  startHref: string
  returnFocusTo: RefObject<HTMLElement | null>
}) {
  const reducedMotion = usePrefersReducedMotion()
  const [step, setStep] = useState(0)
  const [paused, setPaused] = useState(false)
  const playing = open && !paused && !reducedMotion
  const last = STEPS.length - 1

  useEffect(() => {
    if (!playing) return
    const timer = window.setInterval(() => setStep((current) => (current + 1) % STEPS.length), STEP_MS)
    return () => window.clearInterval(timer)
  }, [playing])

  const go = (next: number) => {
    setPaused(true)
    setStep(Math.max(0, Math.min(last, next)))
  }
  const current = STEPS[step] ?? STEPS[0]

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          // The next visit starts from the beginning.
          setStep(0)
          setPaused(false)
        }
        onOpenChange(next)
      }}
    >
      <DialogContent
        className="max-w-2xl"
        onCloseAutoFocus={(event) => {
          // The dialog has no Radix trigger (it loads on demand): give focus back to the button.
          event.preventDefault()
          returnFocusTo.current?.focus()
        }}
      >
        <DialogHeader>
          <DialogTitle>See Aether in action</DialogTitle>
          <DialogDescription>Record a task once, let AI improve it, schedule it and watch it run.</DialogDescription>
        </DialogHeader>

        <ol className="grid grid-cols-4 gap-2" aria-label="Walkthrough steps">
          {STEPS.map((item, index) => (
            <li key={item.title}>
              <button
                type="button"
                onClick={() => go(index)}
                aria-current={index === step ? 'step' : undefined}
                className={cn(
                  'w-full rounded-md border px-2 py-1.5 text-left text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  index === step ? 'border-primary bg-accent text-accent-foreground' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                <span className="block tabular-nums">{String(index + 1).padStart(2, '0')}</span>
                <span className="hidden sm:block">{item.title}</span>
                <span className="sr-only sm:hidden">{item.title}</span>
              </button>
            </li>
          ))}
        </ol>

        <div aria-live={playing ? 'off' : 'polite'} className="space-y-3">
          <div key={step} className="transition-opacity duration-300 starting:opacity-0">
            <Scene step={step} />
          </div>
          <h3 className="font-semibold">
            Step {step + 1}: {current.title}
          </h3>
          <p className="text-sm text-muted-foreground">{current.text}</p>
        </div>

        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex gap-2">
            <Button type="button" variant="outline" size="sm" onClick={() => go(step - 1)} disabled={step === 0}>
              <ChevronLeft aria-hidden="true" /> Previous
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => go(step + 1)} disabled={step === last}>
              Next <ChevronRight aria-hidden="true" />
            </Button>
            {reducedMotion ? null : (
              <Button type="button" variant="ghost" size="sm" onClick={() => setPaused((value) => !value)}>
                {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
                {paused ? 'Play' : 'Pause'}
              </Button>
            )}
          </div>
          <Button asChild size="sm">
            <Link to={startHref} onClick={() => onOpenChange(false)}>
              Start Automating Now
            </Link>
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}

function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia('(prefers-reduced-motion: reduce)')
      query.addEventListener('change', onChange)
      return () => query.removeEventListener('change', onChange)
    },
    () => window.matchMedia('(prefers-reduced-motion: reduce)').matches,
    () => false,
  )
}

/** A small app window that frames each scene. */
function Frame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <figure className="overflow-hidden rounded-lg border bg-background text-sm" aria-label={label}>
      <div className="flex items-center gap-1.5 border-b bg-muted px-3 py-2" aria-hidden="true">
        <span className="size-2.5 rounded-full bg-red-400" />
        <span className="size-2.5 rounded-full bg-amber-400" />
        <span className="size-2.5 rounded-full bg-emerald-400" />
        <span className="ml-3 truncate rounded bg-background px-2 py-0.5 text-xs text-muted-foreground">app.example.com/reports</span>
      </div>
      <div className="min-h-48 space-y-2 p-4">{children}</div>
    </figure>
  )
}

function Row({ children, tone = 'plain' }: { children: ReactNode; tone?: 'plain' | 'ai' | 'done' }) {
  return (
    <div
      className={cn(
        'flex items-center gap-2 rounded-md border px-3 py-2',
        tone === 'ai' && 'border-primary/50 bg-accent text-accent-foreground',
        tone === 'done' && 'text-muted-foreground',
      )}
    >
      {children}
    </div>
  )
}

function Scene({ step }: { step: number }) {
  if (step === 0)
    return (
      <Frame label="Recording a task in the browser">
        <div className="flex items-center gap-2 text-xs font-semibold text-red-600 dark:text-red-400">
          <Circle className="size-3 fill-current motion-safe:animate-pulse" aria-hidden="true" /> Recording
        </div>
        <Row>1. Open “Reports”</Row>
        <Row>2. Set date range to “Last 7 days”</Row>
        <Row>3. Click “Export CSV”</Row>
      </Frame>
    )
  if (step === 1)
    return (
      <Frame label="AI improving the recorded workflow">
        <Row tone="done">1. Open “Reports”</Row>
        <Row tone="ai">
          <Sparkles className="size-4 shrink-0" aria-hidden="true" /> Wait until the table has loaded
        </Row>
        <Row tone="done">2. Set date range to “Last 7 days”</Row>
        <Row tone="ai">
          <Bot className="size-4 shrink-0" aria-hidden="true" /> Find the export button even if the layout changes
        </Row>
        <Row tone="done">3. Click “Export CSV”</Row>
      </Frame>
    )
  if (step === 2)
    return (
      <Frame label="Saving and scheduling the automation">
        <Row>
          <span className="text-muted-foreground">Name</span>
          <span className="ml-auto font-medium">Weekly revenue report</span>
        </Row>
        <Row>
          <CalendarClock className="size-4 shrink-0 text-primary" aria-hidden="true" />
          <span className="text-muted-foreground">Runs</span>
          <span className="ml-auto font-medium">Every Monday at 08:00</span>
        </Row>
        <Row>
          <span className="text-muted-foreground">Runs on</span>
          <span className="ml-auto font-medium">Cloud browser</span>
        </Row>
      </Frame>
    )
  return (
    <Frame label="Monitoring automation runs on the dashboard">
      <Row>
        <span className="size-2 rounded-full bg-primary motion-safe:animate-pulse" aria-hidden="true" />
        Weekly revenue report
        <span className="ml-auto text-xs text-muted-foreground">Running…</span>
      </Row>
      {['Mon 08:00', 'Mon 08:00 (last week)'].map((when) => (
        <Row key={when} tone="done">
          <Check className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          {when}
          <span className="ml-auto text-xs">Succeeded · 38 s</span>
        </Row>
      ))}
    </Frame>
  )
}
