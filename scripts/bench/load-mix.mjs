// The workload of the load benchmark: request classes, their default weights, and how the
// overall rate and connections are shared between them.
//
// Every class has its own share of the rate and connections (see load-run.mjs), and so its own
// latency figures. Within a class the paths are taken in turn.

/** Default share of the requests, in percent of the overall rate. */
export const DEFAULT_MIX = { pages: 30, blog: 35, member: 15, admin: 10, inquiry: 8, signin: 2 }

/**
 * The classes. `group` is what the targets are checked against: API reads (p99 ≤ 25 ms) are the
 * blog API, the member's reads and the admin lists.
 */
export const CLASSES = {
  pages: { label: 'public pages', group: 'pages' },
  blog: { label: 'blog API', group: 'api-read' },
  member: { label: 'member reads', group: 'api-read' },
  admin: { label: 'admin lists', group: 'api-read' },
  inquiry: { label: 'inquiry posts', group: 'write' },
  signin: { label: 'sign-ins', group: 'sign-in' },
}

/** Parses "pages=30,blog=35,…"; classes left out keep their default, 0 leaves a class out. */
export function parseMix(text) {
  const mix = { ...DEFAULT_MIX }
  if (!text) return mix
  for (const part of text.split(',')) {
    const [name, value] = part.split('=').map((piece) => piece?.trim())
    if (!(name in CLASSES)) throw new Error(`--mix: unknown class "${name}" (classes: ${Object.keys(CLASSES).join(', ')})`)
    const weight = Number(value)
    if (!Number.isFinite(weight) || weight < 0) throw new Error(`--mix: ${name} needs a weight ≥ 0, got "${value}"`)
    mix[name] = weight
  }
  if (!Object.values(mix).some((weight) => weight > 0)) throw new Error('--mix: every weight is 0')
  return mix
}

/**
 * Shares `total` (requests per second, or connections) by weight: whole numbers that add up to
 * `total` (largest remainders), at least `min` for every class with a weight.
 */
export function share(mix, total, min = 0) {
  const active = Object.entries(mix).filter(([, weight]) => weight > 0)
  const sum = active.reduce((acc, [, weight]) => acc + weight, 0)
  const exact = active.map(([name, weight]) => ({ name, value: (total * weight) / sum }))
  const result = Object.fromEntries(exact.map(({ name, value }) => [name, Math.max(min, Math.floor(value))]))
  let left = total - Object.values(result).reduce((acc, value) => acc + value, 0)
  for (const { name } of [...exact].sort((a, b) => (b.value % 1) - (a.value % 1))) {
    if (left <= 0) break
    result[name] += 1
    left -= 1
  }
  return result
}

/**
 * A new address for every anonymous request (10.0.0.0/8, in turn), sent as X-Forwarded-For to
 * a server with TRUST_PROXY=true. The sign-in (30 per 10 minutes) and inquiry (5 per 10 minutes)
 * limits are per address: with one address the run would measure the limiter's 429s, not the
 * server. Every address also gets its own counter row of the general API limit, as many real
 * clients would.
 */
export function addressSource() {
  let next = 1
  return () => {
    const n = (next++ % 0xfffffe) + 1
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
  }
}

/**
 * The autocannon `requests` of each class.
 * @param {{ slug: string | null, admin: string, member: string, memberAccount: { email: string, password: string }, address: () => string }} context
 */
export function requestsFor(name, { slug, admin, member, memberAccount, address }) {
  const json = { 'content-type': 'application/json', accept: 'application/json' }
  const anonymous = (request) => ({
    ...request,
    setupRequest(req) {
      req.headers['x-forwarded-for'] = address()
      return req
    },
  })
  const bearer = (token) => (request) => ({ ...request, headers: { ...json, authorization: `Bearer ${token}` } })
  switch (name) {
    case 'pages':
      return ['/', '/services', '/blog', ...(slug ? [`/blog/${encodeURIComponent(slug)}`] : []), '/about'].map((path) =>
        anonymous({ method: 'GET', path, headers: { accept: 'text/html' } }),
      )
    case 'blog':
      return ['/api/blog', ...(slug ? [`/api/blog/${encodeURIComponent(slug)}`] : [])].map((path) =>
        anonymous({ method: 'GET', path, headers: json }),
      )
    case 'member':
      return ['/api/auth/me', '/api/automations'].map((path) => bearer(member)({ method: 'GET', path }))
    case 'admin':
      return ['/api/users', '/api/contact'].map((path) => bearer(admin)({ method: 'GET', path }))
    case 'inquiry': {
      let n = 0
      return [
        {
          method: 'POST',
          path: '/api/contact',
          headers: json,
          setupRequest(req) {
            n += 1
            req.headers['x-forwarded-for'] = address()
            req.body = JSON.stringify({
              name: `Load test ${n}`,
              email: `load-${n}@bench.test`,
              projectType: 'data-scraping',
              message: `Inquiry ${n} of the load benchmark: we would like a price for a weekly scrape of 2,000 product pages.`,
            })
            return req
          },
        },
      ]
    }
    case 'signin':
      return [anonymous({ method: 'POST', path: '/api/auth/login', headers: json, body: JSON.stringify(memberAccount) })]
    default:
      throw new Error(`unknown class ${name}`)
  }
}
