import type { Page } from 'playwright-core'
import type { LiveFrame } from '#common/live-view.ts'
import type { EventBus, LiveFrameEvent } from '#server/features/events/event-bus.ts'
import type { Logger } from '#server/logger.ts'
import type { RunFiles } from './run-files.ts'

/** At most two pictures a second: enough to follow a run, and a bounded cost whatever the page does. */
export const LIVE_FRAME_MS = 500
/** While the page stays the same, one a second: most of a run is waiting on a still page. */
const STILL_FRAME_MS = 1_000
/** How often a watching page says it still watches; the worker stops taking pictures when none has for WATCH_MS. */
export const WATCH_RENEW_MS = 10_000
const WATCH_MS = 3 * WATCH_RENEW_MS

/**
 * The worker's side of one cloud run's live view: it follows the page the run is on, and while
 * a page watches (and the view is not paused) takes its picture a few times a second.
 */
export interface LiveFeed {
  /** The page the run is on now (a switchTab step moves it). */
  follow(page: Page): void
  /** Resolves once no picture is being taken, and none will be until `resume`: a vault value is about to be typed, or is on the page. */
  pause(): Promise<void>
  resume(): void
  readonly paused: boolean
  /** The run ended: no more pictures, and the last one is removed. */
  close(): Promise<void>
}

/**
 * The live view of cloud runs (docs/decisions/058). The worker running a run takes a small
 * picture of its page every LIVE_FRAME_MS while some page watches (each says so every
 * WATCH_RENEW_MS on the event bus), keeps it in the run's folder and announces it on the bus, so
 * the process streaming the run's page to a member, this one or another, reads it there. A
 * picture the same as the last one is not sent again.
 */
export function createLiveView(deps: {
  events: Pick<EventBus, 'publish' | 'subscribe'>
  files: Pick<RunFiles, 'saveLiveFrame' | 'readLiveFrame' | 'removeLiveFrame'>
  logger: Logger
}) {
  const { events, files, logger } = deps

  /**
   * A page watches a run: `onFrame` gets the picture there is now and every newer one (when they
   * come faster than they are read, only the newest). Returns the function that stops watching.
   */
  function watch(runId: string, onFrame: (frame: LiveFrame) => void): () => void {
    let sent = -1
    let newest: LiveFrameEvent | null = null
    let reading = false
    let stopped = false
    const deliver = async () => {
      if (reading) return
      reading = true
      try {
        while (newest && newest.seq !== sent && !stopped) {
          const event = newest
          const image = event.paused ? null : await files.readLiveFrame(runId)
          if (stopped || (!event.paused && !image)) break
          sent = event.seq
          onFrame({ seq: event.seq, image: image ? image.toString('base64') : null, width: event.width, height: event.height })
        }
      } finally {
        reading = false
      }
    }
    const unsubscribe = events.subscribe('liveFrame', (event) => {
      if (event.runId !== runId || event.seq === sent) return
      newest = event
      void deliver()
    })
    // The worker answers a watch with the picture it has (or that it is paused), then sends each new one.
    const renew = () => events.publish('liveWatch', { runId })
    const renewing = setInterval(renew, WATCH_RENEW_MS)
    renew()
    return () => {
      stopped = true
      clearInterval(renewing)
      unsubscribe()
    }
  }

  /** The live view of one run, for the worker running it; `picture` takes a picture of a page (null: none could be taken). */
  function forRun(runId: string, picture: (page: Page) => Promise<Buffer | null>): LiveFeed {
    let page: Page | null = null
    let paused = false
    let closed = false
    let watchedUntil = 0
    let seq = 0
    let last: Buffer | null = null
    let told: LiveFrameEvent | null = null
    let timer: NodeJS.Timeout | undefined
    let taking: Promise<void> | null = null

    const wanted = () => !closed && !paused && page !== null && !page.isClosed() && Date.now() < watchedUntil
    const tell = (event: Omit<LiveFrameEvent, 'runId' | 'seq'>) => {
      told = { runId, seq: ++seq, ...event }
      events.publish('liveFrame', told)
    }

    /** Takes a picture of the page and sends it when it changed; answers whether it did. */
    async function takeOne(target: Page): Promise<boolean> {
      const jpeg = await picture(target).catch(() => null)
      // Paused (or moved to another page) while it was taken: a vault value may be typed any moment now.
      if (!jpeg || !wanted() || target !== page || last?.equals(jpeg)) return false
      last = jpeg
      await files.saveLiveFrame(runId, jpeg)
      if (!wanted()) return false
      const size = target.viewportSize()
      tell({ paused: false, width: size?.width ?? 0, height: size?.height ?? 0 })
      return true
    }

    const schedule = (delay: number) => {
      if (timer || taking || !wanted()) return
      timer = setTimeout(() => {
        timer = undefined
        if (!wanted()) return
        const began = Date.now()
        let changed = true
        taking = takeOne(page as Page)
          .then((sent) => {
            changed = sent
          })
          .catch((error: unknown) => logger.warn({ err: error, runId }, 'live view: a picture could not be kept'))
          .finally(() => {
            taking = null
            schedule(Math.max(0, (changed ? LIVE_FRAME_MS : STILL_FRAME_MS) - (Date.now() - began)))
          })
      }, delay)
    }

    const unsubscribe = events.subscribe('liveWatch', (event) => {
      if (event.runId !== runId || closed) return
      watchedUntil = Date.now() + WATCH_MS
      if (told) events.publish('liveFrame', told)
      schedule(0)
    })

    return {
      follow(next) {
        page = next
        last = null
        schedule(0)
      },
      async pause() {
        if (paused) return
        paused = true
        clearTimeout(timer)
        timer = undefined
        await taking
        last = null
        tell({ paused: true, width: 0, height: 0 })
      },
      resume() {
        if (!paused || closed) return
        paused = false
        schedule(0)
      },
      get paused() {
        return paused
      },
      async close() {
        if (closed) return
        closed = true
        clearTimeout(timer)
        unsubscribe()
        await taking
        await files.removeLiveFrame(runId).catch(() => {})
      },
    }
  }

  return { watch, forRun }
}

export type LiveView = ReturnType<typeof createLiveView>
