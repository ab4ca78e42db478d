import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import path from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.jsx': 'text/jsx; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
}

/** Sends a file of `root` (nothing outside it; a folder sends its index.html); false when there is none. */
export async function sendFile(response: ServerResponse, root: string, relative: string): Promise<boolean> {
  const resolved = path.resolve(root, `.${path.posix.normalize(`/${decodeURIComponent(relative)}`)}`)
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) return false
  const found = await stat(resolved).catch(() => null)
  const file = found?.isDirectory() ? path.join(resolved, 'index.html') : resolved
  const info = found?.isDirectory() ? await stat(file).catch(() => null) : found
  if (!info?.isFile()) return false
  response.writeHead(200, {
    'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store',
  })
  createReadStream(file).pipe(response)
  return true
}
