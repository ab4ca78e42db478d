import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.zip': 'application/zip',
  '.ttf': 'font/ttf',
}

/** How a file is served, by its extension. */
export const contentTypeOf = (name: string) => CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream'

interface Asset {
  body: Buffer
  br?: Buffer
  gzip?: Buffer
  type: string
  immutable: boolean
}

/**
 * Serves the built client folder from memory. Files under /assets/ carry a content hash in their
 * name, so they are cached for a year; the build writes .br and .gz copies that we pick by
 * Accept-Encoding. Only files found at start-up are served, so no path can escape the folder.
 */
export function staticAssets(clientDir: string) {
  const assets = loadAssets(clientDir)
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const asset = assets.get(c.req.path)
    if (!asset) return next()
    const accepts = c.req.header('accept-encoding') ?? ''
    const encoded =
      accepts.includes('br') && asset.br
        ? { body: asset.br, encoding: 'br' }
        : accepts.includes('gzip') && asset.gzip
          ? { body: asset.gzip, encoding: 'gzip' }
          : null
    const headers = new Headers({
      'Content-Type': asset.type,
      'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      Vary: 'Accept-Encoding',
    })
    if (encoded) headers.set('Content-Encoding', encoded.encoding)
    const body = encoded?.body ?? asset.body
    headers.set('Content-Length', String(body.length))
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers })
  })
}

function loadAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name)
      if (statSync(file).isDirectory()) {
        walk(file)
        continue
      }
      if (name.endsWith('.br') || name.endsWith('.gz')) continue
      const urlPath = '/' + path.relative(root, file).split(path.sep).join('/')
      assets.set(urlPath, {
        body: readFileSync(file),
        br: readIfExists(`${file}.br`),
        gzip: readIfExists(`${file}.gz`),
        type: contentTypeOf(name),
        immutable: urlPath.startsWith('/assets/'),
      })
    }
  }
  walk(root)
  return assets
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}
