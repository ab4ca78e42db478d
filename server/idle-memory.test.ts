import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { exposeGc, releaseMemoryWhenIdle } from './idle-memory.ts'

const logger = { info: () => {}, debug: () => {} }

/** Waits until `condition` holds, checking every 50 ms, for at most `ms`. */
async function until(condition: () => boolean, ms: number) {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await sleep(50)
  return condition()
}

describe('releaseMemoryWhenIdle', () => {
  it('gets V8’s collection call', () => {
    expect(exposeGc()).toBeTypeOf('function')
  })

  it('collects once when quiet after start-up, then only after the heap grew again', async () => {
    let releases = 0
    const release = releaseMemoryWhenIdle({ logger, everyMs: 200, also: async () => void releases++ })
    try {
      expect(await until(() => releases === 1, 5_000)).toBe(true)
      // Quiet, nothing grew: no second collection.
      await sleep(1_500)
      expect(releases).toBe(1)
      // 40 MB that stay reachable (arrays of doubles, in V8's heap): the heap grew, so the next
      // quiet interval collects.
      const kept = Array.from({ length: 5 }, (_, i) => new Array<number>(1024 * 1024).fill(i + 0.5))
      expect(await until(() => releases === 2, 5_000)).toBe(true)
      expect(kept.length).toBe(5)
    } finally {
      release.stop()
    }
  })
})
