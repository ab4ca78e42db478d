import type { Page } from 'playwright-core'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { locatorFor } from './target-resolver.ts'

// Finds the repeated values a person means by a plural ('the prices', 'all story titles', 'the
// results'): the elements of one kind that repeat down a page (list items, cards, rows) and whose
// class, container or text says what was asked for. Used by the offline planner for extract steps
// that are not a table column; the answer is a CSS selector that matches exactly that group,
// kept as a fallback behind a way people read where the page offers one (repeatedValuesTarget:
// the column's header when the values are a table's column, the test id they share).

export interface RepeatedValues {
  /** Matches every element of the group, and nothing else on the page. */
  selector: string
  count: number
  /** The first values, to show the member what will be read. */
  sample: string[]
  /** Read this attribute instead of the text (links: href). */
  attribute: string | null
  /** The header of the table column the values are, when they are one. */
  header: string | null
  /** The data-testid every value has, when they share one. */
  testId: string | null
}

/** What the words ask for, beyond their words: a kind of value the text itself shows. */
export type ValueKind = 'price' | 'email' | 'date' | 'number' | 'link' | 'image' | 'title' | null

export function valueKindOf(words: string): ValueKind {
  const lower = words.toLowerCase()
  if (/\b(?:prices?|costs?|amounts?|totals?|fees?)\b/.test(lower)) return 'price'
  if (/\b(?:e-?mails?|e-?mail\s+address(?:es)?)\b/.test(lower)) return 'email'
  if (/\b(?:dates?|days?|when)\b/.test(lower)) return 'date'
  if (/\b(?:links?|urls?|addresses|hrefs?)\b/.test(lower)) return 'link'
  if (/\b(?:images?|pictures?|photos?)\b/.test(lower)) return 'image'
  if (/\b(?:numbers?|counts?|quantit(?:y|ies)|stock)\b/.test(lower)) return 'number'
  if (/\b(?:titles?|headlines?|headings?|names?)\b/.test(lower)) return 'title'
  return null
}

interface Args {
  words: string[]
  kind: ValueKind
  /** Only groups inside the element this CSS selector finds (a tab's panel, what a control opened). */
  scope: string | null
  /** Inside the scope any group counts, its words need not say what was asked (what a control just opened). */
  anyList: boolean
}

// Runs in the page: no imports, no closures over Node values.
function findGroups({ words, kind, scope, anyList }: Args) {
  const within = scope ? document.querySelector(scope) : null
  const PATTERNS: Record<string, RegExp> = {
    price: /(?:[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|usd|eur|gbp)\b|^\d+[.,]\d{2}$)/i,
    email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    date: /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|\d+\s+(?:minutes?|hours?|days?)\s+ago)\b/i,
    number: /^[\d.,\s]+$/,
  }
  const COUNT = /^(?:\d[\d,.]*\s+(?:\p{L}+\s*){1,3}|(?:showing|page|results?)\s+\d.*\bof\s+\d[\d,.]*.*)$/iu
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect()
    if (box.width < 1 || box.height < 1) return false
    const style = getComputedStyle(element)
    return style.visibility !== 'hidden' && style.display !== 'none'
  }
  const textOf = (element: Element) => ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim()
  const classes = (element: Element) => [...element.classList].filter((name) => /^[A-Za-z_][\w-]*$/.test(name)).sort()
  const keyOf = (element: Element) =>
    `${element.tagName.toLowerCase()}${classes(element)
      .map((name) => `.${name}`)
      .join('')}`
  const said = (element: Element) =>
    `${element.tagName} ${classes(element).join(' ')} ${element.getAttribute('id') ?? ''} ${element.getAttribute('itemprop') ?? ''} ${element.getAttribute('data-testid') ?? ''} ${element.getAttribute('aria-label') ?? ''}`
      .replace(/[-_]+/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  const stem = (word: string) =>
    word.length > 3 && word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word
  const KIN: Record<string, string[]> = {
    price: ['price', 'cost', 'amount'],
    email: ['email', 'mail'],
    date: ['date', 'time'],
    link: ['link', 'url'],
  }
  const wanted = [...words.map(stem), ...(kind ? (KIN[kind] ?? []) : [])].filter(
    (word, index, all) => word.length > 1 && all.indexOf(word) === index,
  )
  const mentions = (text: string) =>
    wanted.filter((word) => text.split(/\s+/).some((part) => stem(part).includes(word) || (part.length > 3 && word.includes(stem(part)))))
      .length

  // Groups of elements of one kind (tag and classes) under one container kind; a table's cells
  // by their column too (the cells of a row are different values, classes or not).
  const groups = new Map<string, Element[]>()
  const all = document.body.querySelectorAll('*')
  for (const element of all) {
    const tag = element.tagName.toLowerCase()
    if (['script', 'style', 'noscript', 'template', 'svg', 'path', 'br', 'html', 'body', 'head', 'option'].includes(tag)) continue
    const parent = element.parentElement
    if (!parent) continue
    const column = tag === 'td' ? `:nth-child(${[...parent.children].indexOf(element) + 1})` : ''
    const key = `${keyOf(parent)} > ${keyOf(element)}${column}`
    const list = groups.get(key) ?? []
    list.push(element)
    groups.set(key, list)
  }

  // A row with a modifier class of its own ('property-row required', 'todo completed') holds the same
  // kind of value as its plain siblings: its group joins theirs, in the page's order.
  const widens = (general: string, special: string) => {
    const [tag = '', ...classes] = general.split('.')
    const [otherTag = '', ...otherClasses] = special.split('.')
    return tag === otherTag && (classes.length > 0 || otherClasses.length === 0) && classes.every((name) => otherClasses.includes(name))
  }
  for (const key of [...groups.keys()]) {
    const [parentKey = '', childKey = ''] = key.split(' > ')
    const base = [...groups.keys()].find((other) => {
      const [otherParent = '', otherChild = ''] = other.split(' > ')
      return other !== key && widens(otherParent, parentKey) && widens(otherChild, childKey)
    })
    if (!base) continue
    const joined = [...(groups.get(base) ?? []), ...(groups.get(key) ?? [])]
    joined.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    groups.set(base, joined)
    groups.delete(key)
  }

  /** The header of the one table column these cells are, or null. */
  const columnHeader = (cells: Element[]): string | null => {
    const first = cells[0]
    if (!(first instanceof HTMLTableCellElement) || first.tagName !== 'TD') return null
    const table = first.closest('table')
    const index = first.cellIndex
    if (
      !table ||
      !cells.every((cell) => cell instanceof HTMLTableCellElement && cell.cellIndex === index && cell.closest('table') === table)
    )
      return null
    const headerRow = table.tHead?.rows[0] ?? [...table.rows].find((row) => row.cells[0]?.tagName === 'TH')
    const header = headerRow?.cells[index]
    const words = header && header.tagName === 'TH' ? textOf(header) : ''
    return words && words.length <= 80 ? words : null
  }
  const sharedTestId = (members: Element[]): string | null => {
    const id = members[0]?.getAttribute('data-testid')
    return id && members.every((element) => element.getAttribute('data-testid') === id) ? id : null
  }

  // A list in the page's chrome (a sidebar, the navigation, the page's footer) is rarely what is asked for.
  const CHROME =
    'aside, nav, [role=navigation], [role=complementary], [role=contentinfo], [role=banner], footer:not(article footer):not(li footer)'
  const results: {
    selector: string
    count: number
    sample: string[]
    attribute: string | null
    header: string | null
    testId: string | null
    score: number
    depth: number
  }[] = []
  for (const [key, members] of groups) {
    const shown = members.filter((member) => visible(member) && (!within || within.contains(member)))
    const first = shown[0]
    if (!first) continue
    // What says the words: the element's own class or id, its container's, the heading before it.
    const container = first.parentElement as Element
    let before: Element | null = container.previousElementSibling
    while (before && !/^H[1-6]$/.test(before.tagName) && before.previousElementSibling) before = before.previousElementSibling
    const headingMentions = before && /^H[1-6]$/.test(before.tagName) ? mentions(textOf(before).toLowerCase()) : 0
    const wordsSaid = 2 * mentions(said(first)) + mentions(said(container)) + headingMentions
    // One value is enough when its text shows the kind asked for (a single price in the results),
    // or something says it is what was asked for (the one result under '1 results').
    if (shown.length < (wordsSaid > 0 || (kind && kind !== 'link' && kind !== 'image') ? 1 : 2)) continue
    const texts = shown.map(textOf)
    // One count beside a list ('2 items left', 'Showing 1-10 of 52') says how many, it is none of them.
    if (shown.length === 1 && COUNT.test(texts[0] ?? '')) continue
    const withText = texts.filter((text) => text.length > 0 && text.length <= 300)
    const attribute = kind === 'link' ? 'href' : kind === 'image' ? 'src' : null
    if (kind === 'link' && !shown.every((element) => element.tagName === 'A' && element.hasAttribute('href'))) continue
    if (kind === 'image' && !shown.every((element) => element.tagName === 'IMG')) continue
    if (!attribute && withText.length < shown.length * 0.8) continue
    // A group whose members hold many other elements is a container (a row, a card), not a value.
    const leafy = shown.filter((element) => element.querySelectorAll('*').length <= 3).length / shown.length
    let score = wordsSaid
    const pattern = kind ? PATTERNS[kind] : undefined
    if (pattern) {
      // The value itself, not a block that holds one: short texts only.
      const fitting = withText.filter((text) => text.length <= 40 && pattern.test(text)).length / Math.max(1, withText.length)
      if (fitting < 0.8) continue
      score += 3
    }
    if (attribute) score += 2
    // Titles and names are what links and headings say, and a table's first column.
    if (kind === 'title' && (/^(?:A|H[1-6]|STRONG|B|LABEL)$/.test(first.tagName) || key.endsWith('td:nth-child(1)'))) score += 2
    score += leafy
    if (first.closest(CHROME) && wordsSaid === 0) score -= 2
    // Inside the part a control just opened, any repeated value is what the sentence asks for.
    if (score < 1.5 && !(within && anyList)) continue
    // The selector: the member's kind under its container's kind, narrowed until it matches the
    // group only; a column's place among the cells only when its classes do not say it.
    const [parentKey, childKey] = key.split(' > ') as [string, string]
    const unplaced = childKey.replace(/:nth-child\(\d+\)$/, '')
    const candidates = [...new Set([unplaced, `${parentKey} > ${unplaced}`, childKey, `${parentKey} > ${childKey}`])].map((candidate) =>
      scope ? `${scope} ${candidate}` : candidate,
    )
    const selector = candidates.find((candidate) => {
      try {
        const found = [...document.querySelectorAll(candidate)].filter(visible)
        return found.length === shown.length && found.every((element, index) => element === shown[index])
      } catch {
        return false
      }
    })
    if (!selector) continue
    // Among equals, the values themselves rather than the boxes that hold them.
    const depth = first.querySelectorAll('*').length
    results.push({
      selector,
      count: shown.length,
      sample: texts.slice(0, 3).map((text) => text.slice(0, 80)),
      attribute,
      header: columnHeader(shown),
      testId: sharedTestId(shown),
      score,
      depth,
    })
  }
  results.sort((a, b) => b.score - a.score || b.count - a.count || a.depth - b.depth)
  return results.slice(0, 3)
}

/** The best group of repeated values the words mean on this page (inside `scope` when given), or null. */
export async function findRepeatedValues(
  page: Page,
  words: string,
  scope: { selector: string; anyList: boolean } | null = null,
): Promise<RepeatedValues | null> {
  const list = words
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(
      (word) =>
        word && !['the', 'all', 'every', 'each', 'of', 'a', 'an', 'on', 'in', 'from', 'this', 'page', 'list', 'items'].includes(word),
    )
  const found = await page
    .evaluate(findGroups, { words: list, kind: valueKindOf(words), scope: scope?.selector ?? null, anyList: scope?.anyList ?? false })
    .catch(() => [])
  const [best] = found
  return best
    ? {
        selector: best.selector,
        count: best.count,
        sample: best.sample,
        attribute: best.attribute,
        header: best.header,
        testId: best.testId,
      }
    : null
}

/**
 * The target that reads repeated values: the ways people read them first (the column by its
 * header, the test id they share), each kept only if it finds exactly the values the CSS selector
 * finds on this page, then the CSS selector as the fallback (docs/decisions/024). Values the page
 * says no other way (boxes known only by their classes) keep the CSS selector alone.
 */
export async function repeatedValuesTarget(page: Page, repeated: RepeatedValues): Promise<Target> {
  const css: TargetAlternative = { by: 'css', selector: repeated.selector }
  const candidates: TargetAlternative[] = [
    ...(repeated.header && !repeated.attribute ? [{ by: 'column', header: repeated.header } as const] : []),
    ...(repeated.testId ? [{ by: 'testId', id: repeated.testId } as const] : []),
  ]
  if (candidates.length === 0) return [css]
  const valuesOf = (alternative: TargetAlternative) =>
    locatorFor(page, alternative)
      .evaluateAll((elements) => elements.map((element) => element.outerHTML))
      .catch(() => null)
  const expected = await valuesOf(css)
  if (!expected?.length) return [css]
  const same = (found: string[] | null) =>
    found !== null && found.length === expected.length && found.every((html, index) => html === expected[index])
  const readable: TargetAlternative[] = []
  for (const candidate of candidates) if (same(await valuesOf(candidate))) readable.push(candidate)
  return [...readable, css]
}
