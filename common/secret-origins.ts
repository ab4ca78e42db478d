import { z } from './zod.ts'

/**
 * The sites a vault secret may be typed on (docs/decisions/039), as a password manager keeps
 * them: origins (scheme, host and port), such as `https://app.example.com`. A member may paste an
 * address or write a bare host; it is kept as the origin it names. The executor compares these
 * with the origin of the frame that holds the field, at the moment of typing.
 */

/** The most origins one secret names. */
export const MAX_SECRET_ORIGINS = 20
const MAX_ORIGIN_INPUT = 300

export type OriginVerdict = { ok: true; origin: string } | { ok: false; message: string }

/**
 * The origin a member's text names ('https://app.example.com/login' and 'app.example.com' both
 * name https://app.example.com), or why it names none: an http(s) address with a host, no user
 * name or password in it, no wildcard.
 */
export function normalizeOrigin(input: string): OriginVerdict {
  const text = input.trim()
  if (!text) return { ok: false, message: 'An origin is empty.' }
  if (text.length > MAX_ORIGIN_INPUT) return { ok: false, message: `An origin must be at most ${MAX_ORIGIN_INPUT} characters.` }
  if (text.includes('*')) return { ok: false, message: `${text}: name each site exactly; wildcards are not allowed.` }
  if (/\{\{|\}\}/.test(text)) return { ok: false, message: `${text}: an origin cannot hold a placeholder.` }
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/:]+:\d+(?:[/?#]|$)/.test(text)
  const address = hasScheme ? text : `https://${text}`
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return { ok: false, message: `${text} is not a web address (write it like https://app.example.com).` }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, message: `${text}: only http and https sites can receive a secret.` }
  if (!url.hostname) return { ok: false, message: `${text} names no host.` }
  if (url.username || url.password) return { ok: false, message: `${text}: leave the user name and password out of the address.` }
  return { ok: true, origin: url.origin }
}

/**
 * The origin of an address a frame shows, as the executor compares it: null for anything that is
 * not an http(s) page (about:blank, about:srcdoc, data:), whose origin is opaque or inherited.
 */
export function pageOrigin(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null
  } catch {
    return null
  }
}

/** The origins a list names, each once, in order; an issue on `ctx` when one is no origin, or the list is empty or too long. */
function checkedOrigins(items: readonly string[], ctx: z.RefinementCtx): string[] {
  const origins: string[] = []
  for (const item of items.map((each) => each.trim()).filter(Boolean)) {
    const verdict = normalizeOrigin(item)
    if (!verdict.ok) {
      ctx.addIssue({ code: 'custom', message: verdict.message })
      return z.NEVER
    }
    if (!origins.includes(verdict.origin)) origins.push(verdict.origin)
  }
  if (origins.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Name at least one site the secret may be used on, such as https://app.example.com.' })
    return z.NEVER
  }
  if (origins.length > MAX_SECRET_ORIGINS) {
    ctx.addIssue({ code: 'custom', message: `A secret may name at most ${MAX_SECRET_ORIGINS} sites.` })
    return z.NEVER
  }
  return origins
}

/** The API's origins: a list of sites, normalised, each once, at least one. */
export const secretOriginsSchema = z
  .array(z.string({ error: 'Each origin must be text.' }), {
    error: 'must be a list of the sites it may be typed on, such as ["https://app.example.com"].',
  })
  .max(100, 'Too many origins.')
  .transform((items, ctx) => checkedOrigins(items, ctx))

/** A form's origins: one site per line (or separated by commas). */
export const secretOriginsTextSchema = z
  .string({ error: 'Name at least one site the secret may be used on, such as https://app.example.com.' })
  .max(MAX_SECRET_ORIGINS * MAX_ORIGIN_INPUT, 'Too many origins.')
  .transform((text, ctx) => checkedOrigins(text.split(/[\n,]+/), ctx))
