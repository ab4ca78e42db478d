import type { ElementDescriber } from '#common/element-description.ts'

/** A chain of simple parts joined by child combinators, as the describer's CSS paths are. */
const CHILD_CHAIN = /^[^\s,>+~]+(?: > [^\s,>+~]+)*$/

/**
 * The elements a CSS selector finds the way Playwright's CSS engine does for the selectors the
 * platform writes: in the document and every open shadow root, a child combinator stepping from a
 * shadow root's top to its host (so `fancy-button > button` reaches into the button's shadow
 * root). Throws for a selector that is not valid CSS.
 */
export function cssMatches(selector: string, describer: ElementDescriber, doc: Document): Element[] {
  doc.querySelector(selector) // throws a SyntaxError for invalid CSS
  const all = describer.allElements()
  const found = new Set(all.filter((element) => element.matches(selector)))
  if (!found.size && CHILD_CHAIN.test(selector)) {
    const parts = selector.split(' > ')
    const last = parts.pop() as string
    for (const element of all) {
      if (!element.matches(last)) continue
      let current: Element | null = element
      const fits = [...parts].reverse().every((part) => {
        current = current ? describer.parentOf(current) : null
        return current?.matches(part) ?? false
      })
      if (fits) found.add(element)
    }
  }
  return [...found]
}
