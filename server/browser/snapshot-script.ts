import { CARD_TAGS, isCard } from '#common/container-selectors.ts'
import { containerHints, type ContainerHint } from '#common/container-hints.ts'
import { elementDescriber, type ElementDescriber, type ElementDescription } from '#common/element-description.ts'

// collectElements runs inside the page: no imports, no closures over Node values. It lists what a
// person can see and use on the page, each element described by the describer the extension's
// recorder uses too (common/element-description.ts). page-snapshot.ts turns the result into
// suggested targets.

export interface RawElement extends ElementDescription {
  /** The field's current value (never a password's). */
  value: string | null
  options: string[] | null
  box: { x: number; y: number; width: number; height: number }
  /** A control that opens and closes a part of the page says which it is now (aria-expanded). */
  expanded?: boolean
  /** Where it sits, for naming it when its own words repeat (interactive elements only; docs/decisions/042). */
  within?: ContainerHint[]
}

export interface RawSnapshot {
  url: string
  title: string
  elements: RawElement[]
  truncated: boolean
}

/**
 * The expression page.evaluate runs: collectElements given a describer made in the page. esbuild's
 * keepNames (tsx: npm run bench:planner) wraps functions in `__name(…)`, which the page lacks.
 */
export function collectElementsScript(maxElements: number): string {
  const describer = `(${elementDescriber.toString()})()`
  const card = `(element) => (${isCard.toString()})(element, ${JSON.stringify(CARD_TAGS)})`
  const hints = `(element, describer) => (${containerHints.toString()})(element, describer, ${card})`
  return `(() => { const __name = (fn) => fn; return (${collectElements.toString()})(${JSON.stringify(maxElements)}, ${describer}, ${hints}) })()`
}

export function collectElements(
  maxElements: number,
  describer: ElementDescriber,
  hintsOf: (element: Element, describer: ElementDescriber) => ContainerHint[],
): RawSnapshot {
  const INTERACTIVE = describer.interactive
  const READABLE =
    'h1, h2, h3, h4, h5, h6, th, td, li, label, [role=heading], [role=cell], [role=row], dt, dd, caption, legend, p, pre, blockquote'
  const { clean } = describer
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect()
    if (box.width < 1 || box.height < 1) return false
    const style = getComputedStyle(element)
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0
  }
  const everything = describer.allElements()
  const matching = (selector: string) => everything.filter((element) => element.matches(selector))

  /** Its own aria-expanded, else, for a heading's name beside the button that opens its section, that button's. */
  const expandedOf = (element: Element) => {
    const own = element.getAttribute('aria-expanded')
    if (own) return own
    const heading = element.closest('h1, h2, h3, h4, h5, h6, [role=heading]')
    const toggles = heading && heading.contains(element) ? heading.querySelectorAll('[aria-expanded]') : []
    return toggles.length === 1 ? toggles[0]?.getAttribute('aria-expanded') : null
  }
  const seen = new Set<Element>()
  const elements: RawElement[] = []
  let truncated = false
  const add = (element: Element) => {
    if (seen.has(element) || !visible(element)) return
    seen.add(element)
    if (elements.length >= maxElements) {
      truncated = true
      return
    }
    const description = describer.describe(element)
    const { tag, type } = description
    const box = element.getBoundingClientRect()
    const expanded = expandedOf(element)
    elements.push({
      ...(expanded === 'true' || expanded === 'false' ? { expanded: expanded === 'true' } : {}),
      ...description,
      value: type === 'password' ? null : tag === 'input' || tag === 'textarea' ? clean((element as HTMLInputElement).value) : null,
      options:
        tag === 'select'
          ? [...(element as HTMLSelectElement).options].slice(0, 30).map((option) => clean(option.label) ?? option.value)
          : null,
      box: { x: Math.round(box.x + scrollX), y: Math.round(box.y + scrollY), width: Math.round(box.width), height: Math.round(box.height) },
      within: description.interactive ? hintsOf(element, describer) : [],
    })
  }
  matching(INTERACTIVE).forEach(add)
  // Words of their own around links ('This notebook keeps the Packing list and the Reading list.').
  const ownWords = (element: Element) => {
    const copy = element.cloneNode(true) as Element
    copy.querySelectorAll(INTERACTIVE).forEach((inner) => inner.remove())
    return (copy.textContent ?? '').split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
  }
  matching(READABLE).forEach((element) => {
    // Text that only repeats an interactive element inside it is not worth a line of its own.
    if (element.querySelector(INTERACTIVE) && element.tagName.toLowerCase() !== 'td' && ownWords(element) < 3) return
    add(element)
  })
  // Text in plain boxes ('<span class="total">$42</div>', a message in a <div>): the innermost
  // element that holds it, unless a readable element around it was listed already.
  const listed = (element: Element) => [...seen].some((other) => other !== element && other.contains(element))
  const BOXES = 'div, span, strong, b, em, output, time, small, section, article'
  // '<span><strong>3</strong><ng-pluralize>items left</ng-pluralize></span>': words in an element
  // of the app's own are never listed alone, so the line they are part of is.
  const holdsUnlistedWords = (element: Element) =>
    element.children.length > 0 &&
    [...element.children].every((child) => getComputedStyle(child).display.startsWith('inline')) &&
    [...element.children].some((child) => child.tagName.includes('-') && ((child as HTMLElement).innerText || '').trim())
  matching(BOXES).forEach((element) => {
    if (elements.length >= maxElements || element.closest(INTERACTIVE) || element.querySelector(INTERACTIVE)) return
    const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim())
    if (
      !(ownText || holdsUnlistedWords(element)) ||
      element.querySelector('div, p, li, table, ul, ol, section, article, h1, h2, h3, h4, h5, h6')
    )
      return
    const text = ((element as HTMLElement).innerText || '').trim()
    if (!text || text.length > 200 || listed(element)) return
    add(element)
  })
  elements.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
  return { url: location.href, title: document.title, elements, truncated }
}
