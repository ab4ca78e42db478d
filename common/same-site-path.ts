/**
 * A redirect target that stays on our site: the path (with query and fragment) that a browser
 * would go to, read as a browser reads a Location header (tabs and newlines dropped, backslashes
 * as slashes, `//host` another site), re-encoded so that no character can break the header.
 * Null for anything that leaves the site, and for anything that is not a path to begin with.
 */
export function sameSitePath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null
  const base = 'http://same-site.invalid'
  let url: URL
  try {
    url = new URL(value, base)
  } catch {
    return null
  }
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null
}
