import { once } from 'node:events'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startGuardProxy } from './target-guard-proxy.ts'
import {
  classifyAddress,
  createTargetGuard,
  guardRoutes,
  isAllowedKind,
  type AddressKind,
  type BlockedRequest,
  type LookupAll,
} from './target-guard.ts'

describe('classifyAddress', () => {
  it.each<[string, AddressKind]>([
    // IPv4
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.0.1', 'public'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:81c::200e', 'public'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    // IPv4 inside IPv6 is judged by the IPv4 address it reaches.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    // Not an address at all.
    ['localhost', 'reserved'],
    ['', 'reserved'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind)
  })
})

describe('isAllowedKind', () => {
  it('allows only public addresses by default, loopback when asked, never metadata', () => {
    expect(isAllowedKind('public', 'none')).toBe(true)
    expect(isAllowedKind('loopback', 'none')).toBe(false)
    expect(isAllowedKind('private', 'none')).toBe(false)
    expect(isAllowedKind('loopback', 'loopback')).toBe(true)
    expect(isAllowedKind('private', 'loopback')).toBe(false)
    expect(isAllowedKind('unspecified', 'loopback')).toBe(false)
    expect(isAllowedKind('private', 'all')).toBe(true)
    expect(isAllowedKind('link-local', 'all')).toBe(true)
    expect(isAllowedKind('metadata', 'all')).toBe(false)
  })
})

/** A resolver with fixed answers, like /etc/hosts. */
const fakeDns =
  (table: Record<string, string[]>): LookupAll =>
  async (hostname) => {
    const addresses = table[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

const DNS = fakeDns({
  'example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example': ['10.0.0.5'],
  // One public and one private answer: refused, or the browser might pick the private one.
  'mixed.example': ['93.184.216.34', '192.168.0.10'],
  'sneaky.example': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
})

describe('createTargetGuard', () => {
  it('resolves the host and refuses it when any of its addresses is not allowed', async () => {
    const guard = createTargetGuard({ policy: 'none', lookup: DNS })
    expect(await guard.checkUrl('https://example.com/path')).toEqual({
      allowed: true,
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    })
    expect(await guard.checkUrl('http://intranet.example/')).toMatchObject({
      allowed: false,
      address: '10.0.0.5',
      kind: 'private',
      reason: 'the address 10.0.0.5 (intranet.example) is private; cloud runs may only reach public addresses',
    })
    expect(await guard.checkUrl('http://mixed.example/')).toMatchObject({ allowed: false, address: '192.168.0.10' })
    expect(await guard.checkUrl('http://sneaky.example/')).toMatchObject({ allowed: false, kind: 'loopback' })
    expect(await guard.checkUrl('http://localhost:3000/')).toMatchObject({ allowed: false, kind: 'loopback' })
  })

  it('checks IP literals in every spelling the URL parser accepts', async () => {
    const guard = createTargetGuard({ policy: 'none', lookup: DNS })
    expect(await guard.checkUrl('http://127.0.0.1:8080/')).toMatchObject({
      allowed: false,
      reason: 'the address 127.0.0.1 is private; cloud runs may only reach public addresses',
    })
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0/']) {
      expect(await guard.checkUrl(url), url).toMatchObject({ allowed: false })
    }
    expect(await guard.checkUrl('http://169.254.169.254/latest/meta-data/')).toMatchObject({
      allowed: false,
      kind: 'metadata',
      reason: 'the address 169.254.169.254 is a cloud metadata address; cloud runs never reach it',
    })
  })

  it('refuses other schemes and unknown hosts', async () => {
    const guard = createTargetGuard({ policy: 'all', lookup: DNS })
    expect(await guard.checkUrl('file:///etc/passwd')).toMatchObject({ allowed: false })
    expect(await guard.checkUrl('ftp://example.com/')).toMatchObject({ allowed: false })
    expect(await guard.checkUrl('http://nowhere.example/')).toEqual({
      allowed: false,
      unresolved: true,
      reason: 'the host nowhere.example could not be found',
    })
  })

  it('lets loopback through with the loopback policy, and private networks only with all', async () => {
    const loopback = createTargetGuard({ policy: 'loopback', lookup: DNS })
    expect(await loopback.checkUrl('http://127.0.0.1:4000/')).toMatchObject({ allowed: true })
    expect(await loopback.checkUrl('http://localhost/')).toMatchObject({ allowed: true })
    expect(await loopback.checkUrl('http://intranet.example/')).toMatchObject({
      allowed: false,
      reason: 'the address 10.0.0.5 (intranet.example) is private; cloud runs may only reach public and loopback addresses',
    })
    const all = createTargetGuard({ policy: 'all', lookup: DNS })
    expect(await all.checkUrl('http://intranet.example/')).toMatchObject({ allowed: true })
    expect(await all.checkUrl('http://[fd00:ec2::254]/')).toMatchObject({ allowed: false, kind: 'metadata' })
  })

  it('asks DNS once per host and run', async () => {
    const lookup = vi.fn(DNS)
    const guard = createTargetGuard({ policy: 'none', lookup })
    await guard.checkUrl('https://example.com/a')
    await guard.checkUrl('https://EXAMPLE.com/b')
    await guard.checkHost('example.com')
    expect(lookup).toHaveBeenCalledTimes(1)
  })
})

describe('guardRoutes', () => {
  function fakeRoute(url: string, navigation = false) {
    return {
      request: () => ({ url: () => url, isNavigationRequest: () => navigation }),
      abort: vi.fn(async () => {}),
      continue: vi.fn(async () => {}),
    }
  }

  it('continues allowed requests and aborts the others, reporting why', async () => {
    const blocked: BlockedRequest[] = []
    const handler = guardRoutes(createTargetGuard({ policy: 'none', lookup: DNS }), (entry) => blocked.push(entry))

    const allowed = fakeRoute('https://example.com/app.js')
    await handler(allowed as never)
    expect(allowed.continue).toHaveBeenCalledOnce()
    expect(allowed.abort).not.toHaveBeenCalled()

    for (const url of ['http://10.0.0.1/admin', 'http://[::ffff:192.168.1.1]/', 'http://169.254.169.254/', 'http://intranet.example/x']) {
      const route = fakeRoute(url, url.endsWith('/x'))
      await handler(route as never)
      expect(route.abort, url).toHaveBeenCalledWith('blockedbyclient')
      expect(route.continue).not.toHaveBeenCalled()
    }
    expect(blocked.map((entry) => entry.url)).toEqual([
      'http://10.0.0.1/admin',
      'http://[::ffff:192.168.1.1]/',
      'http://169.254.169.254/',
      'http://intranet.example/x',
    ])
    expect(blocked[3]).toMatchObject({ navigation: true, reason: expect.stringContaining('is private') })
  })

  it('lets a name that does not resolve fail as it would anyway, without reporting it as blocked', async () => {
    const blocked: BlockedRequest[] = []
    const handler = guardRoutes(createTargetGuard({ policy: 'none', lookup: DNS }), (entry) => blocked.push(entry))
    const route = fakeRoute('https://nowhere.example/')
    await handler(route as never)
    expect(route.abort).toHaveBeenCalledWith('namenotresolved')
    expect(blocked).toEqual([])
  })

  it('does not throw when the page closed before the request could be answered', async () => {
    const handler = guardRoutes(createTargetGuard({ policy: 'none', lookup: DNS }), () => {})
    const route = fakeRoute('http://10.0.0.1/')
    route.abort.mockRejectedValueOnce(new Error('Target page, context or browser has been closed'))
    await expect(handler(route as never)).resolves.toBeUndefined()
  })
})

describe('startGuardProxy', () => {
  let target: Server
  let targetPort: number
  beforeAll(async () => {
    target = createServer((request, response) => {
      if (request.url === '/redirect') response.writeHead(302, { location: 'http://10.9.9.9/secret' }).end()
      else response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }).end(`hello ${request.url}`)
    })
    target.listen(0, '127.0.0.1')
    await once(target, 'listening')
    targetPort = (target.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve))
  })

  function viaProxy(proxyUrl: string, url: string) {
    const proxy = new URL(proxyUrl)
    return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const request = httpRequest({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: new URL(url).host } })
      request.on('response', (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }))
      })
      request.on('error', reject)
      request.end()
    })
  }

  function tunnel(proxyUrl: string, authority: string) {
    const proxy = new URL(proxyUrl)
    return new Promise<string>((resolve, reject) => {
      const socket = connect(Number(proxy.port), proxy.hostname, () =>
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`),
      )
      let answer = ''
      socket.on('data', (chunk) => {
        answer += chunk.toString()
        if (answer.includes('\r\n\r\n')) {
          socket.destroy()
          resolve(answer.split('\r\n')[0] ?? '')
        }
      })
      socket.on('error', reject)
    })
  }

  it('forwards allowed requests and refuses the others, including where a redirect leads', async () => {
    const blocked: BlockedRequest[] = []
    const proxy = await startGuardProxy(createTargetGuard({ policy: 'loopback', lookup: DNS }), (entry) => blocked.push(entry))
    try {
      const ok = await viaProxy(proxy.url, `http://127.0.0.1:${targetPort}/page?x=1`)
      expect(ok).toMatchObject({ status: 200, body: 'hello /page?x=1' })
      expect(ok.headers['set-cookie']).toEqual(['a=1', 'b=2'])

      // The redirect itself passes; the browser's next request, to the private address, does not.
      const redirect = await viaProxy(proxy.url, `http://127.0.0.1:${targetPort}/redirect`)
      expect(redirect.status).toBe(302)
      const refused = await viaProxy(proxy.url, 'http://10.9.9.9/secret')
      expect(refused.status).toBe(403)
      expect(refused.body).toContain('the address 10.9.9.9 is private')
      expect(blocked.map((entry) => entry.url)).toEqual(['http://10.9.9.9/secret'])

      expect(await tunnel(proxy.url, `127.0.0.1:${targetPort}`)).toBe('HTTP/1.1 200 Connection Established')
      expect(await tunnel(proxy.url, 'intranet.example:443')).toBe('HTTP/1.1 403 Forbidden')
      expect(await tunnel(proxy.url, '[::ffff:169.254.169.254]:80')).toBe('HTTP/1.1 403 Forbidden')
      // Not blocked, just not there: a bad gateway, and not reported.
      expect(await tunnel(proxy.url, 'nowhere.example:443')).toBe('HTTP/1.1 502 Bad Gateway')
      expect((await viaProxy(proxy.url, 'http://nowhere.example/')).status).toBe(502)
      expect(blocked).toHaveLength(3)
    } finally {
      await proxy.close()
    }
  })

  it('refuses loopback too under the default policy', async () => {
    const proxy = await startGuardProxy(createTargetGuard({ policy: 'none', lookup: DNS }), () => {})
    try {
      expect((await viaProxy(proxy.url, `http://127.0.0.1:${targetPort}/`)).status).toBe(403)
      expect(await tunnel(proxy.url, `localhost:${targetPort}`)).toBe('HTTP/1.1 403 Forbidden')
    } finally {
      await proxy.close()
    }
  })
})
