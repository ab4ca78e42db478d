import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExplorationStopped, withGuardedPage } from './guarded-page.ts'
import { snapshotPage } from './page-snapshot.ts'
import { createSharedBrowser } from './shared-browser.ts'

// A page explored outside a run (inspection, planning) is closed when its time is up, whatever
// it is doing: a script that never yields, a load that never ends.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/spin') {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Spin</title><script>setTimeout(() => { for (;;) {} }, 50)</script><p>Busy</p>')
    } else if (request.url === '/never') {
      response.writeHead(200, { 'content-type': 'text/html' }).write('<!doctype html><title>Never</title><p>Loading')
    } else response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Fine</title><p>Fine</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const options = { browsers, privateTargets: 'loopback' as const, stepTimeoutMs: 20_000 }

describe('a guarded page explored outside a run', () => {
  it('is closed when its time is up, even under a script that never yields', async () => {
    const started = Date.now()
    const spinning = withGuardedPage(
      options,
      async ({ session, perform }) => {
        await perform({ type: 'navigate', url: `${site}/spin` }, 1)
        await new Promise((resolve) => setTimeout(resolve, 200))
        return snapshotPage(session.page)
      },
      { timeLimitMs: 2_000 },
    )
    await expect(spinning).rejects.toBeInstanceOf(ExplorationStopped)
    expect(Date.now() - started).toBeLessThan(8_000)
  })

  it('gives each step no more than the time left, and stops when the caller goes away', async () => {
    const started = Date.now()
    await expect(
      withGuardedPage(options, ({ perform }) => perform({ type: 'navigate', url: `${site}/never` }, 1), { timeLimitMs: 1_500 }),
    ).rejects.toBeInstanceOf(ExplorationStopped)
    expect(Date.now() - started).toBeLessThan(8_000)

    const caller = new AbortController()
    setTimeout(() => caller.abort(), 300)
    await expect(
      withGuardedPage(options, ({ perform }) => perform({ type: 'navigate', url: `${site}/never` }, 1), {
        timeLimitMs: 30_000,
        signal: caller.signal,
      }),
    ).rejects.toBeInstanceOf(ExplorationStopped)
  })

  it('answers as usual within its time', async () => {
    const title = await withGuardedPage(
      options,
      async ({ session, perform }) => {
        await perform({ type: 'navigate', url: `${site}/fine` }, 1)
        return session.page.title()
      },
      { timeLimitMs: 10_000 },
    )
    expect(title).toBe('Fine')
  })
})
