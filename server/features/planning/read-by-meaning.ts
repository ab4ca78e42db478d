import { normalise } from '#server/browser/element-match.ts'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'

// 'read how much is due', 'get the date Wildwood has to be back', 'read who it was sent to': a
// question about a value, not the words of an element. The value is the text that carries the
// question's words, or what the question stands for (how much: amount, total, due…), in the shape
// asked for (a number, a date, an address); a label on its own ('To:') is read by the value after
// it. 'Its ingredients', 'the text of the Welcome note': the text under the heading of the thing.

type Shape = 'number' | 'numeral' | 'date' | 'person' | 'path'

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*'
const SHAPES: Record<Shape, RegExp> = {
  number: /\d/,
  /** A number standing as a word of its own ('1042', 'Order #1042'), not a count in braces ('{6}'). */
  numeral: /(?:^|[\s#(])\d[\d,.]*(?=[\s):;,.]|$)/,
  date: new RegExp(
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\b|\\b${MONTH}\\s+\\d{1,2}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?\\b`,
    'i',
  ),
  person: /@|\b[A-Z][a-z]+\s+[A-Z][a-z]+/,
  path: /(?:^|\s)\/[\w{}.~-]+(?:\/[\w{}.~-]*)*(?=\s|$)/,
}

/** What a question stands for: the words its answer is labelled with, and the answer's shape. */
const QUESTIONS: { asks: RegExp; words: string[]; shape?: Shape }[] = [
  {
    asks: /\bhow\s+much\b|\b(?:amount|price|cost)\b/i,
    words: ['amount', 'total', 'price', 'cost', 'due', 'balance', 'sum', 'fee', 'pay'],
    shape: 'number',
  },
  { asks: /\bhow\s+many\b/i, words: ['count', 'number', 'total', 'left'], shape: 'number' },
  // 'the order number': the value that is a number ('the number of items' asks how many).
  { asks: /\b(?:number|no\.)(?!\s+of\b)/i, words: ['number', 'no', 'id'], shape: 'numeral' },
  { asks: /\bwho\s+(?:wrote|writes|authored)\b|\bauthors?\b|\bwriters?\b/i, words: ['author', 'authors', 'by', 'writer', 'written'] },
  { asks: /\bsent\s+to\b|\brecipients?\b|\baddressed\s+to\b/i, words: ['to', 'recipient', 'recipients', 'cc'], shape: 'person' },
  { asks: /\bwho\s+sent\b|\bsender\b|\bwho\b.*\bfrom\b/i, words: ['from', 'sender'], shape: 'person' },
  { asks: /\bwhen\b|\bdates?\b|\bdeadline\b/i, words: ['date', 'due', 'by', 'on', 'until', 'deadline'], shape: 'date' },
  { asks: /\b(?:path|endpoint|route)s?\b/i, words: ['path', 'endpoint', 'route'], shape: 'path' },
]

/** The part of a text in the shape the question asks for ('/loans' of 'GET /loans List loans'), or null. */
export function shapedPart(question: string, text: string): string | null {
  const shape = QUESTIONS.find((entry) => entry.shape && entry.asks.test(question))?.shape
  return shape ? (SHAPES[shape].exec(text)?.[0].trim() ?? null) : null
}

/** Words of a request that say nothing about where the value is. */
const SAY_NOTHING = new Set(
  'read get tell me the a an is it its was were has have had to be of what who whom how much many when which this that and out copy find show value does do did say says back'.split(
    ' ',
  ),
)

/** Every word, stop words too ('to' is what 'To:' says). */
const wordsOf = (text: string) => normalise(text).split(' ').filter(Boolean)
const MAX_VALUE_CHARS = 300
/** How far above a value the words that say whose it is may be (a few rows). */
const CONTEXT_PX = 100
const hasText = (element: SnapshotElement) => !element.interactive && Boolean(element.text?.trim())
/** A value is short; a thing's text (under its heading) may be long. */
const readable = (element: SnapshotElement) => hasText(element) && (element.text?.length ?? 0) <= MAX_VALUE_CHARS
/** A label alone ('To:', 'Amount due'): its value is the text after it. */
const LABEL_ONLY_TAGS = new Set(['dt', 'th', 'label'])
const isLabel = (element: SnapshotElement) =>
  (/:\s*$/.test(element.text ?? '') || LABEL_ONLY_TAGS.has(element.tag)) && wordsOf(element.text ?? '').length <= 4

/** The element holding the value the question asks for, or null when no text carries its words. */
export function valueByMeaning(question: string, elements: readonly SnapshotElement[]): SnapshotElement | null {
  const asked = QUESTIONS.filter((entry) => entry.asks.test(question))
  const own = wordsOf(question).filter((word) => !SAY_NOTHING.has(word) && !asked.some((entry) => entry.asks.test(word)))
  const words = new Set([...own, ...asked.flatMap((entry) => entry.words)])
  if (words.size === 0) return null
  const shape = asked.find((entry) => entry.shape)?.shape
  // What is asked for is named last before where it is ('the customer's name', 'email from the order'): it counts most.
  const head = headOf(question)
  const texts = elements.filter(readable)
  // A path ('/loans') is a value even inside a control's words ('GET /loans List loans'); a number or
  // a name there is the control's own label.
  const shapedControls = shape === 'path' ? elements.filter((element) => element.interactive && SHAPES.path.test(element.text ?? '')) : []
  const scored = [...texts, ...shapedControls]
    .map((element) => {
      const said = new Set(wordsOf(element.text ?? ''))
      // A label ('To:', a cell saying only words asked for: 'name') is read by its value: right of it, else after it.
      const onlyAsked = [...said].every((word) => words.has(word))
      const value =
        isLabel(element) || onlyAsked
          ? (valueRightOf(element, elements) ??
            (isLabel(element) ? texts.find((next) => next.ref > element.ref && !isLabel(next)) : element))
          : element
      const hits = [...words].filter((word) => said.has(word)).length + (head && said.has(head) ? 1 : 0)
      // 'the customer's name' where every item has a name: the one just under what says 'customer'.
      const rest = own.filter((word) => !said.has(word))
      const saysWhose = texts.filter(
        (above) =>
          rest.length > 0 &&
          above.box.y <= element.box.y &&
          element.box.y - above.box.y <= CONTEXT_PX &&
          rest.some((word) => wordsOf(above.text ?? '').includes(word)),
      )
      const whose = Math.min(...saysWhose.map((above) => element.box.y - above.box.y))
      return {
        element: value,
        hits: hits + (saysWhose.length ? 0.5 : 0),
        whose,
        fits: Boolean(value && shape && SHAPES[shape].test(value.text ?? '')),
      }
    })
    .filter(
      (entry): entry is { element: SnapshotElement; hits: number; whose: number; fits: boolean } =>
        Boolean(entry.element) && entry.hits > 0,
    )
  const shaped = shape && scored.some((entry) => entry.fits) ? scored.filter((entry) => entry.fits) : scored
  // Most words; then nearest under the words that say whose it is; then the shortest.
  shaped.sort((a, b) => b.hits - a.hits || a.whose - b.whose || (a.element.text?.length ?? 0) - (b.element.text?.length ?? 0))
  return shaped[0]?.element ?? null
}

/** What is asked for is named last before where it is ('the customer's name', 'email from the order'). */
function headOf(question: string): string | undefined {
  return wordsOf(question.split(/\s+(?:from|of|in|on|at|for)\s+/i)[0] ?? '')
    .filter((word) => !SAY_NOTHING.has(word) && word !== 's')
    .at(-1)
}

/** Kind nouns that name no thing of their own ('the Welcome note' is Welcome). */
const KIND = /\s+(?:note|tiddler|page|post|article|entry|item|email|e-mail|mail|message|card|section|recipe|document|record)s?$/i

/**
 * 'the text of the Welcome note', 'the body of Pancakes': the thing's name, or null when the words
 * ask for no thing's text. `its` is what the words 'its …' stand for (the thing opened last).
 */
export function textOfThing(words: string, its: string | null): string | null {
  const of = /^(?:the\s+)?(?:text|body|content|contents|words)\s+(?:of|in)\s+(?:the\s+)?(.+)$/i.exec(words.trim())
  if (of) return (of[1] ?? '').replace(KIND, '').trim() || null
  if (/^(?:its|their)\s+\S/i.test(words.trim()) && its) return its
  return null
}

/** The text under the heading that names the thing: the longest text before the next heading. */
export function textUnderHeading(thing: string, elements: readonly SnapshotElement[]): SnapshotElement | null {
  const wanted = normalise(thing)
  const heading = elements.find((element) => element.role === 'heading' && normalise(element.text ?? element.name ?? '') === wanted)
  return heading ? textUnder(heading, elements) : null
}

const LABEL_TAGS = new Set(['label', 'dt', 'th', 'legend', 'caption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

/**
 * 'the response body' where the page shows a heading or label saying just that: what it heads is
 * wanted, not its words. The text under it, or null when the element is not such a title.
 */
export function valueUnderTitle(words: string, title: SnapshotElement, elements: readonly SnapshotElement[]): SnapshotElement | null {
  const says = normalise((title.text ?? title.name ?? '').replace(/:\s*$/, ''))
  const asked = normalise(words)
  // 'the customer's name', 'email from the order' where a cell says 'name', 'email': what is asked for.
  if (!says || (says !== asked && says !== headOf(words) && !asked.endsWith(` ${says}`))) return null
  const beside = valueRightOf(title, elements)
  if (beside) return beside
  const isTitle = title.role === 'heading' || LABEL_TAGS.has(title.tag) || isLabel(title)
  return isTitle ? textUnder(title, elements, 1) : null
}

/** The text right of a label on its line ('name' | ':' | 'Grace Hopper'), punctuation between skipped. */
function valueRightOf(label: SnapshotElement, elements: readonly SnapshotElement[]): SnapshotElement | null {
  const line = (element: SnapshotElement) => Math.abs(element.box.y - label.box.y) <= Math.max(4, label.box.height / 2)
  return (
    elements
      .filter(
        (element) =>
          element !== label &&
          hasText(element) &&
          /[\p{L}\p{N}]/u.test(element.text ?? '') &&
          line(element) &&
          element.box.x >= label.box.x + label.box.width - 2,
      )
      .sort((a, b) => a.box.x - b.box.x)[0] ?? null
  )
}

/** The longest text below the heading in its column (a sidebar beside it is not its text), before the next heading there. */
function textUnder(heading: SnapshotElement, elements: readonly SnapshotElement[], minWords = 3): SnapshotElement | null {
  const column = (element: SnapshotElement) =>
    element.box.x < heading.box.x + Math.max(heading.box.width, 200) && element.box.x + element.box.width > heading.box.x
  const after = elements.filter((element) => element.ref > heading.ref && column(element))
  const end = after.find((element) => element.role === 'heading')?.ref ?? Infinity
  const body = after.filter((element) => element.ref < end && hasText(element) && wordsOf(element.text ?? '').length >= minWords)
  return body.sort((a, b) => (b.text?.length ?? 0) - (a.text?.length ?? 0))[0] ?? null
}

/** 'the Reading list and the Packing list from the Welcome note' -> the Reading list, the Packing list (one part when there is no list). */
export function eachOf(words: string): string[] {
  const parts = words
    .replace(/\s+(?:from|in|on|under)\s+(?:the\s+)?[^,]+$/i, '')
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map((part) => part.trim())
    .filter(Boolean)
  return parts.length > 1 ? parts : [words]
}

const sameWords = (a: string | null | undefined, b: string | null | undefined) => Boolean(a) && normalise(a ?? '') === normalise(b ?? '')

/**
 * A key and its value side by side in a row, both editable (a JSON tree, a settings grid): for the
 * key, the value beside it. Null when the element is not such a key.
 */
export function valueBeside(key: SnapshotElement, elements: readonly SnapshotElement[]): SnapshotElement | null {
  const besideIt = (element: SnapshotElement, other: SnapshotElement) =>
    element.within?.some((container) => (container.kind === 'row' || container.kind === 'near') && sameWords(container.text, other.text))
  return (
    elements.find(
      (value) =>
        value !== key &&
        value.interactive &&
        isTextField(value) &&
        !sameWords(value.text, key.text) &&
        besideIt(value, key) &&
        besideIt(key, value),
    ) ?? null
  )
}

/** A field a person types into: a text box, a text area, or editable text. */
export function isTextField(element: SnapshotElement): boolean {
  if (element.role === 'textbox' || element.role === 'searchbox') return true
  if (element.tag === 'textarea') return true
  if (element.tag === 'input')
    return !['checkbox', 'radio', 'submit', 'button', 'reset', 'file', 'range', 'color', 'image'].includes(element.type ?? 'text')
  // contenteditable: listed as usable with no role of its own.
  return element.role === null && element.interactive && !['a', 'button', 'select', 'summary', 'label'].includes(element.tag)
}
