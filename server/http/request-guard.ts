import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

export const NUL_MESSAGE = 'Text must not contain the NUL character (U+0000).'
export const SURROGATE_MESSAGE = 'Text must be valid Unicode: it contains an unpaired surrogate (\\uD800-\\uDFFF).'
export const MALFORMED_FORM_MESSAGE = 'The form data could not be read.'
export const FORM_TYPE_MESSAGE = 'Send the form as application/x-www-form-urlencoded or multipart/form-data.'

/** Bodies up to this size are read for NUL characters; the body limits refuse larger ones later. */
const MAX_INSPECTED_BYTES = 1024 * 1024
const NUL_IN_URL = /%00/
/** `\u0000` inside a JSON string: an odd number of backslashes before the u. */
const NUL_IN_JSON = /(?<!\\)(?:\\\\)*\\u0000/
const NUL_IN_FORM = /%00/
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i
/** A surrogate spelled as a JSON escape (`\udfff`), after an even number of backslashes: group 1 is them, 2 its hex. */
const SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2}|d[c-f][0-9a-f]{2})/gi

/**
 * Refuses, before any route sees them, requests that nothing here can store or read: a NUL
 * character in the address or in a JSON, form or text body (PostgreSQL refuses NUL in text, which
 * would otherwise surface as a 500 deep in a service), and page submissions that are not forms
 * (React Router's form actions can only read forms) or whose multipart body cannot be read. Each
 * answers 400 or 415 with a clear message.
 */
export function requestGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (NUL_IN_URL.test(c.req.url)) return refuse(c, 400, NUL_MESSAGE, 'INVALID_TEXT')
    const method = c.req.method
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next()

    const type = c.req.header('content-type') ?? ''
    if (!isApiPath(c.req.path) && !FORM_TYPES.test(type)) return refuse(c, 415, FORM_TYPE_MESSAGE, 'UNSUPPORTED_MEDIA_TYPE')

    const verdict = await inspectBody(c.req.raw, type)
    if (verdict === 'nul') return refuse(c, 400, NUL_MESSAGE, 'INVALID_TEXT')
    if (verdict === 'surrogate') return refuse(c, 400, SURROGATE_MESSAGE, 'INVALID_TEXT')
    if (verdict === 'malformed') return refuse(c, 400, MALFORMED_FORM_MESSAGE, 'BAD_REQUEST')
    return next()
  })
}

async function inspectBody(request: Request, type: string): Promise<'ok' | 'nul' | 'surrogate' | 'malformed'> {
  const kind = /json/i.test(type)
    ? 'json'
    : /^multipart\/form-data/i.test(type)
      ? 'multipart'
      : /^(application\/x-www-form-urlencoded|text\/)/i.test(type)
        ? 'text'
        : null
  if (!kind) return 'ok'
  const bytes = await readUpTo(request.clone(), MAX_INSPECTED_BYTES)
  if (!bytes) return 'ok'
  if (kind === 'multipart') {
    const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData().catch(() => null)
    if (!form) return 'malformed'
    const nul = [...form.entries()].some(
      ([name, value]) => name.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')),
    )
    return nul ? 'nul' : 'ok'
  }
  const text = Buffer.from(bytes).toString('utf8')
  if (text.includes('\u0000') || (kind === 'json' ? NUL_IN_JSON : NUL_IN_FORM).test(text)) return 'nul'
  // Bytes decode to whole characters (or U+FFFD); only a JSON escape can make half of one.
  if (kind === 'json' && hasUnpairedSurrogateEscape(text)) return 'surrogate'
  return 'ok'
}

/**
 * Whether JSON text spells half a UTF-16 surrogate pair (which PostgreSQL cannot store): a high
 * escape not directly followed by a low one, or a low one without its high one. Read from the
 * text, so no nesting depth can overflow it.
 */
function hasUnpairedSurrogateEscape(text: string): boolean {
  let lowExpectedAt = -1
  for (const match of text.matchAll(SURROGATE_ESCAPE)) {
    const at = (match.index ?? 0) + (match[1]?.length ?? 0)
    const high = /^d[89ab]/i.test(match[2] ?? '')
    if (lowExpectedAt !== -1) {
      if (high || at !== lowExpectedAt) return true
      lowExpectedAt = -1
    } else if (high) lowExpectedAt = at + 6
    else return true
  }
  return lowExpectedAt !== -1
}

/** Whether a path is the JSON API's (which answers errors as JSON) rather than a page's. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/')
}

function refuse(c: Context<AppEnv>, status: 400 | 415, message: string, code: string) {
  if (isApiPath(c.req.path)) return c.json({ message, code }, status)
  return c.text(message, status, { 'Cache-Control': 'no-store' })
}

/** The body's bytes, or null when it is longer than `max` (then it is left to the body limits). */
async function readUpTo(request: Request, max: number): Promise<Uint8Array | null> {
  if (!request.body) return null
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      // Not cancel(): with Node's Request.clone() that stalls the original body for the route.
      reader.releaseLock()
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}
