import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { findElement, normalise, readElementPhrase, tokens } from '#server/browser/element-match.ts'
import { confirmTarget, type PageSnapshot, type SnapshotElement } from '#server/browser/page-snapshot.ts'
import { findRepeatedItems } from '#server/browser/repeated-items.ts'
import { shownPartSelector } from '#server/browser/shown-part.ts'
import { findRepeatedValues, repeatedValuesTarget, valueKindOf } from '#server/browser/repeated-values.ts'
import { ASKS_EDITOR_TEXT, editorTextTarget } from './editor-text.ts'
import { readExtractRequest, type ExtractRequest } from './extract-request.ts'
import { fieldName, itemsStep } from './plan-items.ts'
import { shapedPart, textOfThing, textUnderHeading, valueByMeaning, valueUnderTitle } from './read-by-meaning.ts'
import { DEFAULT_MAX_PAGES, nextPageControl } from './plan-next-page.ts'

export { fieldName }

/** What planning an extract step needs of the planner: the page now, and its ways to find and check elements. */
export interface ExtractContext {
  look(): Promise<PageSnapshot>
  page: Page
  targetOf(element: SnapshotElement): Promise<Target | null>
  /** The one element the words name (readable), or null with a note of why (`quiet`: no note, no waiting for it). */
  find(words: string, options?: { quiet?: boolean }): Promise<{ element: SnapshotElement; target: Target } | null>
  /** What 'its …' stands for: the name of the thing opened last. */
  its?: string | null
  /** The tab selected last: lists are read in its panel first. */
  tab?: Target | null
  /** The control clicked last: 'its property names' are read in what it opened first. */
  opened?: Target | null
  /** Tells the member something about the step planned (a part not found, no next page). */
  note?(text: string): void
}

/** Words that mean the whole list or table rather than one part of each item. */
const WHOLE = /^(?:table|rows?|records?|items?|entries|results|list|cards?)$/i

/**
 * The extract step the words ask for: a table's column by its header ('the Price column', 'product
 * names'), one part of each repeated item for a plural that names a kind of value ('all prices',
 * 'the titles of the posts'), the repeated items themselves — as records when each has several
 * parts — for a plural that names things ('the todos', 'the products with name and price', 'the
 * table'), or one element ('the first heading', 'the total'); with 'on every page', on each page
 * the next-page control leads to. Null when nothing on the page is it.
 */
export async function extractStep(context: ExtractContext, what: string, field: string | null): Promise<AutomationStep | null> {
  const request = readExtractRequest(what, field)
  const step = await onePage(context, request)
  if (!step || step.type !== 'extract' || !request.pages) return step
  const next = await nextPageControl(await context.look(), context.targetOf)
  if (!next) {
    context.note?.('No next-page control (Next, ›, ») was found, so only this page is read.')
    return step
  }
  return { ...step, pages: { next, max: DEFAULT_MAX_PAGES } }
}

async function onePage(context: ExtractContext, request: ExtractRequest): Promise<AutomationStep | null> {
  const current = await context.look()
  const { words } = request
  // The field is named by the thing itself: 'titles of all posts' -> titles.
  const name = fieldName(
    request.field ??
      words
        .replace(/\s+(?:of|on|in|from)\s+.*$/i, '')
        .replace(/\s+(?:that\s+|which\s+)?(?:it|they)\s+(?:shows?|lists?|holds?|has|have|opened)$/i, '')
        .replace(/\s+(?:column|field|values?|text)$/i, ''),
  )

  const headers = current.elements.filter(
    (element) => element.role === 'columnheader' || (element.tag === 'th' && element.role !== 'rowheader'),
  )
  const column = request.parts.length ? null : findElement(words.replace(/\s+column$/i, ''), headers, 'readable')
  // 'product names' means the Name column: every word of the header is in the phrase.
  const headerSaid = (header: string) => tokens(header).length > 0 && tokens(header).every((word) => tokens(words).includes(word))
  if (column && (column.score >= 0.75 || /\bcolumn\b/i.test(words) || headerSaid(column.element.name || column.element.text || ''))) {
    return { type: 'extract', target: [{ by: 'column', header: column.element.name || column.element.text || '' }], field: name }
  }

  const last = words.split(/\s+/).at(-1) ?? ''
  const plural =
    /\b(?:all|every|each)\b/i.test(words) ||
    /[^s]s\b|ies\b/i.test(last) ||
    WHOLE.test(words) ||
    WHOLE.test(last) ||
    request.parts.length > 0
  if (plural) {
    // A kind of value ('the prices', 'the titles') is one part of each item; a thing ('the todos') is the items.
    const part = valueKindOf(words) !== null && request.parts.length === 0
    // 'in the Tags tab, read them': what the tab shows, before anything else on the page; 'its
    // property names': what the control clicked last opened.
    const its = /^(?:its|their)\b|\b(?:it|they)\s+(?:shows?|lists?|opened|holds?|has|have)\b/i.test(request.said)
    const opened = its && context.opened ? await shownPartSelector(context.page, context.opened, 'opened') : null
    const panel = !opened && context.tab ? await shownPartSelector(context.page, context.tab, 'tab') : null
    const scoped = opened ? { selector: opened, anyList: true } : panel ? { selector: panel, anyList: false } : null
    for (const scope of scoped ? [scoped, null] : [null]) {
      const values = part ? await findRepeatedValues(context.page, words, scope) : null
      if (values && values.count >= 2) return valuesStep(context, values, name)
      const items = await findRepeatedItems(context.page, words, scope)
      if (items) return itemsStep(context.page, items, { parts: request.parts, name }, (text) => context.note?.(text))
      const any = values ?? (await findRepeatedValues(context.page, words, scope))
      if (any) return valuesStep(context, any, name)
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
  // 'the text of the Welcome note', 'its ingredients': the text under that thing's heading.
  const thing = textOfThing(request.said, context.its ?? null)
  const underThing = await readable(context, thing ? textUnderHeading(thing, current.elements) : null)
  if (underThing) return { type: 'extract', target: underThing.target, field: name }
  const meant = valueByMeaning(words, current.elements)
  // What says the words is not the answer when the question asks for a shape it lacks ('the loans endpoint path': '/loans').
  const titled = await underTitle(context, words)
  const unshaped = titled && meant && shapedPart(words, meant.text ?? '') !== null && shapedPart(words, titled.element.text ?? '') === null
  const found =
    (unshaped ? null : titled) ??
    // 'how much is due': the text the question means, when no element says its words.
    (await shaped(context, words, meant)) ??
    (await context.find(words, { quiet: ASKS_EDITOR_TEXT.test(words) }))
  if (found) return { type: 'extract', target: found.target, field: name }
  // 'the JSON text' that no element says: what the page's code editor shows.
  const editor = ASKS_EDITOR_TEXT.test(words) ? await editorTextTarget(context.page) : null
  if (editor) return { type: 'extract', target: editor, field: name }
  const late = ASKS_EDITOR_TEXT.test(words) ? await context.find(words) : null
  return late ? { type: 'extract', target: late.target, field: name } : null
}

/** The value the question means; inside a control's words, just its part in the asked shape when that part finds one element. */
async function shaped(context: ExtractContext, words: string, element: SnapshotElement | null) {
  const part = element?.interactive ? shapedPart(words, element.text ?? '') : null
  const target = part ? await confirmTarget(context.page, [{ by: 'text', text: part, exact: true }]) : null
  return element && target ? { element, target } : readable(context, element)
}

/** The element the words name; what it heads when it is a heading or label saying just those words ('Response body'). */
async function underTitle(context: ExtractContext, words: string) {
  const found = await context.find(words, { quiet: true })
  if (!found) return null
  const under = valueUnderTitle(words, found.element, (await context.look()).elements)
  return (await readable(context, under)) ?? found
}

async function readable(context: ExtractContext, element: SnapshotElement | null) {
  const target = element ? await context.targetOf(element) : null
  return element && target ? { element, target } : null
}

async function valuesStep(
  context: ExtractContext,
  repeated: NonNullable<Awaited<ReturnType<typeof findRepeatedValues>>>,
  name: string,
): Promise<AutomationStep> {
  const step: AutomationStep = { type: 'extract', target: await repeatedValuesTarget(context.page, repeated), field: name }
  if (repeated.attribute) step.attribute = repeated.attribute
  return step
}
