import { FINISHED_STATUSES } from '#common/automations.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { Run } from '#server/features/runs/run.service.ts'

/** How often a waiting caller reads the run again, in case its event was missed (events are best effort). */
const READ_EVERY_MS = 2_000

/** Whether a run has gone as far as it goes on its own: it finished, or it waits for a person. */
export const isSettled = (run: Pick<Run, 'status' | 'waiting'>): boolean => FINISHED_STATUSES.includes(run.status) || run.waiting !== null

/**
 * The run once it settles, or as it stands after `ms` (or when `signal` aborts), whichever comes
 * first. It listens for the run's events and reads it again every few seconds.
 */
export async function waitForRun(
  runId: string,
  read: () => Promise<Run>,
  events: Pick<EventBus, 'subscribe'>,
  ms: number,
  signal?: AbortSignal,
): Promise<Run> {
  let wake = () => {}
  const stopFollowing = events.subscribe('run', (event) => {
    if (event.id === runId) wake()
  })
  const deadline = Date.now() + ms
  try {
    for (;;) {
      const run = await read()
      const left = deadline - Date.now()
      if (isSettled(run) || left <= 0 || signal?.aborted) return run
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, READ_EVERY_MS))
        signal?.addEventListener('abort', done, { once: true })
        wake = done
        function done() {
          clearTimeout(timer)
          signal?.removeEventListener('abort', done)
          resolve()
        }
      })
    }
  } finally {
    stopFollowing()
  }
}
