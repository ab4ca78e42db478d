import { RateLimited, ServiceUnavailable } from '#common/errors.ts'

/** How many explorations (page inspections, plans) run at once, and how long and how many wait (docs/decisions/038). */
export interface GateLimits {
  /** Explorations one server process runs at once, beside its cloud runs. */
  capacity: number
  /** How long a request waits for a place before it is answered 503 with Retry-After. */
  maxWaitMs: number
  /** Requests of one workspace that wait at once; one more is answered 429 at once. */
  maxWaitingPerWorkspace: number
}

interface Slot {
  workspaceId: string
  /** When the exploration must have ended (its own time limit): what Retry-After is counted from. */
  until: number
}

interface Waiter {
  workspaceId: string
  share: number
  holdMs: number
  admit: (release: () => void) => void
  timer: NodeJS.Timeout
  signal?: AbortSignal
  onAbort: () => void
}

/**
 * The cloud browser's places for explorations in this process, shared fairly between workspaces
 * (docs/decisions/038). A workspace runs at most its share at once (its plan's cloud concurrency,
 * at most the capacity); a request that finds no place waits instead of being refused. When a
 * place frees, it goes to the waiting workspace that started an exploration least recently (one
 * that had none under way or waiting counts as never), each workspace's requests in the order they
 * came: round robin. A request waits at most `maxWaitMs`, then is refused with the seconds until the
 * first place must be free.
 */
export function createExplorationGate(limits: GateLimits, now: () => number = Date.now) {
  const running = new Set<Slot>()
  /** In the order they came. */
  const waiting: Waiter[] = []
  /** A counter, not a time: which workspace started an exploration least recently. */
  const lastStarted = new Map<string, number>()
  let starts = 0

  const runningIn = (workspaceId: string) => [...running].filter((slot) => slot.workspaceId === workspaceId).length
  const waitingIn = (workspaceId: string) => waiting.filter((waiter) => waiter.workspaceId === workspaceId).length

  /** Seconds until the first of these places must be free (every place, or the workspace's). */
  function secondsUntilFree(workspaceId?: string): number {
    const ends = [...running].filter((slot) => !workspaceId || slot.workspaceId === workspaceId).map((slot) => slot.until)
    if (ends.length === 0) return 1
    return Math.max(1, Math.ceil((Math.min(...ends) - now()) / 1000))
  }

  /** A workspace with nothing under way and nothing waiting is forgotten: it comes back as one never served. */
  function forgetIfIdle(workspaceId: string) {
    if (runningIn(workspaceId) === 0 && waitingIn(workspaceId) === 0) lastStarted.delete(workspaceId)
  }

  function begin(workspaceId: string, holdMs: number): () => void {
    const slot: Slot = { workspaceId, until: now() + holdMs }
    running.add(slot)
    lastStarted.set(workspaceId, ++starts)
    let released = false
    return () => {
      if (released) return
      released = true
      running.delete(slot)
      forgetIfIdle(workspaceId)
      admitWaiting()
    }
  }

  function remove(waiter: Waiter) {
    const index = waiting.indexOf(waiter)
    if (index >= 0) waiting.splice(index, 1)
    clearTimeout(waiter.timer)
    waiter.signal?.removeEventListener('abort', waiter.onAbort)
  }

  /** Gives every free place to a waiting request, round robin between workspaces. */
  function admitWaiting() {
    while (running.size < limits.capacity) {
      let next: Waiter | undefined
      for (const waiter of waiting) {
        if (runningIn(waiter.workspaceId) >= waiter.share) continue
        // Strictly less: on a tie the one that came first keeps its place.
        if (!next || (lastStarted.get(waiter.workspaceId) ?? 0) < (lastStarted.get(next.workspaceId) ?? 0)) next = waiter
      }
      if (!next) return
      remove(next)
      next.admit(begin(next.workspaceId, next.holdMs))
    }
  }

  return {
    /**
     * Waits for a place for one of the workspace's explorations, which may take `holdMs`; resolves
     * to the function that gives the place back (call it once the exploration ended, whatever its
     * outcome). `share`: how many of the workspace's run at once.
     */
    enter(workspaceId: string, share: number, holdMs: number, signal?: AbortSignal): Promise<() => void> {
      const ownShare = Math.max(1, Math.min(share, limits.capacity))
      if (running.size < limits.capacity && runningIn(workspaceId) < ownShare && waitingIn(workspaceId) === 0) {
        return Promise.resolve(begin(workspaceId, holdMs))
      }
      if (waitingIn(workspaceId) >= limits.maxWaitingPerWorkspace) {
        return Promise.reject(
          new RateLimited(
            `This workspace already has ${limits.maxWaitingPerWorkspace} page inspections or plans waiting for the cloud browser: wait for them first.`,
            secondsUntilFree(workspaceId),
          ),
        )
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          workspaceId,
          share: ownShare,
          holdMs,
          admit: resolve,
          signal,
          timer: setTimeout(() => {
            remove(waiter)
            forgetIfIdle(workspaceId)
            const seconds = secondsUntilFree()
            reject(
              new ServiceUnavailable(
                `The cloud browser is busy with other inspections and plans: this one waited ${Math.round(limits.maxWaitMs / 1000)} s for a place. Try again in about ${seconds} s.`,
                seconds,
              ),
            )
          }, limits.maxWaitMs),
          onAbort: () => {
            remove(waiter)
            forgetIfIdle(workspaceId)
            reject(new ServiceUnavailable('The request was cancelled while it waited for the cloud browser.'))
          },
        }
        waiting.push(waiter)
        if (signal?.aborted) waiter.onAbort()
        else signal?.addEventListener('abort', waiter.onAbort, { once: true })
      })
    },

    /** What runs and waits now (for tests and the logs). */
    state: () => ({ running: running.size, waiting: waiting.length }),
  }
}

export type ExplorationGate = ReturnType<typeof createExplorationGate>
