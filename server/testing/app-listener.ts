import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'

/** An app behind a real listener on 127.0.0.1, for clients that speak HTTP (the MCP SDK's client, our SDK). */
export async function listenOnLoopback(fetch: (request: Request) => Response | Promise<Response>) {
  const server = createServer(getRequestListener(fetch))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
