import { strToU8, unzip, zip, type Unzipped } from 'fflate'

const unzipAsync = (bytes: Uint8Array) =>
  new Promise<Unzipped>((resolve, reject) => unzip(bytes, (error, entries) => (error ? reject(error) : resolve(entries))))
const zipAsync = (entries: Unzipped) =>
  new Promise<Uint8Array>((resolve, reject) => zip(entries, { level: 6 }, (error, bytes) => (error ? reject(error) : resolve(bytes))))

/** Headers whose values are sign-ins of their own (a kept session is sealed like a vault secret: docs/decisions/025). */
const SIGN_IN_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization'])
export const HIDDEN_SIGN_IN = '(hidden)'

/** The ways a typed value shows in what a page sent or holds: as typed, in a URL or form, in JSON or HTML. */
function spellings(value: string): string[] {
  const inUrl = encodeURIComponent(value)
  const html = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  return [value, inUrl, inUrl.replace(/%20/g, '+'), JSON.stringify(value).slice(1, -1), html]
}

/** Replaces every spelling of every value with its placeholder, the longest values first. */
export function textMasker(hidden: ReadonlyMap<string, string>): (text: string) => string {
  const pairs = [...hidden]
    .filter(([value]) => value.length > 0)
    .sort(([a], [b]) => b.length - a.length)
    .flatMap(([value, placeholder]) => [...new Set(spellings(value))].map((spelling) => [spelling, placeholder] as const))
  return (text) => pairs.reduce((masked, [spelling, placeholder]) => masked.split(spelling).join(placeholder), text)
}

/** Masks the strings of a parsed trace event; numbers and names stay as Playwright wrote them. */
function maskValue(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value)
  if (Array.isArray(value)) return value.map((each) => maskValue(each, mask))
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).map(([key, each]): [string, unknown] => {
    // HAR cookies and headers (trace.network): the values of sign-ins are never kept.
    if (key === 'cookies' && Array.isArray(each))
      return [key, each.map((cookie: unknown) => (isNamed(cookie) ? { ...cookie, value: HIDDEN_SIGN_IN } : cookie))]
    return [key, maskValue(each, mask)]
  })
  const masked = Object.fromEntries(entries)
  if (isNamed(masked) && SIGN_IN_HEADERS.has(masked.name.toLowerCase())) masked.value = HIDDEN_SIGN_IN
  return masked
}

const isNamed = (value: unknown): value is { name: string; value: unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string' && 'value' in value

const utf8 = new TextDecoder('utf-8', { fatal: true })
function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null
  try {
    return utf8.decode(bytes)
  } catch {
    return null
  }
}

/**
 * A Playwright trace with no vault value in it (docs/decisions/060): every string of its events
 * (action parameters, DOM snapshots, network entries) and every text resource (request bodies,
 * pages) has each value the run used replaced by its placeholder, in the spellings a page uses;
 * cookies and sign-in headers lose their values. Pictures are left as they are: a run that may
 * type a vault value records none (see the executor).
 */
export async function maskTrace(trace: Uint8Array, hidden: ReadonlyMap<string, string>): Promise<Uint8Array> {
  const mask = textMasker(hidden)
  const entries = await unzipAsync(trace)
  const masked: Unzipped = {}
  for (const [name, bytes] of Object.entries(entries)) {
    const text = asText(bytes)
    if (text === null) masked[name] = bytes
    else if (/\.(trace|network)$/.test(name)) masked[name] = strToU8(maskLines(text, mask))
    else if (name.endsWith('.stacks')) continue
    else masked[name] = strToU8(mask(text))
  }
  return zipAsync(masked)
}

function maskLines(text: string, mask: (text: string) => string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line
      // Where in our code each call was made (`stack`, and trace.stacks) is ours, not the member's.
      const { stack: _stack, ...event } = JSON.parse(line) as Record<string, unknown>
      return JSON.stringify(maskValue(event, mask))
    })
    .join('\n')
}
