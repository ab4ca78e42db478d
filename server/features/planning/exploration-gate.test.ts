import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RateLimited, ServiceUnavailable } from '#common/errors.ts'
import { createExplorationGate, type ExplorationRequest, type GateLimits } from './exploration-gate.ts'
import { EXPLORATION_LIMITS, longestHold } from './planning.service.ts'

// The cloud browser's places for inspections and plans (docs/decisions/038 and its amendment): each
// workspace its share, Free workspaces all places but one, the rest waiting their turn by recent
// use, a place taken back at its hold's end, a wait longer than any hold, and a bounded queue.
// The clock is Vitest's: time passes only when a test says so.

const HOLD_MS = 20_000
const LIMITS: GateLimits = {
  capacity: 3,
  maxHoldMs: HOLD_MS,
  maxWaitMs: 25_000,
  maxWaitingPerWorkspace: 3,
  recentUseHalfLifeMs: 5 * 60_000,
}
/** The service's own numbers: a plan holds a place up to 100 s, a request waits up to 110 s. */
const SERVICE_LIMITS: GateLimits = { ...EXPLORATION_LIMITS, maxHoldMs: longestHold(EXPLORATION_LIMITS) }

type Who = Partial<Omit<ExplorationRequest, 'workspaceId'>>

/** Records when each request got its place or was refused; `release` gives a place back. */
function tracker(gate: ReturnType<typeof createExplorationGate>) {
  const admitted: string[] = []
  const refused = new Map<string, unknown>()
  const releases = new Map<string, () => void>()
  const enter = (label: string, workspaceId: string, who: Who = {}, signal?: AbortSignal) => {
    const request = { workspaceId, share: 1, free: false, verified: true, holdMs: HOLD_MS, ...who }
    const entered = gate.enter(request, signal).then((release) => {
      admitted.push(label)
      releases.set(label, release)
    })
    entered.catch((error: unknown) => refused.set(label, error))
    return entered
  }
  const release = (label: string) => releases.get(label)?.()
  return { admitted, refused, enter, release }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the exploration gate', () => {
  it('serves a fourth workspace at the first free place, before the three that hold them all get their second', async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter, release } = tracker(gate)
    for (const hog of ['hog-1', 'hog-2', 'hog-3']) await enter(`${hog} first`, hog)
    // Each hog asks again at once: its share is one, so these wait.
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
    await enter('first', 'free', { free: true })
    void enter('second', 'free', { free: true })
    await enter('other', 'other', { free: true })
    expect(admitted).toEqual(['first', 'other'])
    release('first')
    await settle()
    expect(admitted).toEqual(['first', 'other', 'second'])
  })

  it("lets a workspace run its plan's share at once, never more than the process's places", async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter } = tracker(gate)
    // Pro: two at once.
    await enter('pro 1', 'pro', { share: 2 })
    await enter('pro 2', 'pro', { share: 2 })
    void enter('pro 3', 'pro', { share: 2 })
    // Business (5) is held to the three places.
    const business = tracker(createExplorationGate(LIMITS))
    for (const n of [1, 2, 3, 4]) void business.enter(`business ${n}`, 'business', { share: 5 })
    await settle()
    expect(admitted).toEqual(['pro 1', 'pro 2'])
    expect(business.admitted).toEqual(['business 1', 'business 2', 'business 3'])
  })

  it('refuses a request still waiting after its wait with 503 and the seconds until a place it may take must be free', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, refused, enter, release } = tracker(gate)
    // 'busy' used the place for 10 s; then 'hog' takes it, and 'busy' asks again, before 'fresh'.
    await enter('busy first', 'busy')
    await pass(10_000)
    release('busy first')
    await enter('hog', 'hog')
    void enter('busy again', 'busy')
    await pass(2_000)
    void enter('fresh', 'fresh')
    // The hog's place is taken back at its hold's end (20 s): 'fresh' used nothing, so its turn comes first.
    await pass(18_000)
    expect(admitted).toEqual(['busy first', 'hog', 'fresh'])
    // 'busy' waited 25 s (until 35 s); 'fresh' holds the place until 50 s.
    await pass(5_000)
    const answer = refused.get('busy again')
    expect(answer).toBeInstanceOf(ServiceUnavailable)
    expect(answer).toMatchObject({
      status: 503,
      retryAfterSeconds: 15,
      message: 'The cloud browser is busy with other inspections and plans: this one waited 25 s for a place. Try again in about 15 s.',
    })
    expect(gate.state()).toEqual({ running: 1, waiting: 0 })
  })

  it('answers 429 at once to more waiting requests of one workspace than it may queue', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { enter } = tracker(gate)
    await enter('running', 'busy')
    for (const n of [1, 2, 3]) void enter(`waiting ${n}`, 'busy')
    const refused = await gate
      .enter({ workspaceId: 'busy', share: 1, free: false, verified: true, holdMs: HOLD_MS })
      .catch((error: unknown) => error)
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
    const abandoned = gate.enter({ workspaceId: 'b', share: 1, free: false, verified: true, holdMs: HOLD_MS }, gone.signal)
    void enter('next', 'c')
    gone.abort()
    await expect(abandoned).rejects.toBeInstanceOf(ServiceUnavailable)
    release('running')
    await settle()
    expect(admitted).toEqual(['running', 'next'])
  })
})

describe('three Free accounts holding long plans (the review of issue 27, F4)', () => {
  it("serve another tenant, not 503: a paying one at once, a Free one when a Free place's hold ends", async () => {
    const gate = createExplorationGate(SERVICE_LIMITS)
    const { admitted, refused, enter } = tracker(gate)
    const plan = { free: true, holdMs: SERVICE_LIMITS.maxHoldMs }
    // Each hog starts a plan whose pages never load, and asks again at once; none ever gives its place back.
    for (const hog of ['hog-1', 'hog-2', 'hog-3']) void enter(`${hog} first`, hog, plan)
    for (const hog of ['hog-1', 'hog-2', 'hog-3']) void enter(`${hog} again`, hog, plan)
    await settle()
    // Free workspaces take two of the three places: the third waits.
    expect(admitted).toEqual(['hog-1 first', 'hog-2 first'])

    await enter('paying', 'paying', { share: 2 })
    await pass(1_000)
    void enter('newcomer', 'newcomer', { free: true })
    // The hogs' plans end at their time limit (100 s), before the newcomer stops waiting (110 s).
    await pass(99_000)
    expect(admitted).toEqual(['hog-1 first', 'hog-2 first', 'paying', 'hog-3 first', 'newcomer'])
    expect(refused.has('newcomer')).toBe(false)
  })
})

describe('whose turn it is: use remembered over minutes', () => {
  it('a workspace that just used a place yields to one that has not, though it asked first', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, enter, release } = tracker(gate)
    await enter('recent first', 'recent')
    await pass(15_000)
    // Idle now, but not forgotten.
    release('recent first')
    await enter('blocker', 'blocker')
    void enter('recent again', 'recent')
    await pass(1_000)
    void enter('fresh', 'fresh')
    release('blocker')
    await settle()
    expect(admitted).toEqual(['recent first', 'blocker', 'fresh'])
  })

  it('counts what was used minutes ago for less than what was used just now (it halves every 5 minutes)', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, enter, release } = tracker(gate)
    // 'earlier' used 19 s of a place 20 minutes ago (four half-lives: about 1.2 s now); 'lately' used 5 s just now.
    await enter('earlier', 'earlier')
    await pass(19_000)
    release('earlier')
    await pass(20 * 60_000)
    await enter('lately', 'lately')
    await pass(5_000)
    release('lately')
    await enter('blocker', 'blocker')
    void enter('lately again', 'lately')
    void enter('earlier again', 'earlier')
    release('blocker')
    await settle()
    expect(admitted.at(-1)).toBe('earlier again')
  })

  it("counts a workspace's use per place of its share", async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter, release } = tracker(gate)
    // Business (3 at once) used 15 s, 5 s a place; Free used 8 s.
    await enter('business', 'business', { share: 3 })
    await pass(15_000)
    release('business')
    await enter('free', 'free', { free: true })
    await pass(8_000)
    release('free')
    for (const n of [1, 2, 3]) await enter(`blocker ${n}`, `blocker-${n}`)
    void enter('free again', 'free', { free: true })
    void enter('business again', 'business', { share: 3 })
    release('blocker 1')
    await settle()
    expect(admitted.at(-1)).toBe('business again')
  })

  it('serves the requests of verified accounts before those of unverified ones', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, enter, release } = tracker(gate)
    await enter('blocker', 'blocker')
    void enter('unverified', 'new', { verified: false })
    void enter('verified', 'known')
    release('blocker')
    await settle()
    expect(admitted).toEqual(['blocker', 'verified'])
    release('verified')
    await settle()
    expect(admitted).toEqual(['blocker', 'verified', 'unverified'])
  })
})

describe('the place Free workspaces leave to paying ones', () => {
  it('keeps one place from Free workspaces even when nothing else waits, and gives it to a paying one at once', async () => {
    const gate = createExplorationGate(LIMITS)
    const { admitted, enter, release } = tracker(gate)
    for (const name of ['free-1', 'free-2', 'free-3']) void enter(name, name, { free: true })
    await settle()
    expect(admitted).toEqual(['free-1', 'free-2'])
    expect(gate.state()).toEqual({ running: 2, waiting: 1 })
    await enter('paying', 'paying')
    expect(admitted).toEqual(['free-1', 'free-2', 'paying'])
    // A paying workspace's place that frees does not go to a Free one...
    release('paying')
    await settle()
    expect(gate.state()).toEqual({ running: 2, waiting: 1 })
    // ...a Free one's does.
    release('free-1')
    await settle()
    expect(admitted.at(-1)).toBe('free-3')
  })

  it('lets Free workspaces use the only place when there is one', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, enter } = tracker(gate)
    await enter('free', 'free', { free: true })
    expect(admitted).toEqual(['free'])
  })
})

describe('a hold bounded in time, and a wait longer than any hold', () => {
  it('takes a place back at the end of its hold, even when the exploration does not give it back', async () => {
    const gate = createExplorationGate({ ...LIMITS, capacity: 1 })
    const { admitted, refused, enter, release } = tracker(gate)
    await enter('stuck', 'stuck')
    void enter('next', 'next')
    void enter('third', 'third')
    await pass(HOLD_MS)
    expect(admitted).toEqual(['stuck', 'next'])
    // The stuck exploration's late release does not give away the place 'next' holds now.
    release('stuck')
    await settle()
    expect(admitted).toEqual(['stuck', 'next'])
    expect(refused.size).toBe(0)
  })

  it('refuses limits whose wait is not longer than the longest hold, and an exploration that would hold longer', async () => {
    expect(() => createExplorationGate({ ...LIMITS, maxWaitMs: HOLD_MS })).toThrow(/the wait must be longer/)
    const gate = createExplorationGate(LIMITS)
    expect(() => gate.enter({ workspaceId: 'w', share: 1, free: false, verified: true, holdMs: HOLD_MS + 1 })).toThrow(
      /longer than 20000 ms/,
    )
  })

  it("waits longer than a plan's hold in the service's own limits", () => {
    expect(longestHold(EXPLORATION_LIMITS)).toBe(100_000)
    expect(EXPLORATION_LIMITS.maxWaitMs).toBeGreaterThan(longestHold(EXPLORATION_LIMITS))
  })
})
