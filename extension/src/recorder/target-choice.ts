import { isCard } from '#common/container-selectors.ts'
import { containerHints } from '#common/container-hints.ts'
import { elementDescriber, type ElementDescriber } from '#common/element-description.ts'
import { placedCandidates, SUGGESTED_ALTERNATIVES, targetCandidates } from '#common/target-candidates.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { framePath, inFrames } from './frame-path.ts'
import { matchesOf } from './page-matches.ts'

const WORDS: readonly TargetAlternative['by'][] = ['role', 'label', 'placeholder', 'text']

/** The alternative in the form that finds exactly this element: loosely when that is unique, else exactly; null when neither is. */
function uniqueForm(alternative: TargetAlternative, element: Element, describer: ElementDescriber): TargetAlternative | null {
  if (alternative.by === 'css') return alternative
  const onlyThis = (found: Element[]) => found.length === 1 && found[0] === element
  if (onlyThis(matchesOf(alternative, describer))) return alternative
  if (!WORDS.includes(alternative.by)) return null
  const exact = { ...alternative, exact: true } as TargetAlternative
  return onlyThis(matchesOf(exact, describer)) ? exact : null
}

/**
 * The target the recorder writes for an element (docs/decisions/019): the ways a person names it
 * (common/target-candidates.ts), each kept only when it finds exactly this element on the page
 * now, best first, the CSS path last. When none of its own words does, the ways by where it sits
 * (its row, list item, card, the words next to it: docs/decisions/042) come before the CSS path.
 * Inside a frame of the same site, every way is written as a path into the frame (frame-path.ts);
 * in another site's frame there is none (null).
 */
export function chooseTarget(element: Element): Target | null {
  const view = element.ownerDocument.defaultView
  const frames = view ? framePath(view) : null
  if (!frames) return null
  const describer = elementDescriber(element.ownerDocument)
  const description = describer.describe(element)
  const unique = (candidates: TargetAlternative[]) =>
    candidates
      .map((candidate) => uniqueForm(candidate, element, describer))
      .filter((alternative): alternative is TargetAlternative => alternative !== null)
  const found = unique(targetCandidates(description))
  const own = found.filter((alternative) => alternative.by !== 'css')
  // Inside frames a way is written as one selector (frame-path.ts), which has no words for containers.
  const placed =
    own.length || frames.length
      ? []
      : unique(
          placedCandidates(
            description,
            containerHints(element, describer, (ancestor) => isCard(ancestor)),
          ),
        )
  const words = [...own, ...placed].slice(0, SUGGESTED_ALTERNATIVES - 1)
  const target = [...words, ...found.filter((alternative) => alternative.by === 'css')]
  return target.length ? target.map((alternative) => inFrames(alternative, frames)) : null
}
