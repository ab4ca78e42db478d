import { RateLimited, ServiceUnavailable } from '#common/errors.ts'
import { createRecentUse } from './recent-use.ts'

/** How many explorations (page inspections, plans) run at once, and how long and how many wait (docs/decisions/038). */
export interface GateLimits {
  /** Explorations one server process runs at once, beside its cloud runs. */
  capacity: number
  /** The longest one exploration may hold a place: the gate takes the place back then, whatever the exploration still does. */
  maxHoldMs: number
  /**
   * How long a request waits for a place before it is answered 503 with Retry-After. Longer than
   * `maxHoldMs`, so the request first in line always gets a place before it gives up.
   */
  maxWaitMs: number
  /** Requests of one workspace that wait at once; one more is answered 429 at once. */
  maxWaitingPerWorkspace: number
  /** A workspace's recent use of the places halves in this time (what decides whose turn it is). */
  recentUseHalfLifeMs: number
}

/** One request for a place. */
export interface ExplorationRequest {
  workspaceId: string
  /** How many of the workspace's explorations run at once: its plan's cloud concurrency. */
  share: number
  /** The workspace's plan costs nothing: Free workspaces together leave one place to paying ones. */
  free: boolean
  /** The caller's e-mail address is verified: a request of an unverified account goes after those of verified ones. */
  verified: boolean
  /** The exploration's own time limit (at most `maxHoldMs`): the place is taken back then. */
  holdMs: number
}

/**
 * Every exploration counts as at least this much use: opening a page costs the browser about that
 * much, and explorations that end at once still take turns.
 */
const LEAST_USE_MS = 1_000

interface Slot {
  workspaceId: string
  free: boolean
  started: number
  /** When the place is taken back (the exploration's own time limit): what Retry-After is counted from. */
  until: number
}

interface Waiter extends ExplorationRequest {
  admit: (release: () => void) => void
  timer: NodeJS.Timeout
  signal?: AbortSignal
  onAbort: () => void
}

/**
 * The cloud browser's places for explorations in this process, shared fairly between workspaces
 * (docs/decisions/038 and its amendment). A workspace runs at most its share at once (its plan's
 * cloud concurrency, at most the capacity), and Free workspaces together at most all places but
 * one; a request that finds no place waits instead of being refused. When a place frees, it goes
 * to the waiting request of a verified account whose workspace used the places least lately (busy
 * time that halves every few minutes, divided by its share), each workspace's requests in the
 * order they came. A place is taken back when its exploration's time is up, and a request waits
 * longer than that, so the one first in line is always served; others are refused after
 * `maxWaitMs` with the seconds until a place they may take must be free.
 */
export function createExplorationGate(limits: GateLimits, now: () => number = () => Date.now()) {
  if (limits.maxWaitMs <= limits.maxHoldMs) {
    throw new Error(`An exploration may wait ${limits.maxWaitMs} ms but hold a place ${limits.maxHoldMs} ms: the wait must be longer.`)
  }
  /** With one place there is none to keep for paying workspaces. */
  const freeCapacity = Math.max(1, limits.capacity - 1)
  const running = new Set<Slot>()
  /** In the order they came. */
  const waiting: Waiter[] = []
  const recentUse = createRecentUse(limits.recentUseHalfLifeMs, now)

  const runningIn = (workspaceId: string) => [...running].filter((slot) => slot.workspaceId === workspaceId).length
  const runningFree = () => [...running].filter((slot) => slot.free).length
  const waitingIn = (workspaceId: string) => waiting.filter((waiter) => waiter.workspaceId === workspaceId).length

  function mayStart(request: ExplorationRequest): boolean {
    return (
      running.size < limits.capacity && runningIn(request.workspaceId) < request.share && (!request.free || runningFree() < freeCapacity)
    )
  }

  /** The workspace's use lately, its explorations under way included, per place of its share. */
  function load(request: ExplorationRequest): number {
    let used = recentUse.of(request.workspaceId)
    for (const slot of running) if (slot.workspaceId === request.workspaceId) used += Math.max(LEAST_USE_MS, now() - slot.started)
    return used / request.share
  }

  /** Seconds until every place this request waits for must be free (a place at all, its share, the Free places). */
  function secondsUntilPlace(request: ExplorationRequest): number {
    const at = now()
    const firstEnd = (slots: Slot[]) => Math.min(...slots.map((slot) => slot.until))
    const all = [...running]
    const own = all.filter((slot) => slot.workspaceId === request.workspaceId)
    const free = all.filter((slot) => slot.free)
    const ends = [
      all.length >= limits.capacity ? firstEnd(all) : at,
      own.length >= request.share ? firstEnd(own) : at,
      request.free && free.length >= freeCapacity ? firstEnd(free) : at,
    ]
    return Math.max(1, Math.ceil((Math.max(...ends) - at) / 1000))
  }

  function begin(request: ExplorationRequest): () => void {
    const slot: Slot = { workspaceId: request.workspaceId, free: request.free, started: now(), until: now() + request.holdMs }
    running.add(slot)
    let released = false
    const release = () => {
      if (released) return
      released = true
      clearTimeout(lease)
      running.delete(slot)
      recentUse.add(slot.workspaceId, Math.max(LEAST_USE_MS, now() - slot.started))
      recentUse.forgetFaded((workspaceId) => runningIn(workspaceId) > 0 || waitingIn(workspaceId) > 0)
      admitWaiting()
    }
    // The exploration's page is closed at its time limit; whatever it still does no longer holds a place.
    const lease = setTimeout(release, request.holdMs)
    return release
  }

  function remove(waiter: Waiter) {
    const index = waiting.indexOf(waiter)
    if (index >= 0) waiting.splice(index, 1)
    clearTimeout(waiter.timer)
    waiter.signal?.removeEventListener('abort', waiter.onAbort)
  }

  /** Whether `a` goes before `b` (which came first): verified accounts first, then the workspace that used the places least lately. */
  function goesBefore(a: Waiter, b: Waiter): boolean {
    if (a.verified !== b.verified) return a.verified
    // Strictly less: on a tie the one that came first keeps its place.
    return load(a) < load(b)
  }

  /** Gives every free place to the waiting request whose turn it is. */
  function admitWaiting() {
    while (running.size < limits.capacity) {
      let next: Waiter | undefined
      for (const waiter of waiting) {
        if (mayStart(waiter) && (!next || goesBefore(waiter, next))) next = waiter
      }
      if (!next) return
      remove(next)
      next.admit(begin(next))
    }
  }

  return {
    /**
     * Waits for a place for one of the workspace's explorations; resolves to the function that
     * gives the place back (call it once the exploration ended, whatever its outcome).
     */
    enter(request: ExplorationRequest, signal?: AbortSignal): Promise<() => void> {
      if (request.holdMs > limits.maxHoldMs) {
        throw new Error(`An exploration of ${request.holdMs} ms would hold a place longer than ${limits.maxHoldMs} ms.`)
      }
      const own: ExplorationRequest = { ...request, share: Math.max(1, Math.min(request.share, limits.capacity)) }
      // Every place a waiting request may take is already taken: a free one is this request's if its own rules allow.
      if (mayStart(own) && waitingIn(own.workspaceId) === 0) return Promise.resolve(begin(own))
      if (waitingIn(own.workspaceId) >= limits.maxWaitingPerWorkspace) {
        return Promise.reject(
          new RateLimited(
            `This workspace already has ${limits.maxWaitingPerWorkspace} page inspections or plans waiting for the cloud browser: wait for them first.`,
            secondsUntilPlace(own),
          ),
        )
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          ...own,
          admit: resolve,
          signal,
          timer: setTimeout(() => {
            remove(waiter)
            const seconds = secondsUntilPlace(own)
            reject(
              new ServiceUnavailable(
                `The cloud browser is busy with other inspections and plans: this one waited ${Math.round(limits.maxWaitMs / 1000)} s for a place. Try again in about ${seconds} s.`,
                seconds,
              ),
            )
          }, limits.maxWaitMs),
          onAbort: () => {
            remove(waiter)
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
