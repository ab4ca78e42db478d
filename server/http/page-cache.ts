import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

export interface PageCacheOptions {
  /** The public content's current version (public_content_version): a kept page is served only while it is unchanged. */
  readVersion: () => Promise<string | null>
  /** The longest a page is kept from the start of its render, whatever the version says (settings are cached per process for 2 s). */
  maxAgeMs?: number
  maxEntries?: number
  maxBodyBytes?: number
}

interface Entry {
  version: string
  storedAt: number
  body: string
  /** The nonce the page was rendered with; each answer gets its own request's nonce instead. */
  nonce: string
  headers: [string, string][]
}

const MAX_KEY_LENGTH = 512
/** Data requests of client navigations, the route manifest, and files (feeds, images, robots.txt) are never pages to keep. */
const NOT_A_PAGE = /\.data$|^\/__manifest|\.[a-z0-9]+$/i

/**
 * Keeps rendered public pages in memory, so a visitor's page does not cost a render each time.
 * It keeps exactly what the pages themselves mark as shareable (`Cache-Control: public`, see
 * app/lib/page-cache.ts: no session, no cookie, no Set-Cookie, no error), answers only requests
 * that could have had that answer (GET, no cookie, no sign-in), and throws a page away when the
 * public content changed (a version the database keeps, on every process) or when it is older
 * than maxAgeMs. The CSP nonce in a kept page is replaced by the current request's.
 */
export function pageCache(options: PageCacheOptions) {
  const maxAgeMs = options.maxAgeMs ?? 5_000
  const maxEntries = options.maxEntries ?? 300
  const maxBodyBytes = options.maxBodyBytes ?? 512 * 1024
  const entries = new Map<string, Entry>()

  return createMiddleware<AppEnv>(async (c, next) => {
    const anonymousGet = c.req.method === 'GET' && !c.get('user') && !c.req.header('cookie') && !c.req.header('authorization')
    const url = new URL(c.req.url)
    // Path and query only: nothing a page shows depends on the Host header.
    const key = `${url.pathname}${url.search}`
    if (!anonymousGet || key.length > MAX_KEY_LENGTH || NOT_A_PAGE.test(url.pathname)) return next()
    const version = await options.readVersion()
    if (version === null) return next()
    const nonce = c.get('cspNonce')
    const kept = entries.get(key)
    if (kept && kept.version === version && Date.now() - kept.storedAt < maxAgeMs) {
      // Most recently used last: the first entry is the one to drop when the cache is full.
      entries.delete(key)
      entries.set(key, kept)
      return new Response(kept.body.replaceAll(kept.nonce, nonce), { status: 200, headers: kept.headers })
    }
    if (kept) entries.delete(key)

    // A page's age counts from before its render: what it read may be that old.
    const renderedAt = Date.now()
    await next()
    const response = c.res
    if (!isShareable(response)) return
    const body = await response.text()
    c.res = new Response(body, { status: response.status, headers: response.headers })
    if (Buffer.byteLength(body) > maxBodyBytes) return
    entries.set(key, { version, storedAt: renderedAt, body, nonce, headers: [...response.headers] })
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
  })
}

function isShareable(response: Response): boolean {
  return (
    response.status === 200 &&
    /^\s*public\b/i.test(response.headers.get('cache-control') ?? '') &&
    !response.headers.has('set-cookie') &&
    (response.headers.get('content-type') ?? '').startsWith('text/html')
  )
}
