import type { Page } from 'playwright-core'
import type { TargetAlternative } from '#common/targets.ts'

// Finds the repeated items a person means by 'the todos', 'the products', 'the rows', 'the table':
// siblings of one shape (same tag and role: list items, table rows, cards), two or more, whose
// words fit — their container's class, id, label or heading, their own class, a column header,
// their text — never a one-off counter or heading beside them. For each group it also finds the
// parts every item repeats (a table's columns by header; a card's name, price, link), so the
// items can be read as records. Runs in the page; plan-extract.ts turns it into a step. Just over
// 300 lines because findItemGroups must be one self-contained function (page.evaluate sends its source).

export interface ItemPart {
  /** A field name for the part: the column header, the class that says it, or its kind. */
  name: string
  /** Where the part is inside each item, best first (relative to the item). */
  part: TargetAlternative[]
  /** Read this attribute instead of the text (an image's src). */
  attribute: string | null
  sample: string[]
}

export interface RepeatedItems {
  /** Matches every item and nothing else on the page. */
  selector: string
  count: number
  tag: string
  /** The items are the rows of a table with a header. */
  table: boolean
  /** Ways people read the items, each found in the page to match exactly them (checked again by the planner). */
  readable: TargetAlternative[]
  parts: ItemPart[]
  sample: string[]
  score: number
}

interface Args {
  words: string[]
  /** Only groups inside the element this CSS selector finds (a tab's panel, what a control opened). */
  scope: string | null
  /** Inside the scope any group counts, its words need not say what was asked (what a control just opened). */
  anyList: boolean
}

// Runs in the page: no imports, no closures over Node values.
function findItemGroups({ words, scope, anyList }: Args) {
  const within = scope ? document.querySelector(scope) : null
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'path', 'br', 'hr', 'option', 'td', 'th', 'head', 'meta', 'link'])
  const CONTROLS = 'button, input, select, textarea, [role="button"], [role="checkbox"], [role="switch"]'
  const GENERIC: Record<string, string[]> = {
    row: ['tr'],
    table: ['tr'],
    record: ['tr', 'li', 'article', 'div'],
    item: ['li', 'tr', 'article', 'div'],
    entry: ['li', 'tr', 'article', 'div'],
    result: ['li', 'tr', 'article', 'div'],
    list: ['li'],
    card: ['article', 'div', 'li', 'section'],
  }
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
      .map((name) => `.${CSS.escape(name)}`)
      .join('')}`
  const split = (text: string) =>
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[-_]+/g, ' ')
      .toLowerCase()
  const said = (element: Element) =>
    split(
      `${classes(element).join(' ')} ${element.getAttribute('id') ?? ''} ${element.getAttribute('itemprop') ?? ''} ${element.getAttribute('data-testid') ?? ''} ${element.getAttribute('aria-label') ?? ''}`,
    )
  const stem = (word: string) =>
    word.length > 3 && word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word
  const wanted = words.map(stem).filter((word, index, all) => word.length > 1 && all.indexOf(word) === index)
  const mentions = (text: string) =>
    wanted.filter((word) =>
      text.split(/\s+/).some((part) => part && (stem(part) === word || (part.length > 3 && stem(part).startsWith(word)))),
    ).length
  /** The words a list or table is known by: its label, the heading before it or before its box. */
  const labelOf = (container: Element) => {
    const byId = container.getAttribute('aria-labelledby')
    const labelled = byId ? document.getElementById(byId) : null
    if (labelled) return textOf(labelled)
    const caption = container.closest('table')?.querySelector('caption')
    if (caption) return textOf(caption)
    for (let box: Element | null = container, depth = 0; box && depth < 3; box = box.parentElement, depth++) {
      let before = box.previousElementSibling
      while (before && !/^H[1-6]$/.test(before.tagName) && before.previousElementSibling) before = before.previousElementSibling
      if (before && /^H[1-6]$/.test(before.tagName)) return textOf(before)
    }
    return ''
  }

  // Siblings of one shape: the same tag and role under one parent (classes may differ: 'completed').
  const groups: Element[][] = []
  for (const parent of document.body.querySelectorAll('*')) {
    const byShape = new Map<string, Element[]>()
    for (const child of parent.children) {
      const tag = child.tagName.toLowerCase()
      if (SKIP.has(tag)) continue
      if (tag === 'tr' && !child.querySelector(':scope > td')) continue
      const shape = `${tag}|${child.getAttribute('role') ?? ''}`
      const list = byShape.get(shape) ?? []
      list.push(child)
      byShape.set(shape, list)
    }
    for (const members of byShape.values()) {
      const shown = members.filter(visible)
      if (shown.length >= 2) groups.push(shown)
    }
  }

  /** What a person would call each part of the items: the parts every item (most) repeats. */
  const partsOf = (items: Element[], table: HTMLTableElement | null): ItemPart[] => {
    if (table) {
      const headerRow = table.tHead?.rows[0] ?? [...table.rows].find((row) => row.cells[0]?.tagName === 'TH')
      return [...(headerRow?.cells ?? [])]
        .map((cell, index) => ({ header: textOf(cell), index }))
        .filter(
          ({ header, index }) =>
            header && header.length <= 80 && items.some((row) => textOf((row as HTMLTableRowElement).cells[index] ?? row)),
        )
        .map(({ header, index }) => ({
          name: header,
          part: [{ by: 'column', header, exact: true } as TargetAlternative],
          attribute: null,
          sample: items.slice(0, 3).map((row) => textOf((row as HTMLTableRowElement).cells[index] ?? row).slice(0, 80)),
        }))
    }
    const pathOf = (item: Element, element: Element) => {
      const steps: string[] = []
      for (let at: Element | null = element; at && at !== item; at = at.parentElement) steps.unshift(keyOf(at))
      return steps.join(' > ')
    }
    const byPath = new Map<string, Element[]>()
    const itemOf = new Map<Element, Element>()
    for (const item of items) {
      const seen = new Set<string>()
      for (const element of item.querySelectorAll('*')) {
        if (!visible(element) || element.closest(CONTROLS)) continue
        const own = [...element.childNodes].some((node) => node.nodeType === 3 && (node.textContent ?? '').trim())
        if (!own && element.tagName !== 'IMG') continue
        const path = pathOf(item, element)
        if (seen.has(path)) continue
        seen.add(path)
        itemOf.set(element, item)
        byPath.set(path, [...(byPath.get(path) ?? []), element])
      }
    }
    const itemWords = new Set(classes(items[0] as Element).flatMap((name) => split(name).split(' ')))
    const parts: ItemPart[] = []
    for (const [path, elements] of byPath) {
      if (elements.length < Math.max(2, items.length * 0.6)) continue
      const image = elements[0]?.tagName === 'IMG'
      const texts = elements.map((element) => (image ? (element.getAttribute('alt') ?? '') : textOf(element)))
      // The same words in every item are the page's, not the item's ('Add to cart', '×').
      if (!image && new Set(texts).size === 1) continue
      const last = elements[0] as Element
      const fromClass = split(classes(last).join(' '))
        .split(' ')
        .filter(
          (word) =>
            word.length > 1 && !itemWords.has(word) && !['text', 'value', 'inner', 'wrap', 'wrapper', 'container', 'item'].includes(word),
        )
      // A link's words are what it is called: the first link of an item is its title.
      const firstLink = last.tagName === 'A' && itemOf.get(last)?.querySelector('a') === last
      const kind =
        /^H[1-6]$/.test(last.tagName) || last.tagName === 'STRONG' || firstLink
          ? 'title'
          : image
            ? 'image'
            : last.tagName === 'A'
              ? 'link'
              : 'text'
      const name = fromClass.slice(-2).join(' ') || kind
      // Where it is in each item: its test id, its role when it is the item's first of that role, its CSS.
      const candidates: TargetAlternative[] = []
      const testId = last.getAttribute('data-testid')
      if (testId && elements.every((element) => element.getAttribute('data-testid') === testId))
        candidates.push({ by: 'testId', id: testId })
      const firstIs = (selector: string) => elements.every((element) => itemOf.get(element)?.querySelector(selector) === element)
      if (/^H[1-6]$/.test(last.tagName) && firstIs('h1, h2, h3, h4, h5, h6')) candidates.push({ by: 'role', role: 'heading' })
      const tail = path.split(' > ').at(-1) ?? path
      const css = [tail, `:scope > ${path}`].find((selector) => {
        try {
          return (
            items.every((item) => {
              const found = item.querySelector(selector)
              return found === null || elements.includes(found)
            }) && firstIs(selector)
          )
        } catch {
          return false
        }
      })
      if (!css) continue
      candidates.push({ by: 'css', selector: css })
      parts.push({ name, part: candidates, attribute: image ? 'src' : null, sample: texts.slice(0, 3).map((text) => text.slice(0, 80)) })
    }
    // Two parts may share a name ('text'): number them.
    const used = new Map<string, number>()
    for (const part of parts) {
      const n = (used.get(part.name) ?? 0) + 1
      used.set(part.name, n)
      if (n > 1) part.name = `${part.name} ${n}`
    }
    return parts.slice(0, 12)
  }

  // A list in the page's chrome (a sidebar, the navigation, the page's footer) is rarely what is asked for.
  const CHROME =
    'aside, nav, [role=navigation], [role=complementary], [role=contentinfo], [role=banner], footer:not(article footer):not(li footer)'
  const results: RepeatedItems[] = []
  for (const items of groups) {
    const first = items[0] as Element
    if (within && !within.contains(first)) continue
    const parent = first.parentElement as Element
    const tag = first.tagName.toLowerCase()
    const texts = items.map(textOf)
    if (texts.filter((text) => text.length > 0).length < items.length * 0.8) continue
    const table = tag === 'tr' ? (first.closest('table') as HTMLTableElement | null) : null
    const headers = table ? [...table.querySelectorAll('th')].map(textOf).join(' ').toLowerCase() : ''
    const generic = wanted.filter((word) => GENERIC[word]?.includes(tag)).length
    const listy = ['li', 'tr', 'article'].includes(tag) || ['listitem', 'row', 'article'].includes(first.getAttribute('role') ?? '')
    const textFit = items.filter((item) => mentions(textOf(item).toLowerCase()) > 0).length / items.length
    let score =
      2 * mentions(said(first)) +
      2 * mentions(said(parent)) +
      2 * mentions(labelOf(parent).toLowerCase()) +
      mentions(headers) +
      1.5 * generic +
      textFit
    // Inside the part a control just opened, any list is what the sentence asks for: words need not say it.
    if (score <= 0 && !(within && anyList)) continue
    if (listy) score += 0.5
    // A list of tiny boxes of one word each is chrome (a menu, tags), not what is asked for.
    score += Math.min(1, items.length / 10)
    if (first.closest(CHROME) && mentions(said(parent)) === 0) score -= 2
    if (score <= 0 && !(within && anyList)) continue
    // The selector: the items' tag under their container's kind, widened by the container's
    // container until it matches the items only.
    const grand = parent.parentElement
    const candidates = [`${keyOf(parent)} > ${tag}`, ...(grand ? [`${keyOf(grand)} > ${keyOf(parent)} > ${tag}`] : [])].map((candidate) =>
      scope ? `${scope} ${candidate}` : candidate,
    )
    if (tag === 'tr') candidates.push(...candidates.map((candidate) => `${candidate}:has(> td)`))
    const selector = candidates.find((candidate) => {
      try {
        const found = [...document.querySelectorAll(candidate)].filter(visible)
        return found.length === items.length && found.every((element, index) => element === items[index])
      } catch {
        return false
      }
    })
    if (!selector) continue
    const readable: TargetAlternative[] = []
    const testId = first.getAttribute('data-testid')
    if (testId && items.every((item) => item.getAttribute('data-testid') === testId)) readable.push({ by: 'testId', id: testId })
    const role = first.getAttribute('role') ?? { li: 'listitem', tr: 'row', article: 'article' }[tag]
    if (role) readable.push({ by: 'role', role } as TargetAlternative)
    results.push({
      selector,
      count: items.length,
      tag,
      table: Boolean(table && headers),
      readable,
      parts: partsOf(items, table && headers ? table : null),
      sample: texts.slice(0, 3).map((text) => text.slice(0, 80)),
      score,
    })
  }
  results.sort((a, b) => b.score - a.score || b.count - a.count)
  return results.slice(0, 3)
}

/** The words of a phrase that may say which items: 'the todos' -> ['todos']. */
export function itemWords(words: string): string[] {
  return words
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(
      (word) => word && !['the', 'all', 'every', 'each', 'of', 'a', 'an', 'on', 'in', 'from', 'this', 'page', 'with', 'and'].includes(word),
    )
}

/** The best group of repeated items the words mean on this page (inside `scope` when given), or null. */
export async function findRepeatedItems(
  page: Page,
  words: string,
  scope: { selector: string; anyList: boolean } | null = null,
): Promise<RepeatedItems | null> {
  const found = await page
    .evaluate(findItemGroups, { words: itemWords(words), scope: scope?.selector ?? null, anyList: scope?.anyList ?? false })
    .catch(() => [])
  return found[0] ?? null
}
