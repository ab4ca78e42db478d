import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import type { Db } from '#server/db/client.ts'
import { runLiveFrames } from '#server/db/schema/index.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { Logger } from '#server/logger.ts'
import { startScreencast, type ScreencastFrame } from '#server/browser/screencast.ts'

/** At most two frames a second reach the pages: enough to follow a run, cheap to send. */
export const LIVE_FRAME_MS = 500
/** How often a watching page says it still watches; the worker stops the screencast when none has for WATCH_MS. */
export const WATCH_RENEW_MS = 10_000
const WATCH_MS = 3 * WATCH_RENEW_MS

/** One picture of the live view as a page receives it; `image` (base64 JPEG) is null while paused. */
export interface LiveFrame {
  seq: number
  image: string | null
  width: number
  height: number
}

/**
 * The worker's side of one cloud run's live view: it follows the page the run is on, and while
 * a page watches (and the view is not paused) publishes what the browser shows.
 */
export interface LiveFeed {
  /** The page the run is on now (a switchTab step moves it). */
  follow(page: Page): void
  /** No frame is taken from now until `resume`: a vault value is about to be typed, or is on the page. */
  pause(): Promise<void>
  resume(): void
  readonly paused: boolean
  /** The run ended: the screencast stops and its frame is removed. */
  close(): Promise<void>
}

/**
 * The live view of cloud runs (docs/decisions/058). Frames travel between processes through the
 * database: the worker running the run keeps the latest one in run_live_frames and announces it
 * on the event bus; the process streaming the run's page to a member reads it there. The worker
 * takes frames only while some page watches (each says so every WATCH_RENEW_MS).
 */
export function createLiveView(deps: { db: Db; events: Pick<EventBus, 'publish' | 'subscribe'>; logger: Logger }) {
  const { db, events, logger } = deps

  async function latest(runId: string): Promise<LiveFrame | null> {
    const [row] = await db.select().from(runLiveFrames).where(eq(runLiveFrames.runId, runId))
    if (!row) return null
    return { seq: row.seq, image: row.image ? row.image.toString('base64') : null, width: row.width, height: row.height }
  }

  /**
   * A page watches a run: `onFrame` gets the frame there is now and every newer one (when frames
   * come faster than they are read, only the newest). Returns the function that stops watching.
   */
  function watch(runId: string, onFrame: (frame: LiveFrame) => void): () => void {
    let sent = -1
    let reading = false
    let again = false
    let stopped = false
    const read = async () => {
      if (reading) {
        again = true
        return
      }
      reading = true
      try {
        do {
          again = false
          const frame = await latest(runId).catch(() => null)
          if (!stopped && frame && frame.seq !== sent) {
            sent = frame.seq
            onFrame(frame)
          }
        } while (again && !stopped)
      } finally {
        reading = false
      }
    }
    const unsubscribe = events.subscribe('liveFrame', (event) => {
      if (event.runId === runId && event.seq !== sent) void read()
    })
    const renew = () => events.publish('liveWatch', { runId })
    const renewing = setInterval(renew, WATCH_RENEW_MS)
    renew()
    void read()
    return () => {
      stopped = true
      clearInterval(renewing)
      unsubscribe()
    }
  }

  function forRun(runId: string): LiveFeed {
    let page: Page | null = null
    let paused = false
    let closed = false
    let watchedUntil = 0
    let stopCast: (() => Promise<void>) | null = null
    // Starting and stopping the screencast, one change at a time.
    let changing = Promise.resolve()
    // Frame writes in order: a pause's empty frame never lands before an older picture.
    let writing = Promise.resolve()
    let seq = 0
    let lastSent = 0
    let pending: ScreencastFrame | null = null
    let trailing: NodeJS.Timeout | undefined

    const write = (frame: ScreencastFrame | null) => {
      seq += 1
      const at = seq
      const values = { seq: at, image: frame?.image ?? null, width: frame?.width ?? 0, height: frame?.height ?? 0, updatedAt: new Date() }
      writing = writing.then(async () => {
        if (closed) return
        try {
          await db
            .insert(runLiveFrames)
            .values({ runId, ...values })
            .onConflictDoUpdate({ target: runLiveFrames.runId, set: values })
          events.publish('liveFrame', { runId, seq: at })
        } catch (error) {
          logger.warn({ err: error, runId }, 'live view: a frame could not be kept')
        }
      })
      return writing
    }

    const sendPending = () => {
      trailing = undefined
      if (!pending || paused || closed) return
      const frame = pending
      pending = null
      lastSent = Date.now()
      void write(frame)
    }

    // Every frame is kept in memory; one every LIVE_FRAME_MS at most goes out, the latest always does.
    const onFrame = (frame: ScreencastFrame) => {
      if (paused || closed) return
      pending = frame
      if (trailing) return
      const wait = lastSent + LIVE_FRAME_MS - Date.now()
      if (wait <= 0) sendPending()
      else trailing = setTimeout(sendPending, wait)
    }

    const stop = async () => {
      const stopping = stopCast
      stopCast = null
      await stopping?.()
    }

    /** Screencasts exactly when someone watches an unpaused page of a running run. */
    const settle = () => {
      changing = changing.then(async () => {
        const wanted = !closed && !paused && page !== null && !page.isClosed() && Date.now() < watchedUntil
        if (!wanted) return stop()
        if (stopCast) return
        try {
          stopCast = await startScreencast(page as Page, onFrame)
          // Paused or closed while it started: it stops at once.
          if (paused || closed) await stop()
        } catch (error) {
          logger.warn({ err: error, runId }, 'live view: the screencast did not start')
        }
      })
      return changing
    }

    const unsubscribe = events.subscribe('liveWatch', (event) => {
      if (event.runId !== runId) return
      watchedUntil = Date.now() + WATCH_MS
      void settle()
    })
    const expiry = setInterval(() => void settle(), WATCH_RENEW_MS)

    return {
      follow(next) {
        if (next === page) return
        changing = changing.then(stop)
        page = next
        void settle()
      },
      async pause() {
        if (paused) return
        paused = true
        pending = null
        clearTimeout(trailing)
        trailing = undefined
        await Promise.all([settle(), write(null)])
      },
      resume() {
        if (!paused) return
        paused = false
        void settle()
      },
      get paused() {
        return paused
      },
      async close() {
        if (closed) return
        closed = true
        clearInterval(expiry)
        clearTimeout(trailing)
        unsubscribe()
        await settle()
        await writing
        await db
          .delete(runLiveFrames)
          .where(eq(runLiveFrames.runId, runId))
          .catch(() => {})
      },
    }
  }

  return { watch, forRun, latest }
}

export type LiveView = ReturnType<typeof createLiveView>
