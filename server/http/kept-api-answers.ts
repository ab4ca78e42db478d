import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import { pack, THRESHOLD_BYTES } from './compress-answers.ts'
import { isShareable, pageKey } from './page-cache.ts'
import { preferredEncoding, varyWithAcceptEncoding } from './page-encodings.ts'
import { readAfterArrival } from './read-after-arrival.ts'

export interface KeptApiAnswersOptions {
  /** The public content's current version (public_content_version): a kept answer is sent only while it is unchanged. */
  readVersion: () => Promise<string | null>
  /** The version as this process heard it announced, without a query; null when it could have missed one. */
  heardVersion?: () => string | null
  /** The longest an answer is kept from before the read that made it, whatever the version says. */
  maxAgeMs?: number
  maxEntries?: number
  maxBodyBytes?: number
}

interface Entry {
  version: string
  storedAt: number
  /** The answer as it is, and compressed in each encoding a request has asked for (none when it is too small to gain). */
  bodies: { identity: Uint8Array<ArrayBuffer> } & Partial<Record<'gzip' | 'br', Uint8Array<ArrayBuffer>>>
  /** The route's own headers (type, caching); the rate limit's, the request id and the security headers are each request's. */
  headers: Record<string, string>
}

const MAX_KEY_LENGTH = 512

/**
 * The Cache-Control of an answer anyone may be given: a route sets it (markShareable) on what
 * it answers to nobody signed in. Shared, but checked again each time by caches on the way (no-cache).
 */
export const SHAREABLE_ANSWER = 'public, no-cache'

/** Marks the answer of a public read as one to keep (keptApiAnswers), when nobody signed in asked. */
export function markShareable(c: Context<AppEnv>) {
  if (!c.get('credential') && !c.get('user')) c.header('Cache-Control', SHAREABLE_ANSWER)
}

/** The route's headers a kept answer repeats; everything else is set for each request by the middlewares around it. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'vary'] as const

/**
 * Keeps the answers of public API reads in memory, ready to send (docs/decisions/052): a GET by
 * nobody signed in (no credential of any kind) whose answer the route marks shareable
 * (`Cache-Control: public`, JSON, 200, no cookie), per public content version as kept pages are
 * (page-cache.ts), and for at most maxAgeMs. It sits after the API's rate limit, so every request
 * still counts and gets its own RateLimit headers; a kept answer saves the query, the JSON and the
 * compression (made once per encoding asked for). What public content is (posts, plans, settings,
 * authors' names) is the version's triggers' list; a route that reads anything else must not mark
 * its answer public.
 */
export function keptApiAnswers(options: KeptApiAnswersOptions) {
  const maxAgeMs = options.maxAgeMs ?? 5_000
  const maxEntries = options.maxEntries ?? 200
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024
  const entries = new Map<string, Entry>()
  const readVersion = readAfterArrival(options.readVersion)

  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== 'GET' || c.get('credential') || c.get('user')) return next()
    const key = pageKey(c.req.url)
    if (key === null || key.length > MAX_KEY_LENGTH) return next()
    const version = options.heardVersion?.() ?? (await readVersion().catch(() => null))
    if (version === null) return next()
    const kept = entries.get(key)
    if (kept && kept.version === version && Date.now() - kept.storedAt < maxAgeMs) {
      // Most recently used last: the first entry is the one to drop when the cache is full.
      entries.delete(key)
      entries.set(key, kept)
      return await send(c, kept)
    }
    if (kept) entries.delete(key)
    // Its age counts from before the read: what the route read may be that old.
    const readAt = Date.now()
    await next()
    const response = c.res
    if (!isShareable(response, 'application/json')) return
    const body = Buffer.from(await response.arrayBuffer())
    c.res = new Response(body, response)
    if (body.byteLength > maxBodyBytes) return
    const entry = prepare(version, readAt, body, response.headers)
    const current = entries.get(key)
    if (current && current.storedAt > entry.storedAt) return
    entries.delete(key)
    entries.set(key, entry)
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
  })
}

function prepare(version: string, storedAt: number, body: Buffer, routeHeaders: Headers): Entry {
  const headers: Record<string, string> = {}
  for (const name of KEPT_HEADERS) {
    const value = routeHeaders.get(name)
    if (value !== null) headers[name] = value
  }
  headers.vary = varyWithAcceptEncoding(headers.vary)
  return { version, storedAt, bodies: { identity: new Uint8Array(body) }, headers }
}

/**
 * The kept answer in the encoding the request prefers, compressed on the first request that asks
 * for that encoding (an answer nobody asks for compressed costs no compression); the middlewares
 * around add the request's own headers.
 */
async function send(c: Context<AppEnv>, entry: Entry): Promise<Response> {
  const preferred = preferredEncoding(c.req.header('accept-encoding'))
  const { identity } = entry.bodies
  if (preferred === 'identity' || identity.byteLength < THRESHOLD_BYTES) return c.body(identity, 200, entry.headers)
  const compressed = (entry.bodies[preferred] ??= new Uint8Array(await pack(Buffer.from(identity.buffer), preferred)))
  return c.body(compressed, 200, { ...entry.headers, 'content-encoding': preferred })
}
