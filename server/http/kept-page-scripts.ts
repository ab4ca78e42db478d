import { createHash } from 'node:crypto'

// What a kept page (page-cache.ts) carries instead of a nonce: the hashes of its own inline scripts (docs/decisions/033).

/** A same-origin path ('/assets/…', not '//host/…'), allowed by 'self' without a nonce. */
const SAME_ORIGIN = /^\/(?!\/)/
const SCRIPT_OR_LINK = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>|<link\b([^>]*)>/gi

/**
 * The page without its nonce, and the hashes of the inline scripts that carried it: the scripts
 * React Router and React wrote. Markup the page shows from elsewhere (a post's text) cannot carry
 * the nonce, which was random and unknown until this render, so its scripts get no hash and stay
 * blocked, as the nonce blocked them. The nonce also leaves the loader data (root's `cspNonce`),
 * before the hashing. Null when the nonce is on anything else (a stylesheet or script of another
 * origin would need it): such a page is rendered every time.
 */
export function withScriptHashes(html: string, nonce: string | undefined): { html: string; scriptHashes: string[] } | null {
  if (!nonce) return null
  const attribute = ` nonce="${nonce}"`
  const hashes = new Set<string>()
  let unknown = false
  const stripped = html.replace(SCRIPT_OR_LINK, (tag: string, scriptAttributes?: string, content?: string, linkAttributes?: string) => {
    const attributes = scriptAttributes ?? linkAttributes ?? ''
    if (!attributes.includes(attribute)) return tag
    const rest = attributes.replace(attribute, '')
    if (linkAttributes !== undefined) {
      if (!SAME_ORIGIN.test(/\shref="([^"]*)"/.exec(rest)?.[1] ?? '')) unknown = true
      return `<link${rest}>`
    }
    const src = /\ssrc="([^"]*)"/.exec(rest)?.[1]
    if (src !== undefined) {
      if (!SAME_ORIGIN.test(src) || (content ?? '') !== '') unknown = true
      return `<script${rest}></script>`
    }
    const text = (content ?? '').replaceAll(nonce, '')
    // The HTML parser turns CR LF and lone CR into LF before a script's text is hashed.
    // Every script the render signed, data blocks (JSON-LD) too: so every script element of a kept
    // page is one its policy names, and a JSON text cannot do anything when run as a script.
    hashes.add(`'sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('base64')}'`)
    return `<script${rest}>${text}</script>`
  })
  if (unknown || stripped.includes(nonce)) return null
  return { html: stripped, scriptHashes: [...hashes] }
}
