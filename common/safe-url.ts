// Which link targets Markdown content may carry (spec section 2, /blog/{slug}): http, https, mailto,
// tel, relative paths, #anchors and ?query-only links. Everything else becomes a harmless '#'.

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel'])

/** The harmless link an unsafe URL is replaced with. */
export const UNSAFE_URL_REPLACEMENT = '#'

const NAMED_ENTITIES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  lpar: '(',
  rpar: ')',
  sol: '/',
  amp: '&',
  nbsp: '\u00a0',
}

/**
 * The URL as a browser would read its scheme: character references decoded (in case the text
 * reaches an attribute unescaped), ASCII tab and newlines removed anywhere, C0 controls and spaces
 * trimmed at both ends.
 */
function normalise(url: string): string {
  const decoded = url.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity
  })
  // eslint-disable-next-line no-control-regex -- the URL standard strips exactly these characters
  return decoded.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
}

/** True for http(s), mailto and tel links, relative paths, #fragments and ?queries. */
export function isSafeUrl(url: string): boolean {
  const value = normalise(url)
  // A scheme is whatever precedes the first ':' that comes before any '/', '?' or '#'. A relative
  // path can have no such colon, so anything with one must name an allowed scheme, exactly.
  const end = value.search(/[/?#]/)
  const head = end === -1 ? value : value.slice(0, end)
  const colon = head.indexOf(':')
  if (colon === -1) return !/[\u0000-\u001f\u007f]/.test(value) // eslint-disable-line no-control-regex -- controls never belong in a link
  const scheme = head.slice(0, colon)
  return /^[a-z][a-z0-9+.-]*$/i.test(scheme) && ALLOWED_SCHEMES.has(scheme.toLowerCase())
}

/** The URL itself when it is safe, else the harmless replacement. */
export function safeUrl(url: string): string {
  return isSafeUrl(url) ? url.trim() : UNSAFE_URL_REPLACEMENT
}

/** Absolute http(s) or protocol-relative links leave the site: they open in a new tab, unendorsed. */
export function isExternalUrl(url: string): boolean {
  return /^(https?:)?\/\//i.test(normalise(url).replace(/\\/g, '/'))
}
