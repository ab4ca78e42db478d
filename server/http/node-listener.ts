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

function answerFromKeptPage(keptPages: PageCache, logger: Logger, req: IncomingMessage, res: ServerResponse): boolean {
  const started = performance.now()
  const path = req.url ?? ''
  const method = req.method ?? ''
  const header = (name: string) => {
    const value = req.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  const kept = keptPages.answerNow({ method, path, header })
  if (!kept) return false
  const requestId = requestIdOf(header(REQUEST_ID_HEADER))
  res.writeHead(kept.status, { ...kept.headers, [REQUEST_ID_HEADER]: requestId })
  if (kept.body) res.end(kept.body)
  else res.end()
  const query = path.indexOf('?')
  logRequest(logger, { requestId, method, path: query === -1 ? path : path.slice(0, query), status: kept.status, started })
  return true
}
