import type { Page } from 'playwright-core'
import { TARGET_ROLES, type TargetRole } from '#common/target-roles.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { MATCH_THRESHOLD, rankElements, type ElementPhrase, type ElementWant } from '#server/browser/element-match.ts'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'
import { locatorFor } from '#server/browser/target-resolver.ts'

const CHECK_ROLES = ['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']
const isRole = (role: string | null): role is TargetRole => role !== null && (TARGET_ROLES as readonly string[]).includes(role)

/** The elements the phrase's own words could mean, best first: by words, or by kind alone ('the checkbox'). */
function candidates(read: ElementPhrase, elements: readonly SnapshotElement[], want: ElementWant): SnapshotElement[] {
  if (read.words) {
    const { within: _within, nth: _nth, ...own } = read
    return rankElements(own, elements, want)
      .filter((match) => match.score >= MATCH_THRESHOLD)
      .map((match) => match.element)
  }
  // 'check the box in the row …': a box to tick is a checkbox, whatever else 'box' may name.
  const roles = want === 'checkable' && !read.roles.some((role) => CHECK_ROLES.includes(role)) ? CHECK_ROLES : read.roles
  return elements.filter((element) => element.interactive && roles.includes(element.role ?? ''))
}

/** The element's own way, as the phrase names it: its role (and name, when the phrase gave words), else its label or text. */
function ownWay(element: SnapshotElement, read: ElementPhrase): TargetAlternative | null {
  if (isRole(element.role))
    return read.words && element.name ? { by: 'role', role: element.role, name: element.name } : { by: 'role', role: element.role }
  if (element.label) return { by: 'label', text: element.label }
  if (element.text && element.text.length <= 80) return { by: 'text', text: element.text }
  return null
}

/** Where an element is on the page, as snapshots record it. */
const boxOf = (page: Page, alternative: TargetAlternative) =>
  locatorFor(page, alternative)
    .evaluate((element) => {
      const box = element.getBoundingClientRect()
      return { x: Math.round(box.x + scrollX), y: Math.round(box.y + scrollY) }
    })
    .catch(() => null)

/**
 * The element a phrase names by where it sits or which of several it is (docs/decisions/042):
 * 'Delete in the row for invoice 42', 'the checkbox next to Pay the invoice', 'the 2nd Edit link'.
 * Its own way (role and name, or the role alone for 'the checkbox') with the phrase's container and
 * position, kept only when it finds exactly one element on the page now; the snapshot's CSS path
 * of that element kept behind as a fallback. Null when no such way finds exactly one.
 */
export async function findPlaced(
  page: Page,
  read: ElementPhrase,
  elements: readonly SnapshotElement[],
  want: ElementWant,
): Promise<{ element: SnapshotElement; target: Target } | null> {
  const tried = new Set<string>()
  for (const element of candidates(read, elements, want)) {
    const own = ownWay(element, read)
    if (!own) continue
    for (const form of [own, { ...own, exact: true } as TargetAlternative]) {
      const way = { ...form, ...(read.within ? { within: read.within } : {}), ...(read.nth ? { nth: read.nth } : {}) } as TargetAlternative
      const key = JSON.stringify(way)
      if (tried.has(key) || tried.size >= 12) continue
      tried.add(key)
      if (
        (await locatorFor(page, way)
          .count()
          .catch(() => 0)) !== 1
      )
        continue
      const box = await boxOf(page, way)
      const found =
        elements.find((other) => box && other.box.x === box.x && other.box.y === box.y && other.role === element.role) ?? element
      const structural = found.target.filter((alternative) => alternative.by === 'css')
      return { element: found, target: [way, ...structural] }
    }
  }
  return null
}
