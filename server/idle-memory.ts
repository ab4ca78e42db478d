import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Logger } from './logger.ts'

/**
 * Gives memory back when the server turns idle (docs/decisions/034-pglite-in-a-worker-thread.md).
 *
 * Under load V8 lets its heap grow well past what is live (the young generation to 32 MB, the old
 * one to about twice the live objects) and, once the load stops, keeps it: nothing in an idle
 * server makes it collect again. So every few seconds this looks at the JavaScript thread: when
 * it was quiet the whole interval and its heap has grown since the last release, it runs one full
 * collection here (and, through `also`, in the embedded database's thread), which compacts the
 * heap and returns the free pages: on PostgreSQL about 40 MB after `bench:load` and 30 MB after
 * the start, for one pause of 50 to 200 ms while nothing is running.
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
  // The heap's size worth a collection: what was live after the last one, and some growth.
  // Zero at first: start-up itself leaves garbage to release.
  let worthIt = 0
  // V8 returns the freed pages a moment after collecting: the next look comes too early.
  let skipNext = false
  let last = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(now, last).utilization
    last = now
    if (skipNext) {
      skipNext = false
      return
    }
    const heap = v8.getHeapStatistics().total_physical_size
    if (utilization > QUIET_UTILIZATION || heap < worthIt) return
    const started = performance.now()
    gc()
    const pauseMs = Math.round(performance.now() - started)
    worthIt = v8.getHeapStatistics().used_heap_size + GROWTH_BYTES
    skipNext = true
    void (options.also?.() ?? Promise.resolve())
      .catch(() => {})
      .then(() => options.logger.debug({ heapBefore: heap, pauseMs }, 'idle memory release'))
  }, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

/** How often the thread is looked at. */
const IDLE_CHECK_MS = 5_000
/** An interval this quiet (share of the time the event loop ran JavaScript) counts as idle. */
const QUIET_UTILIZATION = 0.02
/**
 * How far the heap (committed) may exceed what was live after the last collection before an
 * idle interval collects again: more than fragmentation leaves (about 10 MB), less than a load's
 * young generation alone (32 MB).
 */
const GROWTH_BYTES = 16 * 1024 * 1024

/**
 * V8's own collection call: `--expose-gc` puts `gc` on contexts created after it is set, so a
 * fresh context hands it over. Undefined when the flag is not there.
 */
export function exposeGc(): (() => void) | undefined {
  v8.setFlagsFromString('--expose-gc')
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined')
  return typeof gc === 'function' ? (gc as () => void) : undefined
}
