import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { createMiddleware } from 'hono/factory'
import { TRACE_VIEWER_PATH } from '#common/run-trace.ts'
import type { AppEnv } from './app-env.ts'
import { securityHeaderList, type SecurityHeaderOptions } from './security-headers.ts'
import { contentTypeOf } from './static-assets.ts'

/** The trace viewer Playwright ships (the one `npx playwright show-trace` opens), a static app. */
const VIEWER_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib/vite/traceViewer')

interface ViewerFile {
  body: Buffer
  gzip: Buffer
  type: string
}

/**
 * Serves Playwright's trace viewer at /trace-viewer/ (docs/decisions/060), read from
 * playwright-core the first time it is asked for. A run's trace opens in it by
 * `index.html?trace=/api/runs/<id>/trace`: its service worker fetches the trace with the member's
 * cookie and renders the pages' snapshots in frames of its own origin (each snapshot with its own
 * script-only-by-nonce policy), so these answers may be framed by the viewer, and by nothing else.
 */
export function traceViewer(options: SecurityHeaderOptions, dir = VIEWER_DIR) {
  let files: { byPath: Map<string, ViewerFile>; headers: [string, string][] } | null = null
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.req.path.startsWith(TRACE_VIEWER_PATH) || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next()
    files ??= load(dir, options)
    const file = files.byPath.get(c.req.path.slice(TRACE_VIEWER_PATH.length) || 'index.html')
    if (!file) return next()
    const gzip = (c.req.header('accept-encoding') ?? '').includes('gzip')
    const body = gzip ? file.gzip : file.body
    const headers = new Headers(files.headers)
    headers.set('Content-Type', file.type)
    headers.set('Content-Length', String(body.length))
    headers.set('Cache-Control', 'public, max-age=3600')
    headers.set('Vary', 'Accept-Encoding')
    if (gzip) headers.set('Content-Encoding', 'gzip')
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers })
  })
}

function load(dir: string, options: SecurityHeaderOptions) {
  const byPath = new Map<string, ViewerFile>()
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name)
      if (statSync(file).isDirectory()) walk(file)
      else {
        const body = readFileSync(file)
        byPath.set(path.relative(dir, file).split(path.sep).join('/'), { body, gzip: gzipSync(body), type: contentTypeOf(name) })
      }
    }
  }
  walk(dir)
  // The page's inline script (it explains that the viewer needs http:) runs by its hash.
  const page = byPath.get('index.html')?.body.toString('utf8') ?? ''
  const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, script]) =>
      `'sha256-${createHash('sha256')
        .update(script ?? '')
        .digest('base64')}'`,
  )
  return { byPath, headers: securityHeaderList({ ...options, framesOwn: true }, inline) }
}
