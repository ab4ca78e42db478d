import type { Page } from 'playwright-core'
import { placedCandidates, SUGGESTED_ALTERNATIVES, targetCandidates } from '#common/target-candidates.ts'
import { isPlaced, type Target, type TargetAlternative } from '#common/targets.ts'
import { collectElementsScript, type RawElement, type RawSnapshot } from './snapshot-script.ts'
import { locatorFor } from './target-resolver.ts'

/** One thing a person can see on the page, with the target we suggest for it. */
export interface SnapshotElement extends Omit<RawElement, 'css'> {
  /** Its number in this snapshot (what a member or a model points at). */
  ref: number
  /** Ways to find it, best first; the first was checked to match exactly this one element when `checked`. */
  target: Target
  checked: boolean
}

export interface PageSnapshot {
  url: string
  title: string
  elements: SnapshotElement[]
  /** More elements were on the page than a snapshot keeps. */
  truncated: boolean
}

export const MAX_SNAPSHOT_ELEMENTS = 300
const CHECK_BUDGET_MS = 4_000

const matches = (page: Page, alternative: TargetAlternative) =>
  locatorFor(page, alternative)
    .count()
    .catch(() => -1)

/**
 * The alternative as it finds exactly this one element: words matched loosely (part of the name,
 * any case: a label that gains an asterisk, a name that gains a word still match) when that is
 * unique, else exactly; null when neither is unique.
 */
async function uniqueForm(page: Page, alternative: TargetAlternative): Promise<TargetAlternative | null> {
  if ((await matches(page, alternative)) === 1) return alternative
  if (!['role', 'label', 'placeholder', 'text'].includes(alternative.by)) return null
  const exact = { ...alternative, exact: true } as TargetAlternative
  return (await matches(page, exact)) === 1 ? exact : null
}

const STRUCTURAL: TargetAlternative['by'][] = ['css', 'xpath']
/** Past a few matches a position is a guess that breaks when the page gains one: the structure is kept. */
const MAX_POSITION = 20
const BY_WORDS: TargetAlternative['by'][] = ['role', 'label', 'placeholder', 'text', 'testId']

/** The first way by words that finds this element among a few others, with its position among them. */
async function byPosition(
  page: Page,
  candidates: readonly TargetAlternative[],
  found: TargetAlternative,
): Promise<TargetAlternative | null> {
  const alternative = candidates.find((candidate) => BY_WORDS.includes(candidate.by) && !isPlaced(candidate))
  if (!alternative) return null
  const count = await matches(page, alternative)
  if (count < 2 || count > MAX_POSITION) return null
  const element = await locatorFor(page, found)
    .elementHandle({ timeout: 1_000 })
    .catch(() => null)
  if (!element) return null
  const index = await locatorFor(page, alternative)
    .evaluateAll((all, one) => all.indexOf(one as HTMLElement), element)
    .catch(() => -1)
  await element.dispose()
  return index < 0 ? null : ({ ...alternative, nth: index + 1 } as TargetAlternative)
}

const sameKind = (a: TargetAlternative, b: TargetAlternative) => a.by === b.by && isPlaced(a) === isPlaced(b)

/**
 * The target as it finds exactly one element now: its first alternative that does (in the form
 * that does: loosely, or exactly), then the other alternatives as fallbacks, CSS last; null when
 * none finds exactly one element. Planners keep only targets that pass this check. Ways by where
 * the element sits (docs/decisions/042) are kept only when they lead: an element whose own words
 * find it needs no container.
 */
export async function confirmTarget(page: Page, candidates: readonly TargetAlternative[]): Promise<Target | null> {
  for (const alternative of candidates) {
    const unique = await uniqueForm(page, alternative)
    if (!unique) continue
    // Found only by the page's structure: its words and which of their matches it is say it better ('the 2nd link “Bothy”').
    const lead = STRUCTURAL.includes(unique.by) ? ((await byPosition(page, candidates, unique)) ?? unique) : unique
    const rest = candidates.filter((other) => !sameKind(other, lead) && (isPlaced(lead) || !isPlaced(other)))
    const css = rest.filter((other) => other.by === 'css')
    return [lead, ...rest.filter((other) => other.by !== 'css'), ...css].slice(0, SUGGESTED_ALTERNATIVES)
  }
  return null
}

/**
 * What a person can see and use on the page now (snapshot-script.ts), each element with the
 * target we suggest for it. With `check` (the default), candidates are checked in order with the
 * runners' own locators (target-resolver.ts) and the first that matches exactly one element leads;
 * bounded to about 4 s of checking (elements after that keep their candidates unchecked). Without
 * it the snapshot is quick, and a planner checks only the elements it picks (confirmTarget).
 * At most MAX_SNAPSHOT_ELEMENTS elements.
 */
export async function snapshotPage(page: Page, options: { maxElements?: number; check?: boolean } = {}): Promise<PageSnapshot> {
  const raw = await page.evaluate<RawSnapshot>(collectElementsScript(options.maxElements ?? MAX_SNAPSHOT_ELEMENTS))
  const deadline = Date.now() + (options.check === false ? 0 : CHECK_BUDGET_MS)
  // Interactive elements are checked first: they are what steps act on.
  const order = raw.elements
    .map((_, index) => index)
    .sort((a, b) => Number(raw.elements[b]?.interactive) - Number(raw.elements[a]?.interactive))
  const targets = new Map<number, { target: Target; checked: boolean }>()
  for (const index of order) {
    const all = candidatesOf(raw.elements[index] as RawElement)
    const confirmed = Date.now() > deadline ? null : await confirmTarget(page, all)
    targets.set(index, confirmed ? { target: confirmed, checked: true } : { target: uncheckedTarget(all), checked: false })
  }
  return {
    url: raw.url,
    title: raw.title,
    truncated: raw.truncated,
    elements: raw.elements.map(({ css: _css, ...element }, index) => ({
      ...element,
      ref: index + 1,
      ...(targets.get(index) ?? { target: [{ by: 'css' as const, selector: raw.elements[index]?.css ?? 'body' }], checked: false }),
    })),
  }
}

/** The ways a person names the element, its own words first, then by where it sits, the CSS path last. */
function candidatesOf(element: RawElement): TargetAlternative[] {
  const own = targetCandidates(element)
  const placed = placedCandidates(element, element.within ?? [])
  return [...own.filter((alternative) => alternative.by !== 'css'), ...placed, ...own.filter((alternative) => alternative.by === 'css')]
}

/** Candidates as they are, the CSS path always kept as the last. */
function uncheckedTarget(all: TargetAlternative[]): Target {
  const words = all.filter((alternative) => alternative.by !== 'css').slice(0, SUGGESTED_ALTERNATIVES - 1)
  const css = all.filter((alternative) => alternative.by === 'css')
  return [...words, ...css]
}
