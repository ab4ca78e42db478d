import type { RunLogLine } from '#server/db/schema/index.ts'

/** The line the cloud worker logs when a step starts (step-executor.ts): 'Step 3 (click): …'. */
const STEP_START = /^Step (\d+) \([A-Za-z]+\): /

/**
 * How long each step of a cloud run took: from the line logged when it started to the line of the
 * next step or the final 'Finished: …'. A retried run logs its attempts one after the other; each
 * 'Running in the cloud' line starts afresh.
 */
export function stepDurations(log: readonly RunLogLine[]): Map<number, number> {
  const durations = new Map<number, number>()
  let open: { step: number; at: number } | null = null
  for (const line of log) {
    const at = Date.parse(line.at)
    const start = line.level === 'info' ? STEP_START.exec(line.message) : null
    const finished = line.level === 'info' && line.message.startsWith('Finished:')
    if (!start && !finished) {
      if (line.message.startsWith('Running in the cloud')) open = null
      continue
    }
    const next = start ? Number(start[1]) : null
    if (open && Number.isFinite(at) && at >= open.at && (next === null || next === open.step + 1)) {
      durations.set(open.step, at - open.at)
    }
    open = next !== null && Number.isFinite(at) ? { step: next, at } : null
  }
  return durations
}
