import type { ElementDescriber } from '#common/element-description.ts'
import type { TargetAlternative } from '#common/targets.ts'
import { insideContainer } from './page-containers.ts'

/** Words compared the way Playwright's locators compare them: part of it, any case; or, exact, the whole (case kept). */
function wordsMatch(text: string, wanted: string, exact: boolean | undefined): boolean {
  const have = text.replace(/\s+/g, ' ').trim()
  const want = wanted.replace(/\s+/g, ' ').trim()
  return exact ? have === want : have.toLowerCase().includes(want.toLowerCase())
}

/** getByPlaceholder compares the attribute as written: part of it in any case, or exactly. */
function attributeMatches(value: string | null, wanted: string, exact: boolean | undefined): boolean {
  if (value === null) return false
  return exact ? value === wanted : value.toLowerCase().includes(wanted.toLowerCase())
}

/**
 * The innermost elements whose text holds the words, as getByText finds them: an element whose
 * child element (or shadow root) holds them too gives way to that child.
 */
function textMatches(describer: ElementDescriber, elements: Element[], text: string, exact: boolean | undefined): Element[] {
  const holds = (node: Node) => wordsMatch(describer.fullTextOf(node), text, exact)
  return elements.filter((element) => {
    if (['SCRIPT', 'NOSCRIPT', 'STYLE'].includes(element.tagName) || element.closest('head')) return false
    if (!holds(element)) return false
    if ([...element.children].some(holds)) return false
    return !(element.shadowRoot && holds(element.shadowRoot))
  })
}

/**
 * The visible elements of the describer's document that one alternative finds, the way the
 * runners' locators (server/browser/target-resolver.ts) find them: open shadow roots included,
 * frames not; inside its container and at its position when it names them (docs/decisions/042).
 * A CSS path from the describer is not counted here: it is unique by construction.
 */
export function matchesOf(alternative: TargetAlternative, describer: ElementDescriber): Element[] {
  const own = ownMatches(alternative, describer)
  if (!('within' in alternative) && !('nth' in alternative)) return own
  const texts = (words: string, exact: boolean) => textMatches(describer, describer.allElements(), words, exact)
  const inside = alternative.within ? insideContainer(alternative.within, own, describer, wordsMatch, texts) : own
  if (alternative.nth === undefined) return inside
  const nth = inside[alternative.nth - 1]
  return nth ? [nth] : []
}

function ownMatches(alternative: TargetAlternative, describer: ElementDescriber): Element[] {
  const all = describer.allElements()
  const found = (() => {
    switch (alternative.by) {
      case 'role':
        return all.filter(
          (element) =>
            describer.roleOf(element) === alternative.role &&
            (alternative.name === undefined || wordsMatch(describer.nameOf(element), alternative.name, alternative.exact)),
        )
      case 'label':
        return all.filter((element) => describer.labelsOf(element).some((label) => wordsMatch(label, alternative.text, alternative.exact)))
      case 'placeholder':
        return all.filter((element) => attributeMatches(element.getAttribute('placeholder'), alternative.text, alternative.exact))
      case 'text':
        return textMatches(describer, all, alternative.text, alternative.exact)
      case 'testId':
        return all.filter((element) => element.getAttribute('data-testid') === alternative.id)
      case 'css':
      case 'xpath':
      case 'column':
        return []
    }
  })()
  return found.filter((element) => describer.isVisible(element))
}
