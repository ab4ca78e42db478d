import { randomUUID } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { TRACE_NOT_WRITTEN, TRACE_TOO_LARGE, type RunTrace } from '#common/run-trace.ts'
import type { Logger } from '#server/logger.ts'
import { maskTrace } from './trace-masking.ts'

/** How long Playwright may take to write a trace before the run goes on without it. */
const WRITE_MS = 15_000

/**
 * A cloud run's Playwright trace (docs/decisions/060), recorded from its browser context's start:
 * DOM snapshots before and after every action, the network, and the screencast when `pictures`
 * (never for a run that may type a vault value: a picture cannot be masked). Each step of the run
 * is a group named in the member's words. `finish` writes it, masks it and keeps it, or drops it.
 */
export function startTraceRecorder(deps: { context: BrowserContext; pictures: boolean; logger: Logger; runId: string }) {
  const { tracing } = deps.context
  const file = path.join(tmpdir(), `aether-trace-${randomUUID()}.zip`)
  const started = tracing.start({ snapshots: true, screenshots: deps.pictures }).then(
    () => true,
    (error: unknown) => {
      deps.logger.warn({ err: error, runId: deps.runId }, 'cloud run: the trace did not start')
      return false
    },
  )
  let grouped = false
  let written: Promise<boolean> | null = null

  /** Stops recording; `keep` writes what was recorded to the file. Once: later calls answer the first. */
  function stop(keep: boolean): Promise<boolean> {
    written ??= started.then(async (ok) => {
      if (!ok) return false
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the trace took over ${WRITE_MS} ms to write`)), WRITE_MS)
      })
      try {
        await Promise.race([keep ? tracing.stop({ path: file }) : tracing.stop(), late])
        return keep
      } catch (error) {
        deps.logger.warn({ err: error, runId: deps.runId }, 'cloud run: the trace could not be written')
        return false
      } finally {
        clearTimeout(timer)
      }
    })
    return written
  }

  return {
    /** The actions from here on are the step's (its words, as the log has them). */
    async step(words: string): Promise<void> {
      if (!(await started) || written) return
      if (grouped) await tracing.groupEnd().catch(() => {})
      grouped = await tracing.group(words).then(
        () => true,
        () => false,
      )
    },
    async stepEnd(): Promise<void> {
      if (!grouped || written) return
      grouped = false
      await tracing.groupEnd().catch(() => {})
    },
    /** Writes the trace now, before the browser context closes under it (a run out of time). */
    save: () => stop(true),
    /**
     * The trace's fate: dropped when not `wanted` (null), else masked with the run's vault values
     * (value -> placeholder) and kept when `room` lets it count toward the run's files.
     */
    async finish(options: {
      wanted: boolean
      hidden: ReadonlyMap<string, string>
      room: (bytes: number) => boolean
      save: (bytes: Uint8Array) => Promise<void>
    }): Promise<RunTrace | null> {
      const ok = await stop(options.wanted)
      try {
        if (!options.wanted) return null
        if (!ok) return { missing: TRACE_NOT_WRITTEN }
        const masked = await maskTrace(await readFile(file), options.hidden)
        if (!options.room(masked.byteLength)) return { missing: TRACE_TOO_LARGE }
        await options.save(masked)
        return { bytes: masked.byteLength }
      } catch (error) {
        deps.logger.warn({ err: error, runId: deps.runId }, 'cloud run: the trace could not be kept')
        return { missing: TRACE_NOT_WRITTEN }
      } finally {
        await rm(file, { force: true })
      }
    },
  }
}

export type TraceRecorder = ReturnType<typeof startTraceRecorder>
