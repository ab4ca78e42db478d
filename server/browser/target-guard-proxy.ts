import { once } from 'node:events'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { BlockedRequest, TargetGuard } from './target-guard.ts'

const CONNECT_TIMEOUT_MS = 10_000
/** Headers about the hop to the proxy, never forwarded (RFC 9110, section 7.6.1). */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** Connects to the first of the checked addresses that answers. */
async function connectToAny(addresses: string[], port: number): Promise<Socket> {
  let lastError: unknown = new Error('no address')
  for (const address of addresses) {
    const socket = connect({ host: address, port })
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`connecting to ${address}:${port} timed out`)))
    try {
      await once(socket, 'connect')
      socket.setTimeout(0)
      return socket
    } catch (error) {
      socket.destroy()
      lastError = error
    }
  }
  throw lastError
}

function hostAndPort(authority: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority)
  if (!match?.[1]) return null
  const port = match[2] ? Number(match[2]) : defaultPort
  return port >= 1 && port <= 65535 ? { host: match[1], port } : null
}

/**
 * A forward proxy on 127.0.0.1 for one run's browser context: every connection the browser opens
 * (page loads, each hop of a redirect, subresources, WebSockets, service workers) comes here, the
 * host is resolved and checked by the run's guard, and the proxy connects to the very address it
 * checked. HTTPS goes through CONNECT tunnels, so the proxy never sees the encrypted traffic.
 */
export async function startGuardProxy(guard: TargetGuard, onBlocked: (blocked: BlockedRequest) => void) {
  const sockets = new Set<Duplex>()
  const track = (socket: Duplex) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }

  const server = createServer((request, response) => void forward(request, response))
  server.on('connection', track)

  async function forward(request: IncomingMessage, response: ServerResponse) {
    let target: URL
    try {
      target = new URL(request.url ?? '')
      if (target.protocol !== 'http:') throw new Error('not http')
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('This proxy forwards absolute http:// requests only.')
      return
    }
    const verdict = await guard.checkUrl(target.href)
    if (!verdict.allowed && verdict.unresolved) {
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`${verdict.reason}.`)
      return
    }
    if (!verdict.allowed) {
      onBlocked({ url: target.href, reason: verdict.reason, navigation: request.headers['sec-fetch-mode'] === 'navigate' })
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`Blocked: ${verdict.reason}.`)
      return
    }
    let socket: Socket
    try {
      socket = await connectToAny(verdict.addresses, Number(target.port || 80))
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(`Could not connect: ${(error as Error).message}`)
      return
    }
    track(socket)
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value
    }
    const upstream = httpRequest({
      createConnection: () => socket,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers,
      setHost: false,
    })
    upstream.on('response', (answer) => {
      const raw: string[] = []
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i] ?? ''
        if (!HOP_HEADERS.has(name.toLowerCase())) raw.push(name, answer.rawHeaders[i + 1] ?? '')
      }
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw)
      answer.pipe(response)
    })
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end(`Upstream error: ${error.message}`)
      else response.destroy()
    })
    request.pipe(upstream)
  }

  async function tunnel(request: IncomingMessage, client: Duplex, head: Buffer) {
    const target = hostAndPort(request.url ?? '', 443)
    const verdict = target ? await guard.checkHost(target.host) : ({ allowed: false, reason: 'bad CONNECT target' } as const)
    if (!verdict.allowed && 'unresolved' in verdict && verdict.unresolved) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n')
      return
    }
    if (!target || !verdict.allowed) {
      const reason = verdict.allowed ? 'bad CONNECT target' : verdict.reason
      onBlocked({ url: `https://${request.url ?? ''}/`, reason, navigation: false })
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nBlocked: ${reason}.`)
      return
    }
    let socket: Socket
    try {
      socket = await connectToAny(verdict.addresses, target.port)
    } catch {
      client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n')
      return
    }
    track(socket)
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length) socket.write(head)
    socket.pipe(client).on('error', () => client.destroy())
    client.pipe(socket).on('error', () => socket.destroy())
    socket.on('error', () => client.destroy())
    client.on('error', () => socket.destroy())
  }

  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy())
    void tunnel(request, client, head)
  })
  // A ws:// upgrade sent as an absolute-URL request (Chromium tunnels WebSockets with CONNECT,
  // which is handled above): refused rather than passed on unchecked.
  server.on('upgrade', (_request: IncomingMessage, client: Duplex) => {
    client.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n')
  })

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export type GuardProxy = Awaited<ReturnType<typeof startGuardProxy>>
