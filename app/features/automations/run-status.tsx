import type { RunStatus, RunTrigger } from '#common/automations.ts'
import { cn } from '#app/lib/cn.ts'
import type { RowStatus } from '#common/workflow-interpreter.ts'

// The constants of common/automations.ts without its zod and cron imports, so the history pages
// stay light; `satisfies` keeps them in step with the originals.
export const RUN_STATUS_OPTIONS = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const satisfies readonly RunStatus[]

export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

export const RUN_TRIGGER_LABELS: Record<RunTrigger, string> = {
  manual: 'Manual',
  schedule: 'Schedule',
  extension: 'Extension',
  desktop: 'Local runner',
  url: 'Trigger URL',
  api: 'API',
}

export const RUNNER_LABELS = { cloud: 'Cloud', client: 'Your device' } as const

/** A status the run can still leave (it may be cancelled, and the page follows it live). */
export const isActive = (status: RunStatus) => status === 'queued' || status === 'running'

// The label is always written out, so colour is never the only cue.
const STYLES: Record<RunStatus, string> = {
  queued: 'border-slate-500/40 bg-slate-500/10 text-slate-700 dark:text-slate-300',
  running: 'border-sky-600/40 bg-sky-500/10 text-sky-800 dark:text-sky-300',
  succeeded: 'border-emerald-600/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  failed: 'border-red-600/40 bg-red-500/10 text-red-700 dark:text-red-300',
  cancelled: 'border-amber-600/40 bg-amber-500/10 text-amber-800 dark:text-amber-300',
}

export function RunStatusBadge({ status, className }: { status: RunStatus; className?: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        STYLES[status],
        className,
      )}
    >
      {status === 'running' ? (
        <span className="size-1.5 animate-pulse rounded-full bg-current motion-reduce:animate-none" aria-hidden="true" />
      ) : null}
      {RUN_STATUS_LABELS[status]}
    </span>
  )
}

const ROW_STATUS_LABELS: Record<RowStatus, string> = { done: 'Done', failed: 'Failed', skipped: 'Skipped', 'not run': 'Not run' }
/** A data row's outcome wears the colour of the run status it is like. */
const ROW_STATUS_LOOKS: Record<RowStatus, RunStatus> = { done: 'succeeded', failed: 'failed', skipped: 'cancelled', 'not run': 'queued' }

/** `step`: a timeline step's outcome, marked data-outcome, so nothing that looks for a run's data-status finds it. */
export function RowStatusBadge({ status, step = false }: { status: RowStatus; step?: boolean }) {
  return (
    <span
      {...(step ? { 'data-outcome': status } : { 'data-status': status })}
      className={cn(
        'inline-flex rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        STYLES[ROW_STATUS_LOOKS[status]],
      )}
    >
      {ROW_STATUS_LABELS[status]}
    </span>
  )
}
