import { getConnInfo } from '@hono/node-server/conninfo'
import { createMiddleware } from 'hono/factory'
import { isIPv6 } from 'node:net'
import { CLIENT_IP_HEADER } from '#server/auth.ts'
import type { AppEnv } from './app-env.ts'

/**
 * Works out the client's address once (from the socket, or from X-Forwarded-For behind a
 * trusted proxy), counts IPv6 clients per /64 network, and hands the result to Better Auth
 * through our own header so that every rate limit sees the same client.
 * A proxy appends the address it saw to whatever the client sent, so only the right-most
 * X-Forwarded-For entry can be trusted; the ones left of it are the client's to invent.
 */
export function clientIp(options: { trustProxy: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    let address = ''
    if (options.trustProxy) address = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() ?? ''
    if (!address) {
      try {
        address = getConnInfo(c).remote.address ?? ''
      } catch {
        address = ''
      }
    }
    const ip = normalizeIp(address || 'unknown')
    c.set('clientIp', ip)
    c.req.raw.headers.set(CLIENT_IP_HEADER, ip)
    await next()
  })
}

export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return mapped[1]
  if (!isIPv6(address)) return address
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = address.includes('::') && tail ? tail.split(':') : []
  const zeros = Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0')
  return [...left, ...zeros, ...right].map((group) => group.padStart(4, '0'))
}
