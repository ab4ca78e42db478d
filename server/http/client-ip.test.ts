import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER } from '#server/auth.ts'
import type { AppEnv } from './app-env.ts'
import { clientIp, normalizeIp } from './client-ip.ts'

describe('normalizeIp', () => {
  it('keeps IPv4 addresses as they are', () => {
    expect(normalizeIp('203.0.113.7')).toBe('203.0.113.7')
    expect(normalizeIp('10.0.0.1')).toBe('10.0.0.1')
  })

  it('turns IPv4-mapped IPv6 into the IPv4 address', () => {
    expect(normalizeIp('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(normalizeIp('::FFFF:198.51.100.1')).toBe('198.51.100.1')
  })

  it('reduces IPv6 to its /64 network, expanded and lower-case', () => {
    expect(normalizeIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:0db8:85a3:08d3::/64')
    expect(normalizeIp('2001:DB8:85A3:8D3::1')).toBe('2001:0db8:85a3:08d3::/64')
  })

  it('expands compressed IPv6 before taking the /64', () => {
    expect(normalizeIp('2001:db8::1')).toBe('2001:0db8:0000:0000::/64')
    expect(normalizeIp('2001:db8:1::')).toBe('2001:0db8:0001:0000::/64')
    expect(normalizeIp('::1')).toBe('0000:0000:0000:0000::/64')
    expect(normalizeIp('fe80::abcd:1234:5678:9abc')).toBe('fe80:0000:0000:0000::/64')
    // '::' in the right half: the first four groups are written out.
    expect(normalizeIp('2001:db8:a:b::c:d')).toBe('2001:0db8:000a:000b::/64')
  })

  it('puts two addresses of one /64 in one bucket and a neighbouring /64 in another', () => {
    const a = normalizeIp('2001:db8:1:2::1')
    const b = normalizeIp('2001:db8:1:2:ffff:ffff:ffff:ffff')
    const c = normalizeIp('2001:db8:1:3::1')
    expect(a).toBe(b)
    expect(a).not.toBe(c)
    // The compressed and the full spelling of one address agree.
    expect(normalizeIp('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe(a)
  })

  it('leaves anything that is not an IP address unchanged', () => {
    expect(normalizeIp('unknown')).toBe('unknown')
  })
})

function probeApp(trustProxy: boolean) {
  const app = new Hono<AppEnv>()
  app.use(clientIp({ trustProxy }))
  app.all('*', (c) => c.json({ ip: c.get('clientIp'), forwarded: c.req.header(CLIENT_IP_HEADER) ?? null }))
  return async (headers: Record<string, string>) =>
    (await (await app.request('/', { headers })).json()) as { ip: string; forwarded: string | null }
}

describe('clientIp middleware', () => {
  it('behind a trusted proxy, reads X-Forwarded-For and normalises it', async () => {
    const probe = probeApp(true)
    expect(await probe({ 'x-forwarded-for': '203.0.113.9' })).toEqual({ ip: '203.0.113.9', forwarded: '203.0.113.9' })
    expect((await probe({ 'x-forwarded-for': '2001:db8:1:2::99' })).ip).toBe('2001:0db8:0001:0002::/64')
    expect((await probe({ 'x-forwarded-for': ' ::ffff:192.0.2.4 ' })).ip).toBe('192.0.2.4')
  })

  it('without a trusted proxy, ignores X-Forwarded-For', async () => {
    const probe = probeApp(false)
    const seen = await probe({ 'x-forwarded-for': '203.0.113.9' })
    expect(seen.ip).not.toBe('203.0.113.9')
    expect(seen.ip).toBeTruthy()
  })

  it('overwrites a client-sent copy of the internal client-ip header that Better Auth reads', async () => {
    const probe = probeApp(true)
    const seen = await probe({ 'x-forwarded-for': '203.0.113.9', [CLIENT_IP_HEADER]: '1.2.3.4' })
    expect(seen.forwarded).toBe('203.0.113.9')
    const untrusted = await probeApp(false)({ [CLIENT_IP_HEADER]: '1.2.3.4' })
    expect(untrusted.forwarded).not.toBe('1.2.3.4')
    expect(untrusted.forwarded).toBe(untrusted.ip)
  })

  it('uses the address the trusted proxy appended (right-most), not one the client can forge (left-most)', async () => {
    // A proxy such as nginx ($proxy_add_x_forwarded_for) appends the peer address to whatever
    // X-Forwarded-For the client sent. Taking the left-most entry lets every client pick its own
    // address and so escape every per-IP rate limit.
    const probe = probeApp(true)
    const first = await probe({ 'x-forwarded-for': '10.9.8.7, 203.0.113.50' })
    const second = await probe({ 'x-forwarded-for': '10.1.1.1, 203.0.113.50' })
    expect(first.ip).toBe('203.0.113.50')
    expect(second.ip).toBe(first.ip)
  })
})
