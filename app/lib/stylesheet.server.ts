import { readFileSync } from 'node:fs'
import path from 'node:path'

const texts = new Map<string, string | null>()

/**
 * The text of a stylesheet the client build wrote to build/client (`/assets/app-….css`), read
 * once, for the page to carry it inline (docs/decisions/035-inline-stylesheet-and-system-font.md). Null for any
 * other address, a missing file, and a text that could close the <style> element early: the page
 * then links to the file as before. (In development Vite serves the stylesheet: not called.)
 */
export function builtStylesheet(href: string, clientDir = path.resolve('build/client')): string | null {
  if (!/^\/assets\/[\w.-]+\.css$/.test(href)) return null
  const key = `${clientDir}\n${href}`
  if (!texts.has(key)) {
    let text: string | null
    try {
      text = readFileSync(path.join(clientDir, href), 'utf8')
    } catch {
      text = null
    }
    texts.set(key, text !== null && !/<\/style/i.test(text) ? text : null)
  }
  return texts.get(key) ?? null
}
