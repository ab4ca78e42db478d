import type { ContainerHint } from './container-hints.ts'
import type { ElementDescription } from './element-description.ts'
import { TARGET_ROLES, type TargetRole } from './target-roles.ts'
import type { TargetAlternative } from './targets.ts'

/** How many ways to find an element a suggested or recorded target keeps (the CSS path included). */
export const SUGGESTED_ALTERNATIVES = 4

const isRole = (role: string | null): role is TargetRole => role !== null && (TARGET_ROLES as readonly string[]).includes(role)

/** A date or a time in a name: it changes from one row, day or run to the next. */
const VOLATILE = /\s*(?:\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b)/

/** A long name's words before its first date or time, or null when it has none or little is left. */
export function lastingPart(name: string): string | null {
  const cut = VOLATILE.exec(name)
  if (!cut || name.length < 30) return null
  const before = name.slice(0, cut.index).trim()
  return before.length >= 3 ? before : null
}

/**
 * The ways a person would name an element, best first, CSS last (docs/decisions/019): a field by
 * its label, anything else by its role and name; then placeholder, test id, short visible text.
 * Not yet checked against the page: the server checks them with Playwright (confirmTarget), the
 * recorder in the page itself.
 */
export function targetCandidates(
  element: Pick<ElementDescription, 'role' | 'name' | 'label' | 'placeholder' | 'text' | 'testId' | 'tag' | 'css' | 'interactive'>,
): TargetAlternative[] {
  const list: TargetAlternative[] = []
  const field = ['input', 'select', 'textarea'].includes(element.tag)
  if (field && element.label) list.push({ by: 'label', text: element.label })
  if (isRole(element.role) && element.name) {
    // 'Marathon training plan To: team@… 2026-11-28 12:40:24': the words that last, matched as part of the name.
    const lasting = lastingPart(element.name)
    if (lasting) list.push({ by: 'role', role: element.role, name: lasting })
    list.push({ by: 'role', role: element.role, name: element.name })
  }
  if (!field && element.label) list.push({ by: 'label', text: element.label })
  if (element.placeholder) list.push({ by: 'placeholder', text: element.placeholder })
  if (element.testId) list.push({ by: 'testId', id: element.testId })
  if (element.text && element.text.length <= 80 && (!element.interactive || !isRole(element.role))) {
    list.push({ by: 'text', text: element.text })
  }
  if (element.css) list.push({ by: 'css', selector: element.css })
  return list
}

/**
 * The ways that name an element by where it sits (docs/decisions/042), for when its own words do
 * not single it out: its role (and name, when it has a short one) inside each container hint
 * (common/container-hints.ts), best first: 'Button named “Delete” in the row “Invoice 42”',
 * 'Checkbox next to “Pay the invoice”'. Only for what steps act on; not yet checked.
 */
export function placedCandidates(
  element: Pick<ElementDescription, 'role' | 'name' | 'testId' | 'interactive'>,
  hints: readonly ContainerHint[],
): TargetAlternative[] {
  if (!element.interactive) return []
  const name = element.name && element.name.length <= 80 ? { name: element.name } : {}
  const own: TargetAlternative | null = isRole(element.role)
    ? { by: 'role', role: element.role, ...name }
    : element.testId
      ? { by: 'testId', id: element.testId }
      : null
  if (!own) return []
  return hints.map((hint) => ({ ...own, within: { kind: hint.kind, text: hint.text } }) as TargetAlternative)
}
