import type { IncomingMessage, ServerResponse } from 'node:http'
import { getRequestListener } from '@hono/node-server'
import type { Logger } from '#server/logger.ts'
import type { PageCache } from './page-cache.ts'
import { logRequest, REQUEST_ID_HEADER, requestIdOf } from './request-logger.ts'

/**
 * Node's request listener for the app. A kept public page (page-cache.ts) is answered from
 * Node's own request and response when everything it depends on is known at once: making a
 * Request, a Hono context and a Response for it took about twice the time of writing it (issue
 * 31, bench:pages). The answer, its headers and its log line are the ones the Hono chain gives
 * (request-logger.ts, then the page cache's `serve`); every other request goes to Hono.
 */
/** A Host header @hono/node-server takes as it is (its own test); any other goes to Hono, which may refuse it. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/

export function nodeListener(
  fetch: (request: Request) => Response | Promise<Response>,
  options: { keptPages: PageCache | null; logger: Logger },
) {
  const listener = getRequestListener(fetch)
  const { keptPages, logger } = options
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!keptPages || !answerFromKeptPage(keptPages, logger, req, res)) void listener(req, res)
  }
}

/** True when the request was answered from a kept page; false leaves it untouched, for Hono. */
function answerFromKeptPage(keptPages: PageCache, logger: Logger, req: IncomingMessage, res: ServerResponse): boolean {
  const started = performance.now()
  const path = req.url ?? ''
  const method = req.method ?? ''
  if (!PLAIN_HOST.test(req.headers.host ?? '')) return false
  const header = (name: string) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  try {
    const kept = keptPages.answerNow({ method, path, header })
    if (!kept) return false
    const requestId = requestIdOf(header(REQUEST_ID_HEADER))
    res.writeHead(kept.status, { ...kept.headers, [REQUEST_ID_HEADER]: requestId })
    if (kept.body) res.end(kept.body)
    else res.end()
    logRequest(logger, { requestId, method, path: loggedPathOf(path), status: kept.status, started })
    return true
  } catch (error) {
    // Nothing written yet: Hono answers it, and its error handler logs what fails there too.
    if (!res.headersSent) return false
    logger.error({ err: error, path: loggedPathOf(path) }, 'answering a kept page failed')
    res.destroy()
    return true
  }
}

/** The path without its query, decoded as Hono's `c.req.path` is (the request log shows the same either way). */
function loggedPathOf(path: string): string {
  const query = path.indexOf('?')
  const bare = query === -1 ? path : path.slice(0, query)
  if (!bare.includes('%')) return bare
  try {
    return decodeURI(bare)
  } catch {
    return bare
  }
}
