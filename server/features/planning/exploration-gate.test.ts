import { describe, expect, it } from 'vitest'
import { RateLimited, ServiceUnavailable } from '#common/errors.ts'
import { createExplorationGate } from './exploration-gate.ts'

// The cloud browser's places for inspections and plans (docs/decisions/038): each workspace its
// share, the rest waiting round robin between workspaces, a bounded wait, and a bounded queue.

const LIMITS = { capacity: 3, maxWaitMs: 5_000, maxWaitingPerWorkspace: 3 }
const HOLD_MS = 20_000

/** Records when each request got its place; `release` gives it back. */
function tracker(gate: ReturnType<typeof createExplorationGate>) {
  const admitted: string[] = []
  const releases = new Map<string, () => void>()
  const enter = (label: string, workspaceId: string, share = 1, signal?: AbortSignal) => {
    const entered = gate.enter(workspaceId, share, HOLD_MS, signal).then((release) => {
      admitted.push(label)
      releases.set(label, release)
    })
    entered.catch(() => {})
    return entered
  }
  const release = (label: string) => releases.get(label)?.()
  return { admitted, enter, release }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the exploration gate', () => {
  it('serves a fourth workspace at the first free place, before the three that hold them all get their second', async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter, release } = tracker(gate)
    for (const hog of ['hog-1', 'hog-2', 'hog-3']) await enter(`${hog} first`, hog)
    // Each hog asks again at once: the Free share is one, so these wait.
    for (const hog of ['hog-1', 'hog-2', 'hog-3']) void enter(`${hog} second`, hog)
    void enter('fourth', 'fourth')
    await settle()
    expect(admitted).toEqual(['hog-1 first', 'hog-2 first', 'hog-3 first'])
    expect(gate.state()).toEqual({ running: 3, waiting: 4 })

    release('hog-1 first')
    await settle()
    expect(admitted.at(-1)).toBe('fourth')
    // Then the hogs, in the order they came.
    release('hog-2 first')
    release('hog-3 first')
    release('fourth')
    await settle()
    expect(admitted.slice(4)).toEqual(['hog-1 second', 'hog-2 second', 'hog-3 second'])
  })

  it("makes a Free workspace's second request wait for its first, while another workspace's starts", async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter, release } = tracker(gate)
    await enter('first', 'free')
    void enter('second', 'free')
    await enter('other', 'other')
    expect(admitted).toEqual(['first', 'other'])
    release('first')
    await settle()
    expect(admitted).toEqual(['first', 'other', 'second'])
  })

  it("lets a workspace run its plan's share at once, never more than the process's places", async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter } = tracker(gate)
    // Pro: two at once.
    await enter('pro 1', 'pro', 2)
    await enter('pro 2', 'pro', 2)
    void enter('pro 3', 'pro', 2)
    // Business (5) is held to the three places.
    const business = tracker(createExplorationGate(LIMITS))
    for (const n of [1, 2, 3, 4]) void business.enter(`business ${n}`, 'business', 5)
    await settle()
    expect(admitted).toEqual(['pro 1', 'pro 2'])
    expect(business.admitted).toEqual(['business 1', 'business 2', 'business 3'])
  })

  it('refuses a request that waited too long with 503 and the seconds until the first place must be free', async () => {
    let now = 1_000_000
    const gate = createExplorationGate({ ...LIMITS, capacity: 1, maxWaitMs: 1_000 }, () => now)
    await gate.enter('hog', 1, HOLD_MS)
    now += 5_500
    const refused = await gate.enter('late', 1, HOLD_MS).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ServiceUnavailable)
    expect(refused).toMatchObject({
      status: 503,
      retryAfterSeconds: 15,
      message: 'The cloud browser is busy with other inspections and plans: this one waited 1 s for a place. Try again in about 15 s.',
    })
    expect(gate.state()).toEqual({ running: 1, waiting: 0 })
  })

  it('answers 429 at once to more waiting requests of one workspace than it may queue', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { enter } = tracker(gate)
    await enter('running', 'busy')
    for (const n of [1, 2, 3]) void enter(`waiting ${n}`, 'busy')
    const refused = await gate.enter('busy', 1, HOLD_MS).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RateLimited)
    expect(refused).toMatchObject({
      status: 429,
      message: 'This workspace already has 3 page inspections or plans waiting for the cloud browser: wait for them first.',
    })
    expect((refused as RateLimited).retryAfterSeconds).toBeGreaterThanOrEqual(19)
  })

  it('lets a request that went away stop waiting, without taking a place', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, enter, release } = tracker(gate)
    await enter('running', 'a')
    const gone = new AbortController()
    const abandoned = gate.enter('b', 1, HOLD_MS, gone.signal)
    void enter('next', 'c')
    gone.abort()
    await expect(abandoned).rejects.toBeInstanceOf(ServiceUnavailable)
    release('running')
    await settle()
    expect(admitted).toEqual(['running', 'next'])
  })
})
