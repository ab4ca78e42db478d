import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Logger } from './logger.ts'

/**
 * Gives memory back when the server turns idle (docs/decisions/034-pglite-in-a-worker-thread.md).
 *
 * Under load V8 lets its heap grow well past what is live (new space to 32 MB, old space to about
 * twice the live objects) and, once the load stops, keeps it: nothing in an idle server makes it
 * collect again. So every few seconds this looks at how busy the JavaScript thread was; after a
 * busy stretch, the first quiet interval runs one full collection here (and, through `also`, in
 * the embedded database's thread), which compacts the heap and returns the free pages: about
 * 40 MB on PostgreSQL after `bench:load`, for one pause of 50 to 150 ms while nothing is running.
 */
export function releaseMemoryWhenIdle(options: {
  logger: Pick<Logger, 'info' | 'debug'>
  /** The same in other threads (the PGlite thread). */
  also?: () => Promise<void>
  everyMs?: number
}): { stop(): void } {
  const gc = exposeGc()
  if (!gc) {
    options.logger.info('idle memory release: off (this Node.js does not offer a garbage collection call)')
    return { stop: () => {} }
  }
  const everyMs = options.everyMs ?? IDLE_CHECK_MS
  // Start-up itself is a busy stretch: the first quiet interval after it releases its garbage.
  let busy = true
  let last = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(now, last).utilization
    last = now
    if (utilization >= BUSY_UTILIZATION) busy = true
    if (!busy || utilization > QUIET_UTILIZATION) return
    busy = false
    const before = process.memoryUsage.rss()
    const started = performance.now()
    gc()
    void (options.also?.() ?? Promise.resolve())
      .catch(() => {})
      .then(() =>
        options.logger.debug(
          { rssBefore: before, rssAfter: process.memoryUsage.rss(), pauseMs: Math.round(performance.now() - started) },
          'idle memory release',
        ),
      )
  }, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

/** How often the thread's busyness is looked at. */
const IDLE_CHECK_MS = 5_000
/** An interval this busy (share of the time the event loop ran JavaScript) counts as load. */
const BUSY_UTILIZATION = 0.05
/** An interval this quiet after load counts as idle. */
const QUIET_UTILIZATION = 0.02

/**
 * V8's own collection call: `--expose-gc` puts `gc` on contexts created after it is set, so a
 * fresh context hands it over. Undefined when the flag is not there.
 */
export function exposeGc(): (() => void) | undefined {
  v8.setFlagsFromString('--expose-gc')
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined')
  return typeof gc === 'function' ? (gc as () => void) : undefined
}
