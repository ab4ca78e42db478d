import type { Page } from 'playwright-core'
import { TARGET_ROLES, type Target, type TargetAlternative, type TargetRole } from '#common/targets.ts'
import { collectElements, type RawElement } from './snapshot-script.ts'
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
const MAX_ALTERNATIVES = 3

const isRole = (role: string | null): role is TargetRole => role !== null && (TARGET_ROLES as readonly string[]).includes(role)

/** The ways a person would name an element, best first, CSS last. */
function candidates(element: RawElement): TargetAlternative[] {
  const list: TargetAlternative[] = []
  // A field is best known by its label; anything else by its role and name.
  const field = ['input', 'select', 'textarea'].includes(element.tag)
  if (field && element.label) list.push({ by: 'label', text: element.label })
  if (isRole(element.role) && element.name) list.push({ by: 'role', role: element.role, name: element.name })
  if (!field && element.label) list.push({ by: 'label', text: element.label })
  if (element.placeholder) list.push({ by: 'placeholder', text: element.placeholder })
  if (element.testId) list.push({ by: 'testId', id: element.testId })
  if (element.text && element.text.length <= 80 && (!element.interactive || !isRole(element.role))) {
    list.push({ by: 'text', text: element.text })
  }
  list.push({ by: 'css', selector: element.css })
  return list
}

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

const sameKind = (a: TargetAlternative, b: TargetAlternative) => a.by === b.by

/**
 * What a person can see and use on the page now (snapshot-script.ts), each element with the
 * target we suggest for it: its candidates are checked in order with the runners' own locators
 * (target-resolver.ts), and the first that matches exactly one element leads. Bounded: at most
 * MAX_SNAPSHOT_ELEMENTS elements, and about 4 s of checking (elements after that keep their
 * candidates unchecked).
 */
export async function snapshotPage(page: Page, options: { maxElements?: number } = {}): Promise<PageSnapshot> {
  const raw = await page.evaluate(collectElements, options.maxElements ?? MAX_SNAPSHOT_ELEMENTS)
  const deadline = Date.now() + CHECK_BUDGET_MS
  // Interactive elements are checked first: they are what steps act on.
  const order = raw.elements
    .map((_, index) => index)
    .sort((a, b) => Number(raw.elements[b]?.interactive) - Number(raw.elements[a]?.interactive))
  const targets = new Map<number, { target: Target; checked: boolean }>()
  for (const index of order) {
    const element = raw.elements[index] as RawElement
    const all = candidates(element)
    if (Date.now() > deadline) {
      targets.set(index, { target: all.slice(0, MAX_ALTERNATIVES), checked: false })
      continue
    }
    let lead: TargetAlternative | null = null
    for (const alternative of all) {
      lead = await uniqueForm(page, alternative)
      if (lead) break
    }
    const found = lead
    const ordered = found ? [found, ...all.filter((alternative) => !sameKind(alternative, found))] : all
    targets.set(index, { target: ordered.slice(0, MAX_ALTERNATIVES), checked: found !== null })
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
