import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { findElement, normalise, readElementPhrase, tokens } from '#server/browser/element-match.ts'
import type { PageSnapshot, SnapshotElement } from '#server/browser/page-snapshot.ts'
import { findRepeatedValues, repeatedValuesTarget } from '#server/browser/repeated-values.ts'

/** What planning an extract step needs of the planner: the page now, and its ways to find and check elements. */
export interface ExtractContext {
  look(): Promise<PageSnapshot>
  page: Page
  targetOf(element: SnapshotElement): Promise<Target | null>
  /** The one element the words name (readable), or null with a note of why. */
  find(words: string): Promise<{ element: SnapshotElement; target: Target } | null>
}

/**
 * The extract step the words ask for: a table's column by its header ('the Price column', 'product
 * names'), the values that repeat down the page for a plural ('all prices', 'the titles of the
 * posts'), or one element ('the first heading', 'the total'). Null when nothing on the page is it.
 */
export async function extractStep(context: ExtractContext, what: string, field: string | null): Promise<AutomationStep | null> {
  const current = await context.look()
  const words = what
    .replace(/^(?:all|every|each)\s+(?:of\s+)?/i, '')
    .replace(/^(?:the|a|an|their|its|his|her|our|your)\s+/i, '')
    .trim()
  // The field is named by the thing itself: 'titles of all posts' -> titles.
  const name = fieldName(field ?? words.replace(/\s+(?:of|on|in|from)\s+.*$/i, '').replace(/\s+(?:column|field|values?|text)$/i, ''))

  const headers = current.elements.filter(
    (element) => element.role === 'columnheader' || (element.tag === 'th' && element.role !== 'rowheader'),
  )
  const column = findElement(words.replace(/\s+column$/i, ''), headers, 'readable')
  // 'product names' means the Name column: every word of the header is in the phrase.
  const headerSaid = (header: string) => tokens(header).length > 0 && tokens(header).every((word) => tokens(words).includes(word))
  if (column && (column.score >= 0.75 || /\bcolumn\b/i.test(words) || headerSaid(column.element.name || column.element.text || ''))) {
    return { type: 'extract', target: [{ by: 'column', header: column.element.name || column.element.text || '' }], field: name }
  }

  const plural = /\b(?:all|every|each)\b/i.test(what) || /[^s]s\b|ies\b/i.test(words.split(/\s+/).at(-1) ?? '')
  if (plural) {
    const repeated = await findRepeatedValues(context.page, words)
    if (repeated) {
      const step: AutomationStep = { type: 'extract', target: await repeatedValuesTarget(context.page, repeated), field: name }
      if (repeated.attribute) step.attribute = repeated.attribute
      return step
    }
  }

  const ordinal = /^(first|second|third|last)\s+/i.exec(words)
  if (ordinal) {
    const kind = readElementPhrase(words.slice(ordinal[0].length))
    const ofKind = current.elements.filter(
      (element) => kind.roles.includes(element.role ?? '') || normalise(element.role ?? '') === normalise(kind.words),
    )
    const index = { first: 0, second: 1, third: 2, last: ofKind.length - 1 }[(ordinal[1] ?? 'first').toLowerCase() as 'first']
    const picked = ofKind[index]
    const target = picked ? await context.targetOf(picked) : null
    if (target) return { type: 'extract', target, field: name }
  }
  const found = await context.find(words)
  return found ? { type: 'extract', target: found.target, field: name } : null
}

/** A field name the extract step accepts: letters, digits, spaces, - and _, at most 64. */
export function fieldName(words: string): string {
  const cleaned = words
    .replace(/[^A-Za-z0-9_ -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^A-Za-z_]+/, '')
    .slice(0, 64)
    .trim()
  return cleaned || 'value'
}
