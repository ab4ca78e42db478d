/**
 * An Aether site's address as a client keeps it: http(s), its path without the trailing slash
 * (a site may live under a path behind a proxy); null when the text is not one.
 */
export function serverAddress(given: string): string | null {
  const text = given.trim()
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return null
  const url = new URL(text)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}
