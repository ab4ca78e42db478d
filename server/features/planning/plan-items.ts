import type { Page } from 'playwright-core'
import type { AutomationStep, ExtractField } from '#common/automation-steps.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { tokens } from '#server/browser/element-match.ts'
import type { ItemPart, RepeatedItems } from '#server/browser/repeated-items.ts'
import { valueKindOf } from '#server/browser/repeated-values.ts'
import { locatorFor } from '#server/browser/target-resolver.ts'

/** A field name the extract step accepts: letters, digits, spaces, - and _, at most 64. */
export function fieldName(words: string): string {
  const cleaned = words
    // "the customer's name" -> customer name
    .replace(/['’]s\b/g, '')
    .replace(/[^A-Za-z0-9_ -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^A-Za-z_]+/, '')
    .slice(0, 64)
    .trim()
  return cleaned || 'value'
}

/**
 * The items' target: the ways people read them (their shared test id, their role) kept only when
 * they find exactly the items the CSS selector finds on this page — for records, a table's header
 * rows may come along, since they give no record — then the CSS selector as the fallback.
 */
async function itemsTarget(page: Page, items: RepeatedItems, records: boolean): Promise<Target> {
  const css: TargetAlternative = { by: 'css', selector: items.selector }
  const read = (alternative: TargetAlternative) =>
    locatorFor(page, alternative)
      .evaluateAll((elements) => elements.map((element) => ({ html: element.outerHTML, cells: element.querySelector('td') !== null })))
      .catch(() => null)
  const expected = (await read(css))?.map((found) => found.html)
  if (!expected?.length) return [css]
  const readable: TargetAlternative[] = []
  for (const alternative of items.readable) {
    const found = await read(alternative)
    const kept = found?.filter((element) => !records || items.tag !== 'tr' || element.cells).map((element) => element.html)
    if (kept && kept.length === expected.length && kept.every((html, index) => html === expected[index])) readable.push(alternative)
  }
  return [...readable, css]
}

/** The parts the member asked for ('name', 'price'), each matched to a part of the items by its name or its kind. */
function pickParts(parts: ItemPart[], asked: string[]): { picked: ItemPart[]; missing: string[] } {
  const picked: ItemPart[] = []
  const missing: string[] = []
  for (const want of asked) {
    const words = tokens(want)
    const kind = valueKindOf(want)
    const byName = parts.find((part) => {
      const name = tokens(part.name)
      return words.some((word) => name.includes(word))
    })
    const byKind =
      kind &&
      parts.find(
        (part) =>
          !picked.includes(part) &&
          (kind === 'price'
            ? part.sample.every((text) => /[$€£¥₹]\s?\d|\d\s?[$€£¥₹]/.test(text))
            : kind === 'title'
              ? ['title', 'link'].includes(part.name)
              : kind === 'image'
                ? part.attribute === 'src'
                : false),
      )
    const part = byName ?? byKind
    if (part && !picked.includes(part)) picked.push({ ...part, name: want })
    else missing.push(want)
  }
  return { picked, missing }
}

/**
 * The extract step for repeated items: one value per item (its text), or, when each item has
 * several parts (a table's columns, a card's name and price) or the member named parts, one
 * record per item with a field per part.
 */
export async function itemsStep(
  page: Page,
  items: RepeatedItems,
  request: { parts: string[]; name: string },
  note: (text: string) => void,
): Promise<AutomationStep> {
  const { picked, missing } = pickParts(items.parts, request.parts)
  if (missing.length)
    note(
      `The ${request.name} have no part called ${missing.map((part) => `“${part}”`).join(' or ')} (they show ${items.parts.map((part) => `“${part.name}”`).join(', ') || 'one text each'}).`,
    )
  const parts = picked.length ? picked : items.parts.length >= 2 ? items.parts : []
  const target = await itemsTarget(page, items, parts.length > 0)
  if (!parts.length) return { type: 'extract', target, field: fieldName(request.name) }
  const fields: ExtractField[] = parts.map((part) => ({
    name: fieldName(part.name),
    part: part.part as Target,
    ...(part.attribute ? { attribute: part.attribute } : {}),
  }))
  return { type: 'extract', target, field: fieldName(request.name), fields }
}
