import { Bot, CalendarClock, Check, Circle, Sparkles, X } from 'lucide-react'
import type { ReactNode, RefObject } from 'react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { cn } from '#app/lib/cn.ts'
import { STEPS } from './steps.ts'

export const DEMO_DIALOG_ID = 'demo'

/** Whether this browser opens and closes a dialog from a button's `commandfor` by itself. */
export const browserRunsCommands = () => 'commandForElement' in HTMLButtonElement.prototype

/**
 * 'Watch Demo': a product walkthrough in four scenes, drawn with HTML (no video, no external
 * image). It is a native dialog that the 'Watch Demo' button opens with no script, so it works on
 * a reading page before (and without) React (docs/decisions/037); its scenes are an accordion of
 * which one is open at a time. Escape, a click outside and the close button close it, and focus
 * goes back to the button.
 */
export function DemoDialog({ startHref, dialog }: { startHref: string; dialog: RefObject<HTMLDialogElement | null> }) {
  return (
    <dialog
      ref={dialog}
      id={DEMO_DIALOG_ID}
      closedby="any"
      aria-labelledby="demo-title"
      aria-describedby="demo-description"
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-2xl gap-4 overflow-y-auto rounded-lg border bg-card p-6 text-card-foreground shadow-lg backdrop:bg-black/70 backdrop:backdrop-blur-sm open:grid"
    >
      <div className="flex flex-col gap-1.5 pr-6">
        <h2 id="demo-title" className="text-lg leading-tight font-semibold tracking-tight">
          See Aether in action
        </h2>
        <p id="demo-description" className="text-sm text-muted-foreground">
          Record a task once, let AI improve it, schedule it and watch it run.
        </p>
      </div>
      <button
        type="button"
        commandfor={DEMO_DIALOG_ID}
        command="close"
        onClick={() => {
          if (!browserRunsCommands()) dialog.current?.close()
        }}
        className="absolute top-4 right-4 rounded-sm opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <X className="size-4" aria-hidden="true" />
        <span className="sr-only">Close</span>
      </button>

      <ol className="space-y-2" aria-label="Walkthrough steps">
        {STEPS.map((item, index) => (
          <li key={item.title}>
            <details name="demo-step" open={index === 0} className="group rounded-md border open:border-primary">
              <summary className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                <span className="text-xs text-muted-foreground tabular-nums">{String(index + 1).padStart(2, '0')}</span>
                Step {index + 1}: {item.title}
              </summary>
              <div className="space-y-3 px-3 pb-3">
                <Scene step={index} />
                <p className="text-sm text-muted-foreground">{item.text}</p>
              </div>
            </details>
          </li>
        ))}
      </ol>

      <div className="flex justify-end">
        <Button asChild size="sm">
          <Link to={startHref}>Start Automating Now</Link>
        </Button>
      </div>
    </dialog>
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
