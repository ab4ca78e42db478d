import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react'
import { Scripts } from 'react-router'

type ScriptsProps = Parameters<typeof Scripts>[0]
type Element = ReactElement<{
  children?: ReactNode
  rel?: string
  href?: string
  type?: string
  dangerouslySetInnerHTML?: { __html: string }
}>

/**
 * React Router's <Scripts>, with the page's modules fetched once the first contentful paint is
 * on screen (docs/decisions/035-inline-stylesheet-and-system-font.md): the <link rel=modulepreload>
 * hints leave the document and the module script waits for the paint (at most a second), then
 * adds the same hints and imports the route modules and the entry as React Router does.
 * Anything else in its output passes through; output it does not recognise is left unchanged.
 */
export function PaintFirstScripts(props: ScriptsProps) {
  // Called as a function so its output can be adjusted; its hooks run as this component's own.
  const scripts = Scripts(props)
  if (import.meta.env.DEV || !scripts) return scripts
  return paintFirst(scripts) ?? scripts
}

/** The marker before the list of modules the bootstrap preloads (scripts/bench/js-size.mjs reads it). */
export const PRELOAD_MARKER = '/* modulepreload after first paint */'

/** The bootstrap's wait: the first contentful paint (or a second at most); none for a hidden page. */
const WAIT_FOR_PAINT = `await new Promise((go) => {
  const start = () => setTimeout(go, 0)
  if (document.visibilityState !== 'visible' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return start()
  const latest = setTimeout(go, 1000)
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return
    observer.disconnect()
    clearTimeout(latest)
    start()
  }).observe({ type: 'paint', buffered: true })
});`

/** The adjusted output, or null when it is not what this expects. */
export function paintFirst(scripts: ReactElement): ReactElement | null {
  // First the hints: collected in document order and taken out.
  const preloads: string[] = []
  const codes: string[] = []
  const withoutHints = mapElements(scripts, (element) => {
    if (element.type === 'link' && element.props.rel === 'modulepreload' && element.props.href) {
      preloads.push(element.props.href)
      return null
    }
    if (element.type === 'script' && element.props.type === 'module') codes.push(element.props.dangerouslySetInnerHTML?.__html ?? '')
    return undefined
  })
  const deferred = codes.length === 1 && preloads.length > 0 ? deferImports(codes[0] ?? '', preloads) : null
  if (deferred === null) return null
  // Then the bootstrap: it waits for the paint, adds the hints back and imports.
  return mapElements(withoutHints, (element) =>
    element.type === 'script' && element.props.type === 'module'
      ? cloneElement(element, { dangerouslySetInnerHTML: { __html: deferred } })
      : undefined,
  ) as ReactElement
}

/** Rebuilds a tree of elements; `change` answers an element's replacement, or undefined to keep it (and walk its children). */
function mapElements(node: ReactNode, change: (element: Element) => ReactNode | undefined): ReactNode {
  if (Array.isArray(node)) return node.map((child) => mapElements(child, change))
  if (!isValidElement(node)) return node
  const element = node as Element
  const replaced = change(element)
  if (replaced !== undefined) return replaced
  const children = element.props.children
  if (children === undefined) return element
  const mapped = mapElements(children, change)
  // Passed as separate arguments, as React Router created them: a list there is not a keyed list.
  return Array.isArray(mapped) ? cloneElement(element, undefined, ...(mapped as ReactNode[])) : cloneElement(element, undefined, mapped)
}

/**
 * React Router's bootstrap: after the wait, the module hints, then its static imports as awaited
 * dynamic ones in the same order; null if a static import is left that this does not know.
 */
export function deferImports(code: string, preloads: string[]): string | null {
  const rewritten = code
    .replace(/^[ \t]*import \* as (\w+) from ("[^"\n]+");[ \t]*$/gm, 'const $1 = await import($2);')
    .replace(/^[ \t]*import ("[^"\n]+");[ \t]*$/gm, 'await import($1);')
  if (/^[ \t]*import[\s{*"']/m.test(rewritten)) return null
  const hints = `for (const href of ${PRELOAD_MARKER} ${JSON.stringify(preloads)}) {
  const link = document.createElement('link')
  link.rel = 'modulepreload'
  link.href = href
  document.head.append(link)
}`
  return `${WAIT_FOR_PAINT}\n${hints}\n${rewritten}`
}
