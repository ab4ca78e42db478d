import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { settlePage, SETTLE } from './page-settle.ts'
import { createSharedBrowser } from './shared-browser.ts'
import { createTargetGuard } from './target-guard.ts'

const PAGES: Record<string, string> = {
  '/static': '<!doctype html><title>Static</title><p>Nothing moves here.</p>',
  // A clock that never stops ticking.
  '/ticking': `<!doctype html><title>Ticking</title><p id="clock">0</p>
<script>let n = 0; setInterval(() => { document.getElementById('clock').textContent = String(++n) }, 50)</script>`,
  // Asks the server every 100 ms, forever (its answers draw nothing).
  '/polling': `<!doctype html><title>Polling</title><p>Live</p>
<script>setInterval(() => fetch('/quick'), 100)</script>`,
  // Holds one request open (a long poll), as chat and notification widgets do.
  '/long-poll': `<!doctype html><title>Long poll</title><p>Waiting for news</p><script>fetch('/never')</script>`,
  // A button whose answer comes from the server a while later, then is drawn.
  '/loads-on-click': `<!doctype html><title>Loads</title><p id="state">idle</p><button>Load</button>
<script>document.querySelector('button').onclick = async () => {
  const text = await (await fetch('/slow')).text()
  setTimeout(() => { document.getElementById('state').textContent = text }, 100)
}</script>`,
}

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
let session: BrowserSession

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    if (path === '/never') return // never answered
    if (path === '/quick') return void setTimeout(() => response.end('ok'), 50)
    if (path === '/slow') return void setTimeout(() => response.end('Loaded'), 600)
    const page = PAGES[path]
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'Not found')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
})
afterAll(async () => {
  await session?.close()
  browsers.release()
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Whether the page settled, and how long finding out took. */
async function settleTimed(maxMs: number): Promise<{ settled: boolean; ms: number }> {
  const started = Date.now()
  const settled = await settlePage(session.page, { maxMs })
  return { settled, ms: Date.now() - started }
}

describe('letting a page settle', () => {
  it('returns after about the quiet window on a page that is quiet already', async () => {
    await session.page.goto(`${site}/static`)
    const { settled, ms } = await settleTimed(5_000)
    expect(settled).toBe(true)
    expect(ms).toBeGreaterThanOrEqual(SETTLE.quietMs - 50)
    // Far from the bound: it returned once quiet (the margin is for a busy test machine).
    expect(ms).toBeLessThan(SETTLE.quietMs + 1_500)
  })

  it('waits for what a click asked the server for, and for it to be drawn', async () => {
    await session.page.goto(`${site}/loads-on-click`)
    await session.page.getByRole('button', { name: 'Load' }).click()
    const { settled } = await settleTimed(5_000)
    expect(settled).toBe(true)
    expect(await session.page.locator('#state').textContent()).toBe('Loaded')
  })

  it('is bounded on a page that never stops changing, or asking', async () => {
    for (const path of ['/ticking', '/polling']) {
      await session.page.goto(`${site}${path}`)
      const { settled, ms } = await settleTimed(1_500)
      expect(settled, path).toBe(false)
      expect(ms, path).toBeGreaterThanOrEqual(1_400)
      expect(ms, path).toBeLessThan(2_500)
    }
  })

  it('stops counting a request held open (a long poll) after a while', async () => {
    await session.page.goto(`${site}/long-poll`, { waitUntil: 'domcontentloaded' })
    const { settled, ms } = await settleTimed(6_000)
    expect(settled).toBe(true)
    expect(ms).toBeLessThan(SETTLE.longRequestMs + SETTLE.quietMs + 1_500)
  })
})
