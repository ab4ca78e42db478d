import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'
import { preferredEncoding, varyWithAcceptEncoding } from './page-encodings.ts'

/** Smaller answers go as they are: compressing them saves less than its own headers cost. */
export const THRESHOLD_BYTES = 1024
/**
 * An answer made for one request is compressed from this size: a smaller one reaches the client in
 * the first round trip of a connection all the same (TCP's initial window of 10 segments, RFC 6928,
 * about 14 KB), and compressing a few KB of JSON cost 0.2–0.7 ms of CPU under load (cold caches;
 * docs/decisions/014). Answers kept for many requests (kept-api-answers.ts) are compressed once,
 * from THRESHOLD_BYTES.
 */
export const FIRST_FLIGHT_BYTES = 14 * 1024
/** Brotli's quality 4: smaller than gzip's default at about its speed. */
const BROTLI_QUALITY = 4
/**
 * Up to this size an answer is compressed at once, on the thread that serves the requests: a trip
 * to the thread pool costs about 80 µs of CPU more than the compression itself (measured on
 * Node 20; docs/decisions/014).
 */
const AT_ONCE_MAX_BYTES = 16 * 1024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
const noTransform = /(?:^|,)\s*no-transform\s*(?:,|$)/i

/**
 * Compresses what the server sends, as the client accepts. A JSON answer is whole before it is
 * sent: it goes as it is below FIRST_FLIGHT_BYTES, else it is compressed in one piece, at once up
 * to AT_ONCE_MAX_BYTES, on libuv's thread pool above (the streaming compression did it chunk by
 * chunk, for about a tenth of an API request's time). Everything else (pages as they render,
 * files, event streams are not compressed at all) keeps Hono's streaming compression.
 */
export function compressAnswers(): MiddlewareHandler<AppEnv> {
  const streaming = compress()
  const already = async () => {}
  return createMiddleware<AppEnv>(async (c, next) => {
    await next()
    if (!(c.res.headers.get('content-type') ?? '').startsWith('application/json')) return streaming(c, already)
    if (!mayCompress(c)) return
    c.res.headers.set('Vary', varyWithAcceptEncoding(c.res.headers.get('Vary') ?? undefined))
    const encoding = preferredEncoding(c.req.header('accept-encoding'))
    if (encoding === 'identity') return
    const response = c.res
    const body = Buffer.from(await response.arrayBuffer())
    const packed = body.byteLength < FIRST_FLIGHT_BYTES ? null : await pack(body, encoding)
    c.res = new Response(packed ?? body, response)
    if (!packed) return
    c.res.headers.set('Content-Encoding', encoding)
    c.res.headers.delete('Content-Length')
    const etag = c.res.headers.get('ETag')
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`)
  })
}

export async function pack(body: Buffer, encoding: 'br' | 'gzip') {
  const atOnce = body.byteLength <= AT_ONCE_MAX_BYTES
  if (encoding === 'br') {
    const options: BrotliOptions = {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        // A window no larger than the answer: the default 4 MB one is set up for every answer.
        [zlib.BROTLI_PARAM_LGWIN]: windowBits(body.byteLength, zlib.BROTLI_MIN_WINDOW_BITS, zlib.BROTLI_MAX_WINDOW_BITS),
      },
    }
    return atOnce ? brotliCompressSync(body, options) : brotli(body, options)
  }
  // A window larger than the answer holds nothing more, and costs its memory for each answer.
  const options: ZlibOptions = { windowBits: windowBits(body.byteLength, 9, 15) }
  return atOnce ? gzipSync(body, options) : gzipAsync(body, options)
}

/** The smallest window (as a power of two) that holds `bytes`, within what the format allows. */
const windowBits = (bytes: number, min: number, max: number) => Math.min(max, Math.max(min, Math.ceil(Math.log2(bytes))))

/** Whether the answer may be compressed, known from its status and headers (reading its body would build a whole Response). */
function mayCompress(c: Context<AppEnv>): boolean {
  const headers = c.res.headers
  const status = c.res.status
  return (
    c.req.method !== 'HEAD' &&
    status !== 204 &&
    status !== 205 &&
    status !== 206 &&
    status !== 304 &&
    !headers.has('Content-Encoding') &&
    !noTransform.test(headers.get('Cache-Control') ?? '')
  )
}
