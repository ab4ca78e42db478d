import { findElement, normalise } from '#server/browser/element-match.ts'
import { valueKindOf } from '#server/browser/repeated-values.ts'
import type { Target } from '#common/targets.ts'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'
import type { VerbPlanning } from './plan-verbs.ts'

// 'Search the notes for bothy, then open the note it finds': the text typed into the page's
// search box, sent only when the page did not answer while typing (a search that filters as you
// type needs no Enter, and its "advanced search" button is not the way to send it), and "the one
// it finds" is the result the search brought: the first link or item showing the words searched
// for, one that came with the search first.

/** What a search leaves for "the one it finds": what could be clicked before it, and its words. */
export interface SearchDone {
  text: string
  before: Map<string, SnapshotElement>
  /** What could be clicked before it, by its words and where it was: the same words elsewhere came with the search. */
  placesBefore: Set<string>
  field: SnapshotElement
}

/** 'the note it finds', 'the one that comes up', 'the first result', 'the match'. */
const RESULT_PHRASE =
  /^(?:the\s+)?(?:first\s+|top\s+|only\s+)?(?:(?:[\w-]+\s+)?(?:(?:it|that|which|the\s+search)\s+(?:finds|found|comes?\s+up|came\s+up|turns?\s+up|shows?|returns?|brings?\s+up|gives?)|(?:that|which)\s+(?:was|is)\s+found)|results?|match(?:es)?|hits?)$/i

export const namesAResult = (words: string) => RESULT_PHRASE.test(words.trim())

/** 'the email from Ada Lovelace', 'the message from the library': one thing known by who sent or wrote it. */
const KNOWN_BY =
  /^(?:the|a|an|that|this)\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)\s+(?:from|by|sent\s+by|written\s+by|signed\s+by)\s+(?:the\s+)?(.+)$/iu

/**
 * Who or what a thing is known by, when the words name one thing by its sender or author (words a
 * list often does not show, but its search knows): 'Ada Lovelace' of 'the email from Ada Lovelace'.
 * Null for anything else, and for many things ('the emails from …' only searches).
 */
export function knownBy(words: string): { by: string; one: boolean } | null {
  const match = KNOWN_BY.exec(words.trim())
  if (!match?.[1] || !match[2]) return null
  // 'the settings from the menu': a place on the page, not who sent it.
  if (
    /^(?:the\s+)?(?:menu|list|sidebar|side\s+bar|page|top|bottom|left|right|header|footer|toolbar|drop-?down|navigation|nav|tab|panel)\b/i.test(
      match[2],
    )
  )
    return null
  return { by: match[2], one: !/s$/i.test(match[1]) }
}

/** What a search box's own button says. */
const SEND_WORDS = ['search', 'find', 'go', 'submit', 'search now']
const CLICKABLE_ROLES = new Set(['link', 'option', 'button', 'listitem', 'menuitem', 'row', 'treeitem', 'gridcell', 'cell'])
const keyOf = (element: SnapshotElement) => `${element.role}|${element.name ?? ''}|${element.text ?? ''}`
const placeOf = (element: SnapshotElement) => `${keyOf(element)}|${cssOf(element)}`
const clickable = (element: SnapshotElement) => element.interactive && CLICKABLE_ROLES.has(element.role ?? '')

/** The field to search in: a search box (it needs no name of its own), a field named for searching, the page's only field. */
export function searchField(elements: readonly SnapshotElement[]): SnapshotElement | null {
  const onlyOne = (role: string) => {
    const fields = elements.filter((element) => element.interactive && element.role === role)
    return fields.length === 1 ? (fields[0] as SnapshotElement) : null
  }
  const boxes = elements.filter((element) => element.role === 'searchbox')
  return (
    findElement('search', boxes, 'field')?.element ??
    onlyOne('searchbox') ??
    findElement('search', elements, 'field')?.element ??
    onlyOne('textbox')
  )
}

/** Types the text into the search field and sends it unless the page answered already; what "the one it finds" needs. */
export async function planSearch(text: string, field: SnapshotElement, source: string, tools: VerbPlanning): Promise<SearchDone | null> {
  const target = await tools.targetOf(field)
  if (!target) return null
  const clickables = (await tools.look()).elements.filter(clickable)
  const before = new Map(clickables.map((element) => [keyOf(element), element]))
  const placesBefore = new Set(clickables.map(placeOf))
  await tools.keep({ type: 'type', target, text }, source)
  const after = (await tools.look()).elements
  if (after.some((element) => clickable(element) && !before.has(keyOf(element)) && shows(element, text))) {
    return { text, before, placesBefore, field }
  }
  // Its own button right after it ('Search', 'Go'), else Enter: never a button that only says more about searching.
  const buttons = after.filter(
    (element) => element.role === 'button' && element.interactive && element.ref > field.ref && element.ref - field.ref <= 5,
  )
  const own = buttons.find((button) => SEND_WORDS.includes(normalise(button.name || button.text || '')))
  const buttonTarget = own ? await tools.targetOf(own) : null
  await tools.keep(buttonTarget ? { type: 'click', target: buttonTarget } : { type: 'press', key: 'Enter', target }, source)
  return { text, before, placesBefore, field }
}

const cssOf = (element: SnapshotElement) => {
  const css = element.target.find((alternative) => alternative.by === 'css')
  return css && css.by === 'css' ? css.selector : ''
}

/**
 * A row left of a list whose other rows went: its path is theirs but for the step where the
 * rows of that list differ ('li:nth-of-type(2)', '(5)'; a list of one row says no position).
 */
function leftOf(gone: string[], css: string): boolean {
  const paths = gone.filter(Boolean).map((path) => path.split(' > '))
  const path = css.split(' > ')
  const first = paths[0]
  if (!first || !css || paths.some((other) => other.length !== path.length)) return false
  const bare = (step: string) => step.replace(/:nth-(?:of-type|child)\(\d+\)$/, '')
  // The rows' own step: where the rows that went differ; with one row gone, a step near the end.
  const varying = paths.length > 1 ? first.findIndex((step, index) => paths.some((other) => other[index] !== step)) : -1
  const differing = path.flatMap((step, index) => (step === first[index] ? [] : [index]))
  const index = differing[0] ?? -1
  if (differing.length !== 1 || bare(path[index] ?? '') !== bare(first[index] ?? '')) return false
  return varying >= 0 ? index === varying : index >= path.length - 3
}

/**
 * 'Which notes mention it', 'the results' asked right after a search: the target that reads what
 * the search brought — the links and items that came with it — or null when the words ask for one
 * thing, or it brought nothing (or nothing one target reads alone).
 */
export async function searchResultsTarget(search: SearchDone, what: string, tools: VerbPlanning): Promise<Target | null> {
  const things = what.trim().split(/\s+/).at(-1) ?? ''
  // Things, many of them ('the notes', 'all the results'), not a value of each ('the prices': read from the page).
  if (!/\b(?:all|every|each|which)\b/i.test(what) && !/(?:[^siu]s|ies)$/i.test(things)) return null
  if (valueKindOf(what) !== null) return null
  const fresh = (await tools.look()).elements.filter(
    // Results are links and items, never the buttons a search box shows beside itself ('clear', '1 matches').
    (element) =>
      clickable(element) && element.role !== 'button' && element.ref !== search.field.ref && !search.placesBefore.has(placeOf(element)),
  )
  const [only] = fresh
  if (fresh.length === 1 && only) return tools.targetOf(only)
  // Several: the CSS path they share up to where they part, then the kind of element they are.
  const paths = fresh.map(cssOf).filter(Boolean)
  if (paths.length < 2 || paths.length !== fresh.length) return null
  const split = paths.map((path) => path.split(' > '))
  const first = split[0] as string[]
  let shared = 0
  while (shared < first.length - 1 && split.every((steps) => steps[shared] === first[shared])) shared += 1
  const tag = (first.at(-1) ?? '').replace(/:nth-(?:of-type|child)\(\d+\)$/, '')
  const selector = `${first.slice(0, shared).join(' > ')} ${tag}`
  return (await tools.count(selector)) === fresh.length ? [{ by: 'css', selector }] : null
}

const shows = (element: SnapshotElement, text: string) => normalise(`${element.name ?? ''} ${element.text ?? ''}`).includes(normalise(text))

/** Clicks "the one it finds": a result showing the words searched for, one the search brought first; else the first it brought. */
export async function openResult(search: SearchDone, source: string, tools: VerbPlanning): Promise<boolean> {
  const elements = (await tools.look()).elements.filter(
    (element) => clickable(element) && element.ref !== search.field.ref && element.role !== 'searchbox',
  )
  const isNew = (element: SnapshotElement) => !search.before.has(keyOf(element))
  // A list filtered as the words were typed: what is left of the list whose other rows went.
  const now = new Set(elements.map(keyOf))
  const gone = [...search.before].filter(([key]) => !now.has(key)).map(([, element]) => cssOf(element))
  const candidates = [
    ...elements.filter((element) => isNew(element) && shows(element, search.text)),
    ...elements.filter((element) => shows(element, search.text)),
    ...elements.filter((element) => isNew(element) && element.role !== 'button'),
    ...elements.filter((element) => !isNew(element) && leftOf(gone, cssOf(element))),
  ]
  for (const element of candidates) {
    const target = await tools.targetOf(element)
    if (!target) continue
    await tools.keep({ type: 'click', target }, source)
    return true
  }
  tools.notes.push(`Could not find what the search for “${search.text}” found (from “${source}”); that step was left out.`)
  return false
}
