import { createContext, useContext } from 'react'

/**
 * Reads the text of a built stylesheet on the server (`app/lib/stylesheet.server.ts`); given to
 * the page by `entry.server.tsx`. Null where there is none to inline (development, tests).
 */
export const StylesheetSource = createContext<((href: string) => string | null) | null>(null)

const fromPage = new Map<string, string | null>()

/** In the browser: the text the server inlined, so hydration renders the same element. */
function inlinedText(href: string): string | null {
  if (typeof document === 'undefined') return null
  if (!fromPage.has(href)) {
    const style = [...document.head.querySelectorAll('style[data-href]')].find((element) => element.getAttribute('data-href') === href)
    fromPage.set(href, style?.textContent ?? null)
  }
  return fromPage.get(href) ?? null
}

/**
 * The site's stylesheet in the page itself (docs/decisions/035-inline-stylesheet-and-system-font.md): the first
 * paint waits for no second request. Falls back to a <link> when the server has no text for it
 * (Vite's development server).
 */
export function Stylesheet({ href }: { href: string }) {
  const read = useContext(StylesheetSource)
  const css = read ? read(href) : inlinedText(href)
  if (css === null) return <link rel="stylesheet" href={href} />
  return <style data-href={href} dangerouslySetInnerHTML={{ __html: css }} />
}
