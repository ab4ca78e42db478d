// The encodings a kept page (page-cache.ts) is sent in, and the validators of a conditional request.

export type Encoding = 'br' | 'gzip' | 'identity'

let lastAccept: { header: string; encoding: Encoding } = { header: '', encoding: 'identity' }

/** Brotli, else gzip, else the page as it is: what Accept-Encoding allows (q=0 refuses; * stands for the rest). */
export function preferredEncoding(header: string | null | undefined): Encoding {
  if (!header) return 'identity'
  if (header === lastAccept.header) return lastAccept.encoding
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';')
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined)
    weights.set(name.trim().toLowerCase(), q === undefined ? 1 : Number(q))
  }
  const accepted = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0
  const encoding = accepted('br') ? 'br' : accepted('gzip') ? 'gzip' : 'identity'
  lastAccept = { header, encoding }
  return encoding
}

/** If-None-Match: `*`, or a list of entity tags compared weakly (RFC 9110, 13.1.2). */
export function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

/** The page's Vary with Accept-Encoding added: caches between us and the visitor keep one copy per encoding. */
export function varyWithAcceptEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding'
  if (vary.trim() === '*' || /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) return vary
  return `${vary}, Accept-Encoding`
}
