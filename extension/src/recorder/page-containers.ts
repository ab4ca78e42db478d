import { DIALOG_SELECTOR, FORM_SELECTOR, isCard, ITEM_SELECTOR, ROW_SELECTOR } from '#common/container-selectors.ts'
import type { ElementDescriber } from '#common/element-description.ts'
import type { TargetContainer } from '#common/target-containers.ts'

/** Whether `inner` is below `outer` (not `outer` itself), open shadow roots crossed as Playwright's `has` crosses them. */
function isBelow(inner: Element, outer: Element, describer: ElementDescriber): boolean {
  for (let current = describer.parentOf(inner); current; current = describer.parentOf(current)) if (current === outer) return true
  return false
}

/** Every element that may be a container of this kind, before its words are looked at. */
function candidates(kind: TargetContainer['kind'], all: Element[]): Element[] {
  switch (kind) {
    case 'row':
      return all.filter((element) => element.matches(ROW_SELECTOR))
    case 'item':
      return all.filter((element) => element.matches(ITEM_SELECTOR))
    case 'card':
      return all.filter((element) => isCard(element))
    case 'dialog':
      return all.filter((element) => element.matches(DIALOG_SELECTOR))
    case 'form':
      return all.filter((element) => element.matches(FORM_SELECTOR))
    case 'section':
    case 'near':
      return all
  }
}

/**
 * The elements found inside the container, as the server's locator chain finds them
 * (server/browser/container-locator.ts, docs/decisions/042): the containers of its kind that show
 * its words and hold one of the elements, only the innermost of those, then the elements inside.
 * `texts(words, exact)` is getByText's answer in the whole page (not only visible elements).
 */
export function insideContainer(
  container: TargetContainer,
  inner: Element[],
  describer: ElementDescriber,
  wordsMatch: (text: string, wanted: string, exact: boolean | undefined) => boolean,
  texts: (words: string, exact: boolean) => Element[],
): Element[] {
  const all = describer.allElements()
  const { text, exact } = container
  const shows = (() => {
    if (text === undefined) return () => true
    if (container.kind === 'section') {
      const headings = all.filter(
        (element) => describer.roleOf(element) === 'heading' && wordsMatch(describer.nameOf(element), text, exact),
      )
      return (element: Element) => headings.some((heading) => isBelow(heading, element, describer))
    }
    const holdsText = exact
      ? (() => {
          const found = texts(text, true)
          return (element: Element) => found.some((match) => isBelow(match, element, describer))
        })()
      : (element: Element) => wordsMatch(describer.fullTextOf(element), text, false)
    if (container.kind !== 'dialog' && container.kind !== 'form') return holdsText
    const roles = container.kind === 'dialog' ? ['dialog', 'alertdialog'] : ['form']
    return (element: Element) =>
      holdsText(element) || (roles.includes(describer.roleOf(element) ?? '') && wordsMatch(describer.nameOf(element), text, exact))
  })()
  const holding = candidates(container.kind, all).filter(
    (element) => shows(element) && inner.some((found) => isBelow(found, element, describer)),
  )
  const innermost = holding.filter((element) => !holding.some((other) => other !== element && isBelow(other, element, describer)))
  return inner.filter((found) => innermost.some((element) => isBelow(found, element, describer)))
}
