import type { ElementDescription } from './element-description.ts'
import { TARGET_ROLES, type TargetRole } from './target-roles.ts'
import type { TargetAlternative } from './targets.ts'

/** How many ways to find an element a suggested or recorded target keeps (the CSS path included). */
export const SUGGESTED_ALTERNATIVES = 4

const isRole = (role: string | null): role is TargetRole => role !== null && (TARGET_ROLES as readonly string[]).includes(role)

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
  if (isRole(element.role) && element.name) list.push({ by: 'role', role: element.role, name: element.name })
  if (!field && element.label) list.push({ by: 'label', text: element.label })
  if (element.placeholder) list.push({ by: 'placeholder', text: element.placeholder })
  if (element.testId) list.push({ by: 'testId', id: element.testId })
  if (element.text && element.text.length <= 80 && (!element.interactive || !isRole(element.role))) {
    list.push({ by: 'text', text: element.text })
  }
  if (element.css) list.push({ by: 'css', selector: element.css })
  return list
}
