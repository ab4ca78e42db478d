import { cloneElement, isValidElement, useEffect, type ReactElement, type ReactNode } from 'react'
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
 * When a page's modules load: once the first contentful paint is on screen, or when the visitor
 * first reaches for a control that needs React (docs/decisions/037-reading-pages-hydrate-on-interaction.md).
 */
export type ScriptsStart = 'after-paint' | 'on-interaction'

/**
 * React Router's <Scripts>, with the page's modules fetched once the first contentful paint is
 * on screen (docs/decisions/035-inline-stylesheet-and-system-font.md), or later, at the first
 * interaction: the <link rel=modulepreload> hints leave the document and the module script waits,
 * then adds the same hints and imports the route modules and the entry as React Router does.
 * Anything else in its output passes through; output it does not recognise is left unchanged.
 */
export function PaintFirstScripts({ loadModules = 'after-paint', ...props }: ScriptsProps & { loadModules?: ScriptsStart }) {
  // Called as a function so its output can be adjusted; its hooks run as this component's own.
  const scripts = Scripts(props)
  if (import.meta.env.DEV || !scripts) return scripts
  return paintFirst(scripts, loadModules) ?? scripts
}

/** The marker before the list of modules the bootstrap preloads (scripts/bench/js-size.mjs reads it). */
export const PRELOAD_MARKER = '/* modulepreload after first paint */'
/** The same marker on a page whose modules wait for a control that needs React. */
export const INTERACTION_PRELOAD_MARKER = '/* modulepreload after the first interaction */'

/** Dispatched on window once React has hydrated the page; the root sets data-hydrated on <html> too. */
export const HYDRATED_EVENT = 'app:hydrated'

/** Announces the hydration: a bootstrap waiting for it replays the clicks it held (call once, in the root). */
export function useAnnounceHydrated() {
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '')
    window.dispatchEvent(new Event(HYDRATED_EVENT))
  }, [])
}

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

/**
 * The wait on a reading page: for the first use of a control that needs React. A control the
 * browser answers itself (one that opens a popover or a dialog, or submits its form) works as
 * HTML, so a visitor who reads, opens the menu, watches the demo, changes the theme or follows a
 * link loads no script at all; where `command` or popovers are not known, their buttons need React.
 * Pointing at, touching, focusing or pressing a control that needs React starts the download. A
 * click on one meanwhile is held, and replayed on the same element once React has hydrated the
 * page, once per control (a double tap is one press). If the modules fail to load, the held clicks
 * are replayed without React and clicks are let through again. Until React has hydrated, a link
 * followed inside an open popover (the menu's links to the page's own sections) closes it. A
 * popover's toggles say whether it is open (aria-expanded), as React does once it has hydrated.
 */
const WAIT_FOR_INTERACTION = `const controls = 'button, [role="button"], input[type="submit"], input[type="button"]'
const commands = 'commandForElement' in HTMLButtonElement.prototype
const popovers = 'popover' in HTMLElement.prototype
const answeredByHtml = (control) =>
  (popovers && control.matches('[popovertarget]')) ||
  (commands && control.matches('[commandfor]')) ||
  (control.type === 'submit' && Boolean(control.form))
const needingReact = (target) => {
  const control = target instanceof Element ? target.closest(controls) : null
  return control && !control.disabled && !answeredByHtml(control) ? control : null
}
const held = new Set()
const hold = (event) => {
  const control = needingReact(event.target)
  if (!control) return
  event.preventDefault()
  event.stopImmediatePropagation()
  held.add(control)
  document.documentElement.style.cursor = 'progress'
}
const closePopover = (event) => {
  const link = popovers && event.target instanceof Element ? event.target.closest('a[href]') : null
  link?.closest('[popover]:popover-open')?.hidePopover()
}
const release = () => {
  removeEventListener('click', hold, true)
  removeEventListener('click', closePopover)
  document.documentElement.style.removeProperty('cursor')
  const pressed = [...held].filter((control) => control.isConnected)
  held.clear()
  for (const control of pressed) control.click()
}
const interaction = new Promise((go) => {
  const triggers = ['pointerover', 'pointerdown', 'keydown', 'focusin', 'click']
  const start = (event) => {
    if (!needingReact(event.target)) return
    for (const name of triggers) removeEventListener(name, start, true)
    go()
  }
  for (const name of triggers) addEventListener(name, start, true)
})
addEventListener('click', hold, true)
addEventListener('click', closePopover)
addEventListener('toggle', (event) => {
  const popover = event.target
  if (!(popover instanceof Element) || !popover.id || !popover.hasAttribute('popover')) return
  for (const toggle of document.querySelectorAll('[popovertarget="' + CSS.escape(popover.id) + '"]'))
    toggle.setAttribute('aria-expanded', String(event.newState === 'open'))
}, true)
addEventListener(${JSON.stringify(HYDRATED_EVENT)}, release, { once: true })
await interaction;`

/** The adjusted output, or null when it is not what this expects. */
export function paintFirst(scripts: ReactElement, start: ScriptsStart = 'after-paint'): ReactElement | null {
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
  const deferred = codes.length === 1 && preloads.length > 0 ? deferImports(codes[0] ?? '', preloads, start) : null
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
export function deferImports(code: string, preloads: string[], start: ScriptsStart = 'after-paint'): string | null {
  const rewritten = code
    .replace(/^[ \t]*import \* as (\w+) from ("[^"\n]+");[ \t]*$/gm, 'const $1 = await import($2);')
    .replace(/^[ \t]*import ("[^"\n]+");[ \t]*$/gm, 'await import($1);')
    // The entry's dynamic import is awaited too, so a failure to load it is caught like the others'.
    .replace(/^([ \t]*)import\(("[^"\n]+")\);[ \t]*$/gm, '$1await import($2);')
  if (/^[ \t]*import[\s{*"']/m.test(rewritten)) return null
  const marker = start === 'on-interaction' ? INTERACTION_PRELOAD_MARKER : PRELOAD_MARKER
  const hints = `for (const href of ${marker} ${JSON.stringify(preloads)}) {
  const link = document.createElement('link')
  link.rel = 'modulepreload'
  link.href = href
  document.head.append(link)
}`
  if (start === 'after-paint') return `${WAIT_FOR_PAINT}\n${hints}\n${rewritten}`
  return `${WAIT_FOR_INTERACTION}\n${hints}\ntry {\n${rewritten}\n} catch (error) {\n  release()\n  throw error\n}`
}
