import type { RateLimitResult, RateLimitRule } from './rate-limit.service.ts'

/** The most counters kept at once; past it the oldest window goes first. */
const MAX_WINDOWS = 50_000

interface Window {
  count: number
  startedAt: number
  windowMs: number
}

/**
 * Fixed-window counters in this process's memory, with the same answers as the shared table's
 * (rate-limit.service.ts): for a database that only this process uses (PGlite), where a write per
 * request is the embedded engine's largest cost.
 */
export function localWindows(now: () => number = Date.now) {
  // A Map keeps insertion order, and a key is inserted again whenever its window starts anew:
  // the first entries are the oldest windows.
  const windows = new Map<string, Window>()

  return {
    hit(key: string, rule: RateLimitRule): RateLimitResult {
      const at = now()
      const windowMs = Math.floor(rule.windowSeconds) * 1000
      let window = windows.get(key)
      if (!window || at - window.startedAt >= windowMs) {
        windows.delete(key)
        if (windows.size >= MAX_WINDOWS) sweep(at)
        if (windows.size >= MAX_WINDOWS) windows.delete(windows.keys().next().value as string)
        window = { count: 0, startedAt: at, windowMs }
        windows.set(key, window)
      }
      window.count++
      return {
        count: window.count,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - window.count),
        resetSeconds: Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000)),
      }
    },

    /** Forgets the windows that have ended. */
    sweep: () => sweep(now()),

    get size() {
      return windows.size
    },
  }

  function sweep(at: number) {
    for (const [key, window] of windows) if (at - window.startedAt >= window.windowMs) windows.delete(key)
  }
}
