import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

export const NUL_MESSAGE = 'Text must not contain the NUL character (U+0000).'
export const SURROGATE_MESSAGE = 'Text must be valid Unicode: it contains an unpaired surrogate (\\uD800-\\uDFFF).'
export const MALFORMED_FORM_MESSAGE = 'The form data could not be read.'
export const FORM_TYPE_MESSAGE = 'Send the form as application/x-www-form-urlencoded or multipart/form-data.'

/** Why a request's address or body cannot be used, as the answer that says so. */
export interface Refusal {
  status: 400 | 415
  message: string
  code: string
}

/** What the guard found in the address and in the body (null: nothing wrong). */
export interface RequestVerdict {
  url: Refusal | null
  body: Refusal | null
}

const NUL_IN_URL = /%00/
/** `\u0000` inside a JSON string: an odd number of backslashes before the u. */
const NUL_IN_JSON = /(?<!\\)(?:\\\\)*\\u0000/
const NUL_IN_FORM = /%00/
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i
/** A surrogate spelled as a JSON escape (`\udfff`), after an even number of backslashes: group 1 is them, 2 its hex. */
const SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2}|d[c-f][0-9a-f]{2})/gi

const NUL: Refusal = { status: 400, message: NUL_MESSAGE, code: 'INVALID_TEXT' }
const SURROGATE: Refusal = { status: 400, message: SURROGATE_MESSAGE, code: 'INVALID_TEXT' }
const MALFORMED_FORM: Refusal = { status: 400, message: MALFORMED_FORM_MESSAGE, code: 'BAD_REQUEST' }
const NOT_A_FORM: Refusal = { status: 415, message: FORM_TYPE_MESSAGE, code: 'UNSUPPORTED_MEDIA_TYPE' }

/**
 * Finds what nothing here can store or read: a NUL character in the address or in a JSON, form
 * or text body (PostgreSQL refuses NUL in text, which would otherwise surface as a 500 deep in a
 * service), half a surrogate pair in JSON, page submissions that are not forms (React Router's
 * actions can only read forms) or whose multipart body cannot be read. The whole body is read
 * (body-limit.ts has bounded it).
 *
 * Who is asking is decided first, so the refusal comes when the input is validated (ADR 015):
 * - the API refuses at its validation stage, after the route's access rule (openapi.ts's hook);
 * - a page refuses a bad address at once (a loader has no validation stage of its own), and a bad
 *   body when its action reads it (after the action's own checks): see refuseBodyWhenRead.
 */
export function requestGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const verdict: RequestVerdict = { url: NUL_IN_URL.test(c.req.url) ? NUL : null, body: await bodyVerdict(c) }
    c.set('verdict', verdict)
    if (isApiPath(c.req.path)) return next()
    if (verdict.url) return refuse(c, verdict.url)
    if (verdict.body) refuseBodyWhenRead(c, verdict.body)
    return next()
  })
}

/** For routes with no validation stage (Better Auth's endpoints, signed webhooks): refuses at once. */
export function refuseUnreadable() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const verdict = c.get('verdict')
    const refusal = verdict?.url ?? verdict?.body
    return refusal ? refuse(c, refusal) : next()
  })
}

async function bodyVerdict(c: Context<AppEnv>): Promise<Refusal | null> {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null
  const type = c.req.header('content-type') ?? ''
  if (!isApiPath(c.req.path) && !FORM_TYPES.test(type)) return NOT_A_FORM
  const bytes = c.get('body')
  return bytes ? inspectBody(bytes, type) : null
}

async function inspectBody(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<Refusal | null> {
  if (/^multipart\/form-data/i.test(type)) return inspectMultipart(bytes, type)
  const kind = /json/i.test(type) ? 'json' : /^(application\/x-www-form-urlencoded|text\/)/i.test(type) ? 'text' : null
  if (!kind) return null
  const text = Buffer.from(bytes).toString('utf8')
  if (text.includes('\u0000') || (kind === 'json' ? NUL_IN_JSON : NUL_IN_FORM).test(text)) return NUL
  // Bytes decode to whole characters (or U+FFFD); only a JSON escape can make half of one.
  if (kind === 'json' && hasUnpairedSurrogateEscape(text)) return SURROGATE
  return null
}

async function inspectMultipart(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<Refusal | null> {
  // Parsed from the bytes already in memory; the route reads its own copy.
  const form = await new Response(bytes, { headers: { 'content-type': type } }).formData().catch(() => null)
  if (!form) return MALFORMED_FORM
  const nul = [...form.entries()].some(
    ([name, value]) => name.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')),
  )
  return nul ? NUL : null
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

export function refuse(c: Context<AppEnv>, refusal: Refusal) {
  if (isApiPath(c.req.path)) return c.json({ message: refusal.message, code: refusal.code }, refusal.status)
  return c.text(refusal.message, refusal.status, { 'Cache-Control': 'no-store' })
}

/**
 * Wraps the page handler: when the page read a body the guard refused, the refusal is the answer,
 * whatever the page made of the failed read.
 */
export function answerRefusedBody() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next()
    const refused = c.get('refusedBody')
    if (!refused?.read) return
    await c.res.body?.cancel()
    c.res = refuse(c, refused.refusal)
  })
}

/**
 * A page's body that must not be used: reading it fails, and answerRefusedBody answers with the
 * refusal instead of the page. An action that never reads its body (sign-out) is unaffected, and one that
 * refuses the caller first (a member posting to an admin action) answers as it always does.
 */
function refuseBodyWhenRead(c: Context<AppEnv>, refusal: Refusal) {
  const refused = { refusal, read: false }
  c.set('refusedBody', refused)
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        refused.read = true
        controller.error(new Error(refusal.message))
      },
    },
    // Pulled only when somebody reads, not to fill a queue ahead of time.
    { highWaterMark: 0 },
  )
  c.req.raw = new Request(c.req.raw, { body, duplex: 'half' } as RequestInit)
}
