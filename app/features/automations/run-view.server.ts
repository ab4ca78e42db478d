import { format } from 'date-fns'
import { inputNamesOf } from '#common/run-inputs.ts'
import { columnsOf } from '#common/data-rows.ts'
import type { RunStatus, RunTrigger } from '#common/automations.ts'
import { describeSchedule } from '#common/schedule-words.ts'
import { nextRuns } from '#common/schedules.ts'
import { describeAlternative } from '#common/targets.ts'
import { durationInWords } from '#common/run-steps.ts'
import { traceViewerUrl } from '#common/run-trace.ts'
import type { Automation } from '#server/features/automations/automation.service.ts'
import type { QueueStanding } from '#server/features/runs/cloud-queue.ts'
import type { Run } from '#server/features/runs/run.service.ts'
import { resumeOf } from '#server/features/runs/run-resume.ts'

// Shaped and formatted on the server, so the HTML and the browser's render agree.

const UTC = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})
const UTC_SHORT = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const UTC_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

/** 'Nov 23, 2026, 14:05:09 UTC' */
export const dateTimeLabel = (date: Date) => `${UTC.format(date)} UTC`
/** 'Nov 23, 2026, 14:05 UTC' (lists) */
const shortDateTimeLabel = (date: Date) => `${UTC_SHORT.format(date)} UTC`
const dateLabel = (date: Date) => format(date, 'MMM d, yyyy')

/** A stamp for a <time> element: the ISO value and what the reader sees. */
export const stamp = (date: Date, label = dateTimeLabel(date)) => ({ iso: date.toISOString(), label })
type Stamp = ReturnType<typeof stamp>

function durationLabel(from: Date | null, to: Date | null): string | null {
  if (!from || !to) return null
  const seconds = Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** A line of a history list. */
export interface RunRow {
  id: string
  automationId: string | null
  automationName: string
  userId: string | null
  status: RunStatus
  trigger: RunTrigger
  runner: 'cloud' | 'client'
  created: Stamp
  actionsPerformed: number
  stepCount: number
  creditsCharged: number
  refunded: boolean
}

export function runRow(run: Run): RunRow {
  return {
    id: run.id,
    automationId: run.automationId,
    automationName: run.automationName,
    userId: run.userId,
    status: run.status,
    trigger: run.trigger,
    runner: run.runner,
    created: stamp(run.createdAt, shortDateTimeLabel(run.createdAt)),
    actionsPerformed: run.actionsPerformed,
    stepCount: run.steps.length,
    creditsCharged: run.creditsCharged,
    refunded: run.refundedAt !== null,
  }
}

const ORDINAL_SUFFIXES: Record<Intl.LDMLPluralRule, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th', zero: 'th', many: 'th' }
const ordinalRules = new Intl.PluralRules('en-US', { type: 'ordinal' })
/** 1st, 2nd, 3rd, 4th, 11th, 21st … */
const ordinal = (n: number) => `${n}${ORDINAL_SUFFIXES[ordinalRules.select(n)]}`
const runs = (n: number) => `${n} cloud run${n === 1 ? '' : 's'}`

/** The place in line is an estimate (docs/decisions/038): it is said once, under it. */
const TAKING_TURNS = 'Workspaces take turns in the cloud queue, so the place can change when other workspaces queue runs.'

/**
 * What the page says about a queued cloud run's wait (docs/decisions/029, 038): its place in line
 * (as the queue stands now), and, when its workspace already runs as many cloud runs as the plan
 * allows, that it waits for one of them. `yours`: the reader works in the run's workspace (an
 * admin may look at anyone's).
 */
export function queueNotice(standing: QueueStanding, yours: boolean) {
  const ahead = standing.position - 1
  const place =
    ahead === 0
      ? 'Queued — next in line for a cloud browser.'
      : `Queued — about ${ordinal(standing.position)} in line: ${ahead} run${ahead === 1 ? '' : 's'} ahead of this one now.`
  // More than the limit can run after an admin lowered it: that many more must finish first.
  const mustFinish = standing.running - standing.cloudConcurrency + 1
  const running = standing.running === 1 ? 'one is running' : `${standing.running} are running`
  const when = standing.running === 1 ? 'it finishes' : mustFinish === 1 ? 'one of them finishes' : `${mustFinish} of them have finished`
  const limit =
    mustFinish > 0
      ? `${yours ? 'Your' : "This workspace's"} plan runs ${runs(standing.cloudConcurrency)} at a time and ${running}: this one starts when ${when}.`
      : null
  return { position: standing.position, place, limit, turns: TAKING_TURNS }
}

/** Everything the run page shows; `queue` while it waits in the cloud queue. */
export function runDetail(run: Run, queue: ReturnType<typeof queueNotice> | null) {
  const columns = [...new Set(run.extracted.flatMap((row) => Object.keys(row)))]
  return {
    ...runRow(run),
    queue,
    started: run.startedAt ? stamp(run.startedAt) : null,
    finished: run.finishedAt ? stamp(run.finishedAt) : null,
    duration: durationLabel(run.startedAt, run.finishedAt),
    error: run.error,
    inputs: Object.entries(run.inputs).map(([name, value]) => ({ name, value })),
    log: run.log.map((line, index) => {
      const at = new Date(line.at)
      return { key: index, level: line.level, message: line.message, at: stamp(at, UTC_TIME.format(at)) }
    }),
    extracted: { columns, rows: run.extracted.slice(0, MAX_SHOWN_ROWS), total: run.extracted.length },
    dataRows: dataRowsOf(run),
    files: run.files.map((file) => ({
      name: file.name,
      size: file.size,
      step: file.step,
      url: `/api/runs/${run.id}/files/${encodeURIComponent(file.file)}`,
    })),
    /** The step "Resume" starts at, or null when the run cannot be resumed (docs/decisions/046). */
    resumeAt: resumeAt(run),
    resumedFrom: run.resumedFrom,
    timeline: {
      steps: run.timeline.slice(0, MAX_SHOWN_STEPS).map((step, index) => {
        const at = new Date(step.startedAt)
        return {
          key: index,
          step: step.step,
          type: run.steps[step.step - 1]?.type ?? null,
          round: step.round,
          words: step.words,
          target: step.target,
          repaired: step.repaired,
          outcome: step.outcome,
          error: step.error,
          at: stamp(at, UTC_TIME.format(at)),
          duration: durationInWords(step.ms),
          screenshotUrl: step.screenshot ? `/api/runs/${run.id}/screenshots/${encodeURIComponent(step.screenshot)}` : null,
          extracted: step.extracted,
        }
      }),
      total: run.timeline.length,
    },
    filesRemoved: run.filesRemovedAt ? stamp(run.filesRemovedAt) : null,
    /** The run's Playwright trace (docs/decisions/060): where to get and open it, or why it was not kept. */
    trace: !run.trace
      ? null
      : 'missing' in run.trace
        ? { missing: run.trace.missing }
        : { size: run.trace.bytes, url: `/api/runs/${run.id}/trace`, viewerUrl: traceViewerUrl(run.id) },
    waiting:
      run.waiting && run.status === 'running'
        ? { message: run.waiting.message, step: run.waiting.step, until: stamp(new Date(run.waiting.until)) }
        : null,
    screenshots: run.screenshots.map((shot) => ({
      name: shot.name,
      step: shot.step,
      url: `/api/runs/${run.id}/screenshots/${encodeURIComponent(shot.file)}`,
    })),
    repairs: run.repairs.map((repair) => ({
      step: repair.step,
      stepType: run.steps[repair.step - 1]?.type ?? null,
      failed: describeAlternative(repair.failed),
      used: describeAlternative(repair.used),
      how: repair.how,
      screenshotUrl: repair.file ? `/api/runs/${run.id}/screenshots/${encodeURIComponent(repair.file)}` : null,
      appliedInVersion: repair.appliedInVersion ?? null,
    })),
  }
}
export type RunDetail = ReturnType<typeof runDetail>

function resumeAt(run: Run): number | null {
  if (!run.automationId || (run.status !== 'failed' && run.status !== 'cancelled') || run.startedAt === null) return null
  try {
    return resumeOf(run).startStep
  } catch {
    return null
  }
}

/** A run's data rows with their outcomes (docs/decisions/046): counts by outcome and the first rows. */
function dataRowsOf(run: Run) {
  const columns = columnsOf(run.dataRows).slice(0, MAX_SHOWN_COLUMNS)
  const outcomeOf = (index: number) => run.rowOutcomes[index] ?? { row: index + 1, status: 'not run' as const }
  const counts = { done: 0, failed: 0, skipped: 0, 'not run': 0 }
  run.dataRows.forEach((_, index) => (counts[outcomeOf(index).status] += 1))
  return {
    total: run.dataRows.length,
    columns,
    counts,
    rows: run.dataRows.slice(0, MAX_SHOWN_ROWS).map((values, index) => ({ ...outcomeOf(index), values })),
  }
}

/** The page shows this many columns of the data rows; the download has all of them. */
const MAX_SHOWN_COLUMNS = 4

/** The page shows this many steps of a run's timeline; the API has all of them. */
const MAX_SHOWN_STEPS = 300

/** The page shows this many extracted rows; the downloads carry all of them. */
const MAX_SHOWN_ROWS = 100

/** A line of 'My Automations'. */
export interface AutomationRow {
  id: string
  name: string
  description: string
  stepCount: number
  /** The `{{input.name}}` values a run asks for (docs/decisions/027): "Run in cloud" asks for them first. */
  inputNames: string[]
  /** Its steps go through rows of data ("for each row", docs/decisions/046): "Run in cloud" asks for them. */
  takesRows: boolean
  /** Its schedule in words, whether it is paused, and its next runs (instants; the page shows them in the member's zone). */
  schedule: { words: string; paused: boolean; nextRuns: string[] } | null
  lastRun: { id: string; status: RunStatus; created: Stamp } | null
  /** The name of the local runner its schedule was set to run on, now disconnected: the member chooses again. */
  disconnectedRunner: string | null
}

/** How many next runs a line of 'My Automations' shows. */
const LISTED_RUNS = 3

export function automationRow(
  automation: Automation,
  lastRun: Pick<Run, 'id' | 'status' | 'createdAt'> | undefined,
  disconnectedRunner: string | null = null,
  now = new Date(),
): AutomationRow {
  return {
    id: automation.id,
    name: automation.name,
    description: automation.description,
    stepCount: automation.steps.length,
    inputNames: inputNamesOf(automation.steps),
    takesRows: automation.steps.some((step) => step.type === 'forEachRow'),
    schedule: automation.schedule
      ? {
          words: describeSchedule(automation.schedule),
          paused: !automation.enabled,
          nextRuns: automation.enabled ? nextRuns(automation.schedule, now, LISTED_RUNS).map((run) => run.toISOString()) : [],
        }
      : null,
    lastRun: lastRun ? { id: lastRun.id, status: lastRun.status, created: stamp(lastRun.createdAt, dateLabel(lastRun.createdAt)) } : null,
    disconnectedRunner: automation.schedule ? disconnectedRunner : null,
  }
}
