import { describe, expect, it } from 'vitest'
import type { RunStep } from '#common/run-steps.ts'
import { createAetherClient } from '#sdk'
import { createRunReporter } from './run-reporter.ts'

// The local runner's reports of a run's timeline (docs/decisions/057): each step's picture goes up
// once, before the report that names it, and a report sent again still names it.

const RUN = '00000000-0000-4000-8000-000000000001'

const step = (n: number, screenshot: string | null): RunStep => ({
  step: n,
  round: null,
  words: `step ${n}`,
  target: null,
  repaired: null,
  startedAt: '2026-12-03T10:00:00.000Z',
  ms: 10,
  outcome: 'done',
  error: null,
  screenshot,
  extracted: null,
})

/** A client of a site that records what it was sent, and fails the requests it is told to (no answer at all, or an error). */
function fakeApi(fail: (path: string, call: number) => Error | { status: number; code: string; message: string } | null) {
  const uploads: { path: string; type: string | null }[] = []
  const posts: { path: string; body: { steps?: RunStep[] } }[] = []
  let calls = 0
  const fetch = async (request: Request) => {
    const url = new URL(request.url)
    const path = `${url.pathname}${url.search}`
    const failure = fail(path, ++calls)
    if (failure instanceof Error) throw failure
    if (failure) return Response.json(failure, { status: failure.status })
    const type = request.headers.get('content-type')
    if (url.pathname.endsWith('/screenshots')) uploads.push({ path, type })
    else posts.push({ path, body: (await request.json()) as { steps?: RunStep[] } })
    return Response.json({ data: {} }, { status: 201 })
  }
  return { api: createAetherClient({ server: 'http://aether.test', token: 'dev_test', fetch }), uploads, posts }
}

describe('the local runner’s timeline reports', () => {
  it('uploads each picture once, before the report that names it, and names it again when the report is sent again', async () => {
    const { api, uploads, posts } = fakeApi((path, call) =>
      path.endsWith('/progress') && call === 2 ? new TypeError('the network is down') : null,
    )
    const reporter = createRunReporter(api)
    await reporter.saveScreenshot(RUN, 'after-1.jpg', new Uint8Array([0xff, 0xd8, 0xff]))
    const progress = { actionsPerformed: 1, timeline: [step(1, 'after-1.jpg'), step(2, 'after-2.jpg')] }

    // The first report fails after its picture went up (after-2.jpg was never taken): sent again, it names the picture.
    await expect(reporter.progress(RUN, 'runner', progress)).rejects.toThrow('the network is down')
    expect(await reporter.progress(RUN, 'runner', progress)).toBe(true)

    expect(uploads).toEqual([{ path: `/api/runs/${RUN}/screenshots?step=1&shot=1`, type: 'image/jpeg' }])
    expect(posts).toHaveLength(1)
    expect(posts[0]?.body.steps?.map((entry) => entry.screenshot)).toEqual(['after-1.jpg', null])
  })

  it('sends an entry without its picture when the picture could not be uploaded', async () => {
    const { api, posts } = fakeApi((path) =>
      path.includes('/screenshots') ? { status: 400, code: 'VALIDATION', message: 'too much' } : null,
    )
    const reporter = createRunReporter(api)
    await reporter.saveScreenshot(RUN, 'after-1.jpg', new Uint8Array([0xff, 0xd8, 0xff]))
    expect(await reporter.progress(RUN, 'runner', { actionsPerformed: 1, timeline: [step(1, 'after-1.jpg')] })).toBe(true)
    expect(posts[0]?.body.steps?.[0]?.screenshot).toBeNull()
  })
})
