import type { TargetContainer } from '#common/target-containers.ts'
import { readPlacedPhrase } from './container-phrase.ts'
import type { SnapshotElement } from './page-snapshot.ts'

// Finds the element of a page snapshot that a person means by a few words ('the Send button',
// 'Email', 'the topic drop-down'): the offline planner resolves the elements of a sentence with
// it, and a run's self-repair looks for the element a broken target meant. Words are compared
// loosely (case, punctuation, plurals, a few common synonyms); the kind of element a step needs
// (a field to type in, something to click…) and the kind the words name ('button', 'link') weigh
// in. Nothing below a clear match is returned: a step is better left out than aimed at a guess.

/** What a step needs the element to be. */
export type ElementWant = 'field' | 'choice' | 'clickable' | 'checkable' | 'readable' | 'any'

/** Words that name the kind of an element, not the element: 'the Send button', 'the Email field'. */
const KIND_WORDS: [RegExp, string[]][] = [
  [/\b(?:radio\s+button|radio)$/, ['radio']],
  [/\b(?:check\s*box|tick\s*box)$/, ['checkbox', 'switch']],
  [/\b(?:toggle|switch)$/, ['switch', 'checkbox']],
  [/\b(?:button|btn)$/, ['button']],
  [/\blink$/, ['link']],
  [/\btab$/, ['tab']],
  [/\b(?:drop-?\s?down(?:\s+(?:menu|list|box))?|select(?:\s+box)?|combo\s*box|picker)$/, ['combobox', 'listbox']],
  [
    /\b(?:text\s*box|text\s*field|text\s*area|input(?:\s+field|\s+box)?|field|box|area)$/,
    ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  ],
  [/\b(?:search\s+bar)$/, ['searchbox', 'textbox']],
  [/\b(?:heading|header|title)$/, ['heading']],
  [/\b(?:menu\s+item)$/, ['menuitem']],
  [/\b(?:option)$/, ['option', 'radio']],
  [/\b(?:image|picture|icon|logo)$/, ['img']],
  [/\b(?:message|notice|banner|alert)$/, []],
  [/\b(?:tag|chip|pill|badge)$/, []],
  // Things a list holds, named with the kind of thing: 'the March invoice email', 'the Pancakes recipe'.
  [/\b(?:e-?mail|mail|item|entry|recipe|post|article|note|todo|task|record|document|file|story|product|order)$/, []],
]

const SYNONYMS: string[][] = [
  ['sign in', 'log in', 'login', 'signin', 'logon', 'log on'],
  ['sign up', 'register', 'create account', 'signup', 'join'],
  ['sign out', 'log out', 'logout', 'signout'],
  ['email', 'e mail', 'email address', 'e mail address', 'mail'],
  ['password', 'passcode', 'pass word'],
  ['username', 'user name', 'login name', 'user id'],
  ['submit', 'send', 'go', 'ok', 'confirm'],
  ['search', 'find', 'look up', 'go'],
  ['next', 'next page', 'more', 'forward'],
  ['previous', 'prev', 'back', 'previous page'],
  ['phone', 'telephone', 'phone number', 'mobile'],
  ['message', 'comment', 'comments', 'your message', 'details'],
  ['name', 'full name', 'your name'],
  ['cart', 'basket', 'bag'],
  ['price', 'cost', 'amount'],
  ['close', 'dismiss', 'x'],
  ['accept', 'agree', 'allow', 'ok'],
  ['all', 'every', 'each', 'everything'],
  ['empty', 'clear', 'delete all', 'remove all', 'clear all'],
]

const STOP = new Set([
  'the',
  'a',
  'an',
  'on',
  'of',
  'to',
  'your',
  'my',
  'this',
  'that',
  'in',
  'at',
  'for',
  'with',
  'page',
  'named',
  'called',
  'labelled',
  'labeled',
  'saying',
])

/** Lower case, letters and digits only, single spaces ('E-mail *' -> 'e mail'). */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

const stem = (word: string) =>
  word.length > 3 && word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word

/** The words that carry meaning, stemmed ('the Product names' -> ['product', 'name']). */
export const tokens = (text: string) =>
  normalise(text)
    .split(' ')
    .filter((word) => word && !STOP.has(word))
    .map(stem)

/** The phrase's synonyms: 'log in button' -> also 'sign in button', 'login button'. */
function variants(phrase: string): string[] {
  const base = normalise(phrase)
  const found = new Set([base])
  for (const group of SYNONYMS) {
    for (const word of group) {
      if (!new RegExp(`(^| )${word}( |$)`).test(base)) continue
      for (const other of group) if (other !== word) found.add(base.replace(new RegExp(`(^| )${word}( |$)`), `$1${other}$2`).trim())
    }
  }
  return [...found]
}

/** How well one text of an element says what the phrase says, 0..1. */
function textScore(phrase: string, text: string | null | undefined): number {
  if (!text) return 0
  const said = normalise(text)
  if (!said) return 0
  let best = 0
  for (const variant of variants(phrase)) {
    if (!variant) continue
    if (said === variant) return 1
    const want = tokens(variant)
    const have = tokens(said)
    if (!want.length || !have.length) continue
    if (want.join(' ') === have.join(' ')) {
      best = Math.max(best, 0.97)
      continue
    }
    const haveSet = new Set(have)
    const wantSet = new Set(want)
    const found = want.filter((word) => haveSet.has(word)).length
    const covered = have.filter((word) => wantSet.has(word)).length
    if (found === want.length) {
      // Every word asked for is there ('Email' in 'Email address'); fewer extra words is better.
      best = Math.max(best, 0.72 + 0.25 * (covered / have.length))
    } else if (covered === have.length) {
      // The element's words are all in the phrase ('Send' for 'send message'): weaker.
      best = Math.max(best, 0.45 + 0.3 * (found / want.length))
    } else if (found > 0) {
      best = Math.max(best, 0.5 * (found / Math.max(want.length, have.length)))
    }
    // A word cut short or run together ('pwd', 'fullname') still counts a little.
    if (
      best < 0.6 &&
      want.length === 1 &&
      (said.replace(/ /g, '').includes(want[0] as string) || (want[0] as string).includes(said.replace(/ /g, '')))
    ) {
      best = Math.max(best, 0.6)
    }
  }
  return best
}

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton'])
const CHOICE_ROLES = new Set(['combobox', 'listbox'])
const CHECK_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'])

function fitsWant(element: SnapshotElement, want: ElementWant): number {
  const role = element.role ?? ''
  const typable =
    element.tag === 'textarea' ||
    (element.tag === 'input' &&
      !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color'].includes(element.type ?? 'text'))
  switch (want) {
    case 'field':
      return typable || (FIELD_ROLES.has(role) && element.tag !== 'select') || role === 'textbox' ? 1 : 0
    case 'choice':
      return element.tag === 'select' ? 1 : CHOICE_ROLES.has(role) ? 0.9 : 0
    case 'checkable':
      return CHECK_ROLES.has(role) ? 1 : element.interactive ? 0.5 : 0
    case 'clickable':
      return element.interactive ? (typable ? 0.5 : 1) : 0.55
    case 'readable':
      return element.interactive ? 0.7 : 1
    case 'any':
      return 1
  }
}

export interface ElementPhrase {
  /** The words for the element, without the kind word ('Send message'). */
  words: string
  /** The roles its kind word names ('button' -> ['button']), if it named one. */
  roles: string[]
  /** The words were quoted: they are the element's name as written. */
  quoted: boolean
  /** Where it sits, when the phrase says ('Delete in the row for invoice 42'; container-phrase.ts). */
  within?: TargetContainer
  /** Which of the matches, from 1 ('the 2nd Edit link'). */
  nth?: number
}

/**
 * Splits 'the “Send message” button' into its words and the kind it names, and 'the checkbox in
 * the row for invoice 42' also into the container it names; words that are only a kind
 * ('the checkbox') leave the words empty then: the container tells which.
 */
export function readElementPhrase(phrase: string): ElementPhrase {
  const placed = readPlacedPhrase(phrase)
  if (!placed) return readOwnPhrase(phrase)
  const own = readOwnPhrase(placed.inner)
  const kindOnly =
    !own.quoted && !own.roles.length ? KIND_WORDS.find(([pattern]) => pattern.exec(own.words.toLowerCase())?.index === 0) : null
  return {
    ...(kindOnly ? { words: '', roles: kindOnly[1], quoted: false } : own),
    ...(placed.within ? { within: placed.within } : {}),
    ...(placed.nth !== undefined ? { nth: placed.nth } : {}),
  }
}

function readOwnPhrase(phrase: string): ElementPhrase {
  let words = phrase.trim().replace(/[.,;:!?]+$/, '')
  // 'its Recipe tag': the thing opened last shows it; its words are what find it.
  words = words.replace(/^(?:the|a|an|on|onto|into|in|its|their)\s+/i, '').replace(/^(?:the|a|an)\s+/i, '')
  let roles: string[] = []
  const quotedMatch = /^["“'‘](.+?)["”'’]\s*(.*)$/.exec(words)
  const bare = quotedMatch ? (quotedMatch[2] ?? '') : words
  for (const [pattern, named] of KIND_WORDS) {
    const lower = bare.toLowerCase()
    const hit = pattern.exec(lower)
    if (hit && (quotedMatch || hit.index > 0)) {
      roles = named
      if (!quotedMatch) words = words.slice(0, hit.index).trim()
      break
    }
  }
  if (quotedMatch) return { words: quotedMatch[1] ?? '', roles, quoted: true }
  return { words: words.replace(/^(?:the|a|an)\s+/i, ''), roles, quoted: false }
}

export interface ElementMatch {
  element: SnapshotElement
  score: number
}

/** Every element the phrase could mean, best first (score 0..1). */
export function rankElements(phrase: string | ElementPhrase, elements: readonly SnapshotElement[], want: ElementWant): ElementMatch[] {
  const read = typeof phrase === 'string' ? readElementPhrase(phrase) : phrase
  if (!read.words) return []
  const ranked: ElementMatch[] = []
  for (const element of elements) {
    const fit = fitsWant(element, want)
    if (fit === 0) continue
    const testId = element.testId ? element.testId.replace(/[-_]+/g, ' ') : null
    const said = Math.max(
      textScore(read.words, element.name),
      textScore(read.words, element.label),
      textScore(read.words, element.placeholder) * 0.95,
      element.text && element.text.length <= 120 ? textScore(read.words, element.text) * 0.95 : 0,
      textScore(read.words, testId) * 0.85,
      // Below 0.9: a control merely titled 'Run' does not say it (plan-run.ts).
      textScore(read.words, element.title) * 0.85,
      // Its id and classes, when nothing a person sees says it ('the total' is <div id="total">3 posts</div>).
      textScore(read.words, element.hint) * 0.7,
      // A field is sometimes known by what it holds ('the Topic' that says 'Order question').
      element.options ? Math.max(0, ...element.options.map((option) => textScore(read.words, option) * 0.5)) : 0,
    )
    if (said === 0) continue
    const role = element.role ?? ''
    const kind = read.roles.length === 0 ? 1 : read.roles.includes(role) ? 1.1 : 0.75
    ranked.push({ element, score: Math.min(1, said * fit * kind) })
  }
  // Best first; among equals, the interactive one, then the one higher on the page.
  return ranked.sort(
    (a, b) => b.score - a.score || Number(b.element.interactive) - Number(a.element.interactive) || a.element.ref - b.element.ref,
  )
}

/** What a clear match needs: below this, the words are too far from anything on the page. */
export const MATCH_THRESHOLD = 0.6

/** The element the phrase clearly means, or null (nothing close enough). */
export function findElement(phrase: string | ElementPhrase, elements: readonly SnapshotElement[], want: ElementWant): ElementMatch | null {
  const [best] = rankElements(phrase, elements, want)
  return best && best.score >= MATCH_THRESHOLD ? best : null
}
