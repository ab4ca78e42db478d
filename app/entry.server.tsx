import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction } from 'react-router'
import { StylesheetSource } from './components/inline-stylesheet.tsx'
import { builtStylesheet } from './lib/stylesheet.server.ts'

export const streamTimeout = 5_000

/** Loader and action errors go to the server, which logs them or answers 503 for a database outage (server/http/pages.ts). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return
  // React Router calls this before the load context exists for a request it cannot route.
  const report = (context as Partial<AppLoadContext> | undefined)?.reportError
  if (report) report(error)
  else console.error(error)
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const nonce = loadContext.cspNonce
    const page = (
      // The built stylesheet goes into the page (docs/decisions/035-inline-stylesheet-and-system-font.md).
      <StylesheetSource value={import.meta.env.DEV ? null : builtStylesheet}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </StylesheetSource>
    )
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      // Never move a finished part out of place to be swapped in by script (React does that for
      // large Suspense boundaries): without JavaScript it would stay hidden.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      // The whole document at once, for people and crawlers alike: lazily loaded parts (the
      // services form, the consent banner) are then rendered in place, so the page works before
      // and without JavaScript. No loader defers data, so nothing is gained by streaming a shell.
      onAllReady() {
        shellRendered = true
        const body = new PassThrough()
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
        pipe(body)
      },
      onShellError(error: unknown) {
        reject(error)
      },
      onError(error: unknown) {
        responseStatusCode = 500
        if (shellRendered) console.error(error)
      },
    })
    setTimeout(abort, streamTimeout + 1000)
  })
}
