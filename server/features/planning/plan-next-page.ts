import type { Target } from '#common/targets.ts'
import type { PageSnapshot, SnapshotElement } from '#server/browser/page-snapshot.ts'

/** The most pages 'on every page' reads unless the member changes it. */
export const DEFAULT_MAX_PAGES = 20

const NEXT = /^(?:(?:go\s+to\s+)?next(?:\s+page|\s+results)?|next\s*[›»→>]+|[›»→>]|older(?:\s+(?:posts|entries|items))?|more\s+results)$/i

/**
 * The control that leads to the next page of a list: a link or button named Next (›, », →,
 * 'Older posts'), by what it says or its label; the first on the page when there are several.
 */
export async function nextPageControl(
  snapshot: PageSnapshot,
  targetOf: (element: SnapshotElement) => Promise<Target | null>,
): Promise<Target | null> {
  const said = (element: SnapshotElement) => [element.name, element.text ?? '', element.label ?? ''].map((text) => text.trim())
  const controls = snapshot.elements.filter(
    (element) => ['link', 'button'].includes(element.role ?? '') && said(element).some((text) => NEXT.test(text)),
  )
  for (const control of controls) {
    const target = await targetOf(control)
    if (target) return target
  }
  return null
}
