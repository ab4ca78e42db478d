import { setTimeout as sleep } from 'node:timers/promises'
import type { Page, Request } from 'playwright-core'
import { SETTLE_WATCHED_ATTRIBUTES as WATCHED_ATTRIBUTES } from '#common/settle-attributes.ts'

/**
 * Pages drawn by JavaScript are read and acted on only once they have settled (the principles'
 * 'real sites'): quiet for `quietMs` (no request they await under way, no change to their
 * elements), waited for at most `maxMs`.
 */
export const SETTLE = {
  /** How long the page must stay quiet to count as settled: a page already quiet costs about this. */
  quietMs: 350,
  /** The most one settling waits, however busy the page stays. */
  maxMs: 3_000,
  /** A request open this long is a long poll or a stream: it no longer keeps the page unsettled. */
  longRequestMs: 2_500,
} as const

/** Requests an app waits for before drawing: its documents, its data, its code. Not images, fonts, beacons (ping), event streams. */
const AWAITED_TYPES = new Set(['document', 'fetch', 'xhr', 'script'])
const POLL_MS = 50

interface Traffic {
  /** Awaited requests under way, with when each started. */
  open: Map<Request, number>
  /** When an awaited request last started or ended. */
  lastChange: number
}

const watched = new WeakMap<Page, Traffic>()

/**
 * Counts the page's awaited requests from now on (once per page; the page's sessions call it as
 * soon as the page exists, so the first settling knows what loads already).
 */
export function watchRequests(page: Page): Traffic {
  const known = watched.get(page)
  if (known) return known
  const traffic: Traffic = { open: new Map(), lastChange: 0 }
  page.on('request', (request) => {
    if (!AWAITED_TYPES.has(request.resourceType())) return
    traffic.open.set(request, Date.now())
    traffic.lastChange = Date.now()
  })
  const ended = (request: Request) => {
    if (traffic.open.delete(request)) traffic.lastChange = Date.now()
  }
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  watched.set(page, traffic)
  return traffic
}

function networkQuiet(traffic: Traffic, quietMs: number): boolean {
  const now = Date.now()
  if (now - traffic.lastChange < quietMs) return false
  for (const [request, started] of traffic.open) {
    if (now - started < SETTLE.longRequestMs) return false
    // Forgotten once long: a stream that never ends must not grow the map forever.
    if (now - started > 60_000) traffic.open.delete(request)
  }
  return true
}

/** Runs in the page: resolves true once nothing changed for quietMs, false when maxMs passed first. */
function untilDomQuiet({ quietMs, maxMs, attributes }: { quietMs: number; maxMs: number; attributes: string[] }): Promise<boolean> {
  return new Promise((resolve) => {
    const started = performance.now()
    let last = started
    const observer = new MutationObserver(() => {
      last = performance.now()
    })
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributeFilter: attributes })
    const check = () => {
      const now = performance.now()
      const quiet = now - last >= quietMs
      if (quiet || now - started >= maxMs) {
        observer.disconnect()
        resolve(quiet)
        return
      }
      setTimeout(check, Math.max(10, Math.min(last + quietMs, started + maxMs) - now))
    }
    setTimeout(check, quietMs)
  })
}

/** The DOM quiet for quietMs (true), still changing at maxMs (false), or the page changed under the look (null). */
async function domQuiet(page: Page, quietMs: number, maxMs: number): Promise<boolean | null> {
  const args = JSON.stringify({ quietMs, maxMs, attributes: WATCHED_ATTRIBUTES })
  // As snapshot-script.ts: esbuild's keepNames (tsx) wraps functions in `__name(…)`, which the page lacks.
  const script = `(() => { const __name = (fn) => fn; return (${untilDomQuiet.toString()})(${args}) })()`
  const look = page.evaluate<boolean>(script).catch(() => null)
  // A page whose script never yields never answers: the bound holds anyway.
  const bound = sleep(maxMs + 250).then(() => false)
  return Promise.race([look, bound])
}

async function untilNetworkQuiet(traffic: Traffic, quietMs: number, until: number, signal?: AbortSignal): Promise<void> {
  while (!networkQuiet(traffic, quietMs) && Date.now() < until && !signal?.aborted) {
    await sleep(POLL_MS, undefined, { signal }).catch(() => {})
  }
}

/**
 * Waits until the page has settled: no request it awaits under way (a long poll or stream stops
 * counting after a while) and its elements unchanged, both for `quietMs` at once; at most `maxMs`
 * (never a fixed sleep: a quiet page returns after about `quietMs`). True when it settled, false
 * when the bound or the signal came first. Never throws.
 */
export async function settlePage(page: Page, options: { maxMs?: number; quietMs?: number; signal?: AbortSignal } = {}): Promise<boolean> {
  const quietMs = options.quietMs ?? SETTLE.quietMs
  const until = Date.now() + Math.max(0, options.maxMs ?? SETTLE.maxMs)
  const traffic = watchRequests(page)
  for (;;) {
    const left = until - Date.now()
    if (left <= 0 || options.signal?.aborted || page.isClosed()) return false
    let domAt = 0
    const [dom] = await Promise.all([
      domQuiet(page, quietMs, left).then((quiet) => {
        domAt = Date.now()
        return quiet
      }),
      untilNetworkQuiet(traffic, quietMs, until, options.signal),
    ])
    // Both quiet at once: the DOM's quiet window must reach to (nearly) now, when the network is quiet.
    if (dom && networkQuiet(traffic, quietMs) && Date.now() - domAt <= quietMs / 2) return true
    // A navigation replaced the document under the look: wait for the new one's requests to show.
    if (dom === null) await sleep(POLL_MS, undefined, { signal: options.signal }).catch(() => {})
  }
}
