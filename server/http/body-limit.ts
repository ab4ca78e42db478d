import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { CLIENT_SCREENSHOT_MAX_BYTES } from '#common/automations.ts'
import { COVER_MAX_BYTES } from '#common/blog.ts'
import { MAX_AUTOMATION_FILE_BYTES } from '#common/file-steps.ts'
import type { AppEnv } from './app-env.ts'
import { isApiPath } from './request-guard.ts'

const MB = 1024 * 1024

interface Limit {
  bytes: number
  message: string
}

/** Where the uploads router is mounted: images are larger than the JSON the rest of the API takes. */
const UPLOADS_PATH = '/api/uploads/'
/** A client run's screenshot upload (POST /api/runs/{id}/screenshots): a PNG body of up to 5 MB. */
const RUN_SCREENSHOT_PATH = /^\/api\/runs\/[^/]+\/screenshots$/
/** A file kept with an automation (PUT /api/automations/{id}/files/{name}): its bytes, up to 5 MB. */
const AUTOMATION_FILE_PATH = /^\/api\/automations\/[^/]+\/files\/[^/]+$/
/** The builder's page, whose "Files" card posts a file of up to 5 MB (and its multipart framing). */
const BUILDER_PATH = /^\/dashboard\/automations\/[^/]+$/

/**
 * Request bodies have a size limit everywhere, chosen by path: 1 MB of JSON for the API, a cover
 * image (2 MB and its multipart framing) for uploads, a PNG of 5 MB for a client run's screenshot, 5 MB for a file kept with an automation (by the API or the builder's form), 2 MB for a page's form (the builder's import
 * of a 1 MB steps file, URL-encoded). A declared Content-Length over the limit is refused before
 * anything is read; a chunked body is read until it passes the limit and refused there. Either way
 * the answer is 413 and the rest is never read into memory.
 */
function limitFor(path: string): Limit {
  if (path.startsWith(UPLOADS_PATH)) return { bytes: COVER_MAX_BYTES + 64 * 1024, message: 'The image is larger than 2 MB.' }
  if (AUTOMATION_FILE_PATH.test(path)) return { bytes: MAX_AUTOMATION_FILE_BYTES, message: 'The file is larger than 5 MB.' }
  if (BUILDER_PATH.test(path))
    return { bytes: MAX_AUTOMATION_FILE_BYTES + 64 * 1024, message: 'The form is too large (the limit is 5 MB).' }
  if (RUN_SCREENSHOT_PATH.test(path)) return { bytes: CLIENT_SCREENSHOT_MAX_BYTES, message: 'The screenshot is larger than 5 MB.' }
  if (isApiPath(path)) return { bytes: MB, message: 'Request body is too large (the limit is 1 MB).' }
  return { bytes: 2 * MB, message: 'The form is too large (the limit is 2 MB).' }
}

/**
 * Reads every request body once, within its limit (limitFor), and keeps the bytes: the request
 * guard inspects them and the routes read them from memory, so nothing clones or re-reads the
 * stream.
 */
export function bodyLimit() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw
    // A GET or HEAD request has no body for the Fetch API; asking would build the whole Request.
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !raw.body) return next()
    const limit = limitFor(c.req.path)
    const declared = raw.headers.get('content-length')
    if (declared !== null && !raw.headers.has('transfer-encoding') && Number(declared) > limit.bytes) return tooLarge(c, limit)
    const bytes = await readWithin(raw.body, limit.bytes)
    if (!bytes) return tooLarge(c, limit)
    c.req.raw = new Request(raw, { body: bytes })
    c.set('body', bytes)
    return next()
  })
}

/** The whole body, or null once it passes `max` (the rest is left unread: the server drains or drops it). */
async function readWithin(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      reader.releaseLock()
      return null
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function tooLarge(c: Context<AppEnv>, limit: Limit) {
  // The client may still be sending: the server discards a little more (so the client can read this
  // answer) and then closes the connection (@hono/node-server: 64 MB or 0.5 s at most).
  c.header('Cache-Control', 'no-store')
  if (isApiPath(c.req.path)) return c.json({ message: limit.message, code: 'PAYLOAD_TOO_LARGE' }, 413)
  return c.text(limit.message, 413)
}
