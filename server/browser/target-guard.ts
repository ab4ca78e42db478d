import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { Route } from 'playwright-core'

/**
 * Which addresses a cloud run may reach. Our worker runs inside our network, so a member's
 * automation must not become a way into it (SSRF): by default only public addresses are allowed.
 * docs/decisions/012-automations-credits-and-runs.md (Amended 2026-11-23).
 */
export type PrivateTargetPolicy = 'none' | 'loopback' | 'all'

export type AddressKind =
  'public' | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'cgnat' | 'multicast' | 'unspecified' | 'metadata' | 'reserved'

type V4Rule = readonly [base: string, bits: number, kind: AddressKind]

/** Checked in order: the first match wins (metadata addresses sit inside larger ranges). */
const V4_RULES: readonly V4Rule[] = [
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
  ['169.254.170.2', 32, 'metadata'], // AWS ECS task metadata
  ['168.63.129.16', 32, 'metadata'], // Azure wire server
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
  ['0.0.0.0', 8, 'unspecified'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use, and 255.255.255.255 broadcast
]

function v4ToNumber(ip: string): number {
  return ip.split('.').reduce((value, part) => value * 256 + Number(part), 0)
}

const V4_TABLE = V4_RULES.map(([base, bits, kind]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return { network: (v4ToNumber(base) & mask) >>> 0, mask, kind }
})

function classifyV4(value: number): AddressKind {
  for (const rule of V4_TABLE) if ((value & rule.mask) >>> 0 === rule.network) return rule.kind
  return 'public'
}

/** An IPv6 address as eight 16-bit groups (zone id dropped, an IPv4 tail expanded). */
function v6Groups(ip: string): number[] {
  let text = ip.split('%')[0] ?? ''
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4Tail?.[1]) {
    const n = v4ToNumber(v4Tail[1])
    text = `${text.slice(0, -v4Tail[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : [])
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0)
  return [...left, ...zeros, ...right]
}

function classifyV6(ip: string): AddressKind {
  const g = v6Groups(ip)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embeddedV4 = ((g6 << 16) >>> 0) + g7
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified'
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback'
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address is what the socket reaches.
  if (upperZero && g5 === 0xffff) return classifyV4(embeddedV4)
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address too.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return classifyV4(embeddedV4)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyV4(embeddedV4)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private' // local-use NAT64
  // 6to4 (2002:a.b.c.d::) routes to the IPv4 address inside.
  if (g0 === 0x2002) return classifyV4(((g1 << 16) >>> 0) + g2)
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return 'metadata' // AWS IMDS over IPv6
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local'
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'
  if ((g0 & 0xffc0) === 0xfec0) return 'private' // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast'
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved' // documentation
  if (g0 === 0x2001 && g1 < 0x0200) return 'reserved' // IETF protocol assignments, Teredo
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return 'reserved' // documentation (3fff::/20)
  // Everything outside 2000::/3 is unassigned, IPv4-compatible (::a.b.c.d) or discard (100::/64).
  if ((g0 & 0xe000) !== 0x2000) return 'reserved'
  return 'public'
}

/** What kind of address an IP literal is; anything that is not an IP address is 'reserved'. */
export function classifyAddress(ip: string): AddressKind {
  const family = isIP(ip.split('%')[0] ?? '')
  if (family === 4) return classifyV4(v4ToNumber(ip))
  if (family === 6) return classifyV6(ip)
  return 'reserved'
}

/** Whether the policy lets a cloud run reach an address of this kind. Metadata never. */
export function isAllowedKind(kind: AddressKind, policy: PrivateTargetPolicy): boolean {
  if (kind === 'public') return true
  if (kind === 'metadata') return false
  if (policy === 'all') return true
  return policy === 'loopback' && kind === 'loopback'
}

export type TargetVerdict =
  | { allowed: true; addresses: string[] }
  /** `unresolved`: the name does not resolve (DNS), no address was refused. */
  | { allowed: false; reason: string; address?: string; kind?: AddressKind; unresolved?: boolean }

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>

const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })
const LOOKUP_TIMEOUT_MS = 5_000
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:'])

/** The message a refused address gets; the tests and the run page show it as is. */
function refusalMessage(address: string, kind: AddressKind, policy: PrivateTargetPolicy, hostname?: string): string {
  const shown = hostname && hostname !== address ? `${address} (${hostname})` : address
  if (kind === 'metadata') return `the address ${shown} is a cloud metadata address; cloud runs never reach it`
  const reach = policy === 'loopback' ? 'public and loopback addresses' : 'public addresses'
  return `the address ${shown} is private; cloud runs may only reach ${reach}`
}

/**
 * Checks where a run's browser may go. A host is resolved (every address, IPv4 and IPv6) and
 * refused if ANY address is not allowed, so a name with one public and one private address cannot
 * slip through. One guard per run: its answers are cached for the run, and the proxy connects to
 * the very addresses checked here, so a DNS answer that changes later (rebinding) cannot reach a
 * private address.
 */
export function createTargetGuard(options: { policy: PrivateTargetPolicy; lookup?: LookupAll }) {
  const { policy } = options
  const lookup = options.lookup ?? systemLookup
  const cache = new Map<string, Promise<TargetVerdict>>()

  async function resolve(hostname: string): Promise<TargetVerdict> {
    const host = hostname
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '')
      .toLowerCase()
    if (!host) return { allowed: false, reason: 'the address has no host' }
    let addresses: string[]
    if (isIP(host)) {
      addresses = [host]
    } else {
      try {
        let timer: NodeJS.Timeout | undefined
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS)
        })
        const found = await Promise.race([lookup(host), timeout]).finally(() => clearTimeout(timer))
        addresses = found.map((entry) => entry.address)
      } catch {
        return { allowed: false, unresolved: true, reason: `the host ${host} could not be found` }
      }
      if (addresses.length === 0) return { allowed: false, unresolved: true, reason: `the host ${host} could not be found` }
    }
    for (const address of addresses) {
      const kind = classifyAddress(address)
      if (!isAllowedKind(kind, policy)) {
        return { allowed: false, address, kind, reason: refusalMessage(address, kind, policy, isIP(host) ? undefined : host) }
      }
    }
    return { allowed: true, addresses }
  }

  function checkHost(hostname: string): Promise<TargetVerdict> {
    const key = hostname.toLowerCase()
    let verdict = cache.get(key)
    if (!verdict) {
      verdict = resolve(key)
      cache.set(key, verdict)
    }
    return verdict
  }

  return {
    policy,
    checkHost,
    /** Only http(s) and ws(s) addresses are checked and may pass; any other scheme is refused. */
    async checkUrl(url: string): Promise<TargetVerdict> {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        return { allowed: false, reason: `${url} is not a valid address` }
      }
      if (!ALLOWED_SCHEMES.has(parsed.protocol)) {
        return { allowed: false, reason: `${parsed.protocol} addresses are not allowed; cloud runs use http and https` }
      }
      return checkHost(parsed.hostname)
    },
  }
}

export type TargetGuard = ReturnType<typeof createTargetGuard>

export interface BlockedRequest {
  url: string
  reason: string
  /** A page load (top-level document) rather than an image, script, fetch, … */
  navigation: boolean
}

/**
 * The route handler (context.route('**\/*', …)) that aborts every request the page makes to a
 * refused address: documents, frames, scripts, images, fetch and XHR. Chromium follows redirects
 * and opens WebSockets without asking routes, so the run's context also goes through the guard
 * proxy (target-guard-proxy.ts), which checks every connection.
 */
export function guardRoutes(guard: TargetGuard, onBlocked: (blocked: BlockedRequest) => void) {
  return async (route: Pick<Route, 'request' | 'abort' | 'continue'>) => {
    const request = route.request()
    const url = request.url()
    let verdict: TargetVerdict
    try {
      verdict = await guard.checkUrl(url)
    } catch {
      verdict = { allowed: false, reason: 'the address could not be checked' }
    }
    try {
      if (verdict.allowed) {
        await route.continue()
        return
      }
      // A name that does not resolve fails as it would without us, and is not reported as blocked.
      if (verdict.unresolved) {
        await route.abort('namenotresolved')
        return
      }
      onBlocked({ url, reason: verdict.reason, navigation: request.isNavigationRequest() })
      await route.abort('blockedbyclient')
    } catch {
      // The page or context closed meanwhile: nothing is left to continue or abort.
    }
  }
}
