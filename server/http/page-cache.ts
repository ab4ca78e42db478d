import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import { isApiPath } from './request-guard.ts'
import { withScriptHashes } from './kept-page-scripts.ts'
import { matchesEtag, preferredEncoding, varyWithAcceptEncoding, type Encoding } from './page-encodings.ts'
import { readAfterArrival } from './read-after-arrival.ts'
import { REQUEST_ID_HEADER } from './request-logger.ts'

export interface PageCacheOptions {
  /** The public content's current version (public_content_version): a kept page is served only while it is unchanged. */
  readVersion: () => Promise<string | null>
  /**
   * The version as this process knows it without a query, from the changes the database announced
   * (public-content.service.ts); null when it could have missed one: then it is read.
   */
  heardVersion?: () => string | null
  /** The security headers of a kept page, its inline scripts allowed by these sources (security-headers.ts). */
  securityHeaders: (scriptSources: readonly string[]) => [string, string][]
  /** Whether pages answer 503 for maintenance now (System Settings): then nothing kept is served. */
  maintenance?: () => Promise<boolean>
  /** The same, when it is known without waiting (settings cached in this process); null when it is not. */
  maintenanceNow?: () => boolean | null
  /** The longest a page is kept from the start of its render, whatever the version says (settings are cached per process for 2 s). */
  maxAgeMs?: number
  maxEntries?: number
  maxBodyBytes?: number
}

/** What the serving middleware hands to the keeping one when it has no page for a request. */
export interface PageCacheMiss {
  key: string
  version: string
  renderedAt: number
}

/** A kept page's answer to one request. */
export interface KeptAnswer {
  status: 200 | 304
  headers: Record<string, string>
  body: Uint8Array<ArrayBuffer> | null
}

/** What `answerNow` needs of a request: its method, its path and query as the request line has them, its headers. */
export interface KeptPageRequest {
  method: string
  path: string
  header: (name: string) => string | undefined
}

/** One encoding of a kept page: its bytes and every header of the answer, made once. */
interface Variant {
  body: Uint8Array<ArrayBuffer>
  etag: string
  headers: Record<string, string>
}

interface Entry {
  version: string
  storedAt: number
  identity: Variant
  gzip: Variant
  /** Made on the page's first hit (until then gzip answers): a page asked for once costs no brotli. */
  br: Variant | null
  brPending: boolean
  /** The headers every variant shares (no encoding, length or ETag). */
  headers: Record<string, string>
  hash: string
}

const MAX_KEY_LENGTH = 512
/** Data requests of client navigations, the route manifest, and files (feeds, images, robots.txt) are never pages to keep. */
const NOT_A_PAGE = /\.data$|^\/__manifest|\.[a-z0-9]+$/i
/** Brotli's quality 5: about 10 % larger than 11 at a twentieth of the time, made once per kept page. */
const BROTLI_QUALITY = 5

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Keeps rendered public pages in memory, ready to send: a visitor's page costs neither a render
 * nor a compression each time. It keeps exactly what the pages themselves mark as shareable
 * (`Cache-Control: public`, see app/lib/page-cache.ts: no session, no cookie, no Set-Cookie, no
 * error), answers only requests that could have had that answer (GET, no cookie, no
 * Authorization header, so nobody signed in), and throws a page away when the public content
 * changed (a version the database keeps, on every process, and announces when it changes: the
 * version heard needs no query) or when it is older than maxAgeMs.
 *
 * A kept page has no nonce: its inline scripts are allowed by their hashes, computed once
 * (docs/decisions/033). Its body is kept as is, gzipped and brotli-compressed, each with its
 * headers, so an answer is bytes made in advance.
 *
 * Two middlewares: `serve` early in the chain (right after the request log: a kept page needs
 * no body limit, session or nonce), `keep` around the page renderer.
 */
export function pageCache(options: PageCacheOptions) {
  const maxAgeMs = options.maxAgeMs ?? 5_000
  const maxEntries = options.maxEntries ?? 300
  const maxBodyBytes = options.maxBodyBytes ?? 512 * 1024
  const entries = new Map<string, Entry>()
  /** Pages being compressed for keeping, by version: another render under that version keeps nothing meanwhile. */
  const storing = new Map<string, string>()
  /** Pages being rendered for a miss, by version: requests for the same page wait for that render. */
  const renders = new Map<string, { version: string; entry: Promise<Entry | undefined> }>()
  const readVersion = readAfterArrival(options.readVersion)

  /** Whether a request could have a kept page for an answer, whatever is kept. */
  function mayBeKept(method: string, key: string | null, header: (name: string) => string | null | undefined): key is string {
    if (method !== 'GET' || key === null || key.length > MAX_KEY_LENGTH) return false
    const path = pathOf(key)
    if (isApiPath(path) || NOT_A_PAGE.test(path)) return false
    return header('cookie') == null && header('authorization') == null
  }

  /** The kept page under this version, fresh, marked most recently used; undefined when there is none. */
  function freshEntry(key: string, version: string): Entry | undefined {
    const kept = entries.get(key)
    if (!kept) return undefined
    entries.delete(key)
    if (!isFresh(kept, version)) return undefined
    // Most recently used last: the first entry is the one to drop when the cache is full.
    entries.set(key, kept)
    return kept
  }

  /**
   * The answer from a kept page when everything it depends on is known without waiting (the
   * version heard, maintenance mode cached): for Node's listener, before a Request and a Hono
   * context are made (node-listener.ts). Null sends the request the whole way, where `serve`
   * reads what it has to. The answer's headers are the kept page's own: add the request id to a copy.
   */
  function answerNow(request: KeptPageRequest): KeptAnswer | null {
    // A path as the request line has it; an absolute or scheme-relative one is left to Hono's URL.
    if (!request.path.startsWith('/') || request.path.startsWith('//')) return null
    const hash = request.path.indexOf('#')
    const key = hash === -1 ? request.path : request.path.slice(0, hash)
    if (!mayBeKept(request.method, key, request.header)) return null
    const maintenance = options.maintenance ? (options.maintenanceNow?.() ?? null) : false
    const version = maintenance === false ? (options.heardVersion?.() ?? null) : null
    if (version === null) return null
    const entry = freshEntry(key, version)
    return entry ? answer(entry, undefined, request.header('accept-encoding'), request.header('if-none-match')) : null
  }

  const serve = createMiddleware<AppEnv>(async (c, next) => {
    const key = pageKey(c.req.url)
    const headers = c.req.raw.headers
    if (!mayBeKept(c.req.method, key, (name) => headers.get(name))) return next()
    // The maintenance page comes first (maintenance.ts, further down the chain); and a version
    // that cannot be read keeps nothing: the request goes the whole way, as if there were no cache.
    const version = await (options.maintenance?.() ?? Promise.resolve(false))
      .then((maintenance) => (maintenance ? null : (options.heardVersion?.() ?? readVersion())))
      .catch(() => null)
    if (version === null) return next()
    const answerFrom = (entry: Entry) => {
      const requestId = c.get('requestId')
      if (requestId) c.set('requestIdSent', true)
      const kept = answer(entry, requestId, headers.get('accept-encoding'), headers.get('if-none-match'))
      return new Response(kept.body, { status: kept.status, headers: kept.headers })
    }
    const kept = freshEntry(key, version)
    if (kept) return answerFrom(kept)
    // Another request renders this page under this version already (it read the version after
    // this one arrived, or as this one did): its page is this one's too, as if it had been kept.
    const rendering = renders.get(key)
    if (rendering?.version === version) {
      const rendered = await rendering.entry
      if (rendered && isFresh(rendered, version)) return answerFrom(rendered)
    }
    // A page's age counts from before its render: what it read may be that old.
    c.set('pageCacheMiss', { key, version, renderedAt: Date.now() })
    if (rendering?.version === version) return next()
    let finish = (_entry: Entry | undefined) => {}
    const render = { version, entry: new Promise<Entry | undefined>((resolve) => (finish = resolve)) }
    renders.set(key, render)
    try {
      await next()
    } finally {
      if (renders.get(key) === render) renders.delete(key)
      // What keep stored for this render (it waits for the compression), if the page was kept.
      const stored = entries.get(key)
      finish(stored && isFresh(stored, version) ? stored : undefined)
    }
  })

  function isFresh(entry: Entry, version: string): boolean {
    return entry.version === version && Date.now() - entry.storedAt < maxAgeMs
  }

  const keep = createMiddleware<AppEnv>(async (c, next) => {
    await next()
    const miss = c.get('pageCacheMiss')
    if (!miss || c.get('user')) return
    const response = c.res
    if (!isShareable(response, 'text/html')) return
    const body = await response.text()
    c.res = new Response(body, { status: response.status, headers: response.headers })
    if (Buffer.byteLength(body) > maxBodyBytes || storing.get(miss.key) === miss.version) return
    const page = withScriptHashes(body, c.get('cspNonce'))
    if (!page) return
    storing.set(miss.key, miss.version)
    try {
      // Gzip runs in libuv's threads; the answer waits for it (well under a millisecond) so the
      // page is kept before the next request for it can arrive on this connection.
      const entry = await prepare(miss, page, response.headers)
      const current = entries.get(miss.key)
      if (current && current.storedAt > entry.storedAt) return
      entries.delete(miss.key)
      entries.set(miss.key, entry)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    } catch {
      // Not kept: rendered again next time.
    } finally {
      if (storing.get(miss.key) === miss.version) storing.delete(miss.key)
    }
  })

  async function prepare(miss: PageCacheMiss, page: { html: string; scriptHashes: string[] }, rendered: Headers): Promise<Entry> {
    const identity = Buffer.from(page.html)
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27)
    const headers: Record<string, string> = {}
    for (const [name, value] of rendered) if (name !== 'content-length' && name !== 'content-encoding') headers[name] = value
    headers.vary = varyWithAcceptEncoding(headers.vary)
    for (const [name, value] of options.securityHeaders(page.scriptHashes)) headers[name] = value
    const gzipped = await gzipAsync(identity, { level: 9 })
    return {
      version: miss.version,
      storedAt: miss.renderedAt,
      identity: variant(headers, identity, 'identity', hash),
      gzip: variant(headers, gzipped, 'gzip', hash),
      br: null,
      brPending: false,
      headers,
      hash,
    }
  }

  /**
   * The kept page in the encoding the request prefers, with the request's id among its headers
   * (request-logger.ts then leaves them alone: a plain object goes to Node's writeHead as it is).
   */
  function answer(
    entry: Entry,
    requestId: string | undefined,
    acceptEncoding: string | undefined | null,
    ifNoneMatch: string | undefined | null,
  ): KeptAnswer {
    const encoding = preferredEncoding(acceptEncoding)
    if (encoding === 'br' && !entry.br) compressBrotli(entry)
    const chosen = encoding === 'br' ? (entry.br ?? entry.gzip) : encoding === 'gzip' ? entry.gzip : entry.identity
    const headers = requestId ? { ...chosen.headers, [REQUEST_ID_HEADER]: requestId } : chosen.headers
    if (ifNoneMatch && matchesEtag(ifNoneMatch, chosen.etag)) {
      const { 'content-length': _length, ...unchanged } = headers
      return { status: 304, headers: unchanged, body: null }
    }
    return { status: 200, headers, body: chosen.body }
  }

  function compressBrotli(entry: Entry) {
    if (entry.brPending) return
    entry.brPending = true
    const body = entry.identity.body
    brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
      .then((compressed) => {
        entry.br = variant(entry.headers, compressed, 'br', entry.hash)
      })
      // Gzip answers instead; the next hit tries again.
      .catch(() => {
        entry.brPending = false
      })
  }

  return { serve, keep, answerNow }
}

export type PageCache = ReturnType<typeof pageCache>

function variant(shared: Record<string, string>, bytes: Buffer, encoding: Encoding, hash: string): Variant {
  // A copy of its own (a Buffer may share a pooled ArrayBuffer), sent as it is every time.
  const body = new Uint8Array(bytes)
  const etag = `"${hash}${encoding === 'identity' ? '' : `-${encoding}`}"`
  const headers = {
    ...shared,
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
    'content-length': String(body.length),
    etag,
  }
  return { body, etag, headers }
}

/** The address's path and query ('/blog?page=2'), as the request line has it; null for an address we do not read. */
export function pageKey(url: string): string | null {
  const scheme = url.indexOf('://')
  if (scheme === -1) return null
  const start = url.indexOf('/', scheme + 3)
  if (start === -1) return '/'
  const hash = url.indexOf('#', start)
  return hash === -1 ? url.slice(start) : url.slice(start, hash)
}

function pathOf(key: string): string {
  const query = key.indexOf('?')
  return query === -1 ? key : key.slice(0, query)
}

/** An answer that may be kept for anyone: 200, marked `public`, no cookie set, not yet compressed, of this type. */
export function isShareable(response: Response, contentType: 'text/html' | 'application/json'): boolean {
  return (
    response.status === 200 &&
    /^\s*public\b/i.test(response.headers.get('cache-control') ?? '') &&
    !response.headers.has('set-cookie') &&
    !response.headers.has('content-encoding') &&
    (response.headers.get('content-type') ?? '').startsWith(contentType)
  )
}
