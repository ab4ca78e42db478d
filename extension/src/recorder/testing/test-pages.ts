import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The recorder's test pages (pages/*.html), served on 127.0.0.1. */
export async function serveTestPages(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const name = /^\/([a-z-]+\.html)$/.exec(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)?.[1]
    if (!name) return void response.writeHead(404).end()
    readFile(new URL(`./pages/${name}`, import.meta.url))
      .then((html) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html))
      .catch(() => response.writeHead(404).end())
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
