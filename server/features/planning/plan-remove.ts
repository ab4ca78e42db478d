import type { Target } from '#common/targets.ts'
import { normalise, rankElements, readElementPhrase, type ElementPhrase } from '#server/browser/element-match.ts'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'
import { runWithValue } from './plan-run.ts'
import type { VerbPlanning } from './plan-verbs.ts'
import { valueIn } from './read-verb-clause.ts'

// 'Remove "Buy milk" from the list', 'delete the email about the marathon', 'get rid of the
// completed todos': how apps let people remove things, tried in turn on the page as it is —
//   1. a control the clause itself names ('Clear completed', 'Delete all'),
//   2. the delete control inside the thing's own row, item or card (shown, in many apps, only
//      while the pointer is over it: then the step hovers over the thing first),
//   3. the thing opened, then the delete control of the page it opens (mail and notes apps).

/** Words apps put on a control that removes something, the likeliest first. */
const REMOVE_WORDS = ['delete', 'remove', 'trash', 'destroy', 'discard', 'clear', 'bin', 'close', '×', '✕', '✖', 'x']
/** Nouns that only say what kind of thing is listed: 'the completed todos' names the 'completed' ones. */
const KIND_NOUNS =
  /\b(?:e-?mails?|mails?|messages?|items?|entries|entry|todos?|tasks?|notes?|records?|rows?|posts?|articles?|files?|documents?|ones?|tiddlers?)\b/gi
const CONTAINERS = ['item', 'row', 'card'] as const

/** 'the completed items' -> 'the completed': the words that tell which. */
export const withoutKindNouns = (words: string) => words.replace(KIND_NOUNS, ' ').replace(/\s+/g, ' ').trim()
/** A clause's words must say a control's words nearly exactly to be that control. */
const NAMED_SCORE = 0.85

type Found = { element: SnapshotElement; target: Target }

/** The words the thing is known by on the page: 'the email about the marathon training plan' -> 'the marathon training plan'. */
export function thingWords(element: string): string {
  const about = /\b(?:about|called|named|titled|saying|with\s+the\s+(?:subject|title|name))\s+(.+)$/i.exec(element)
  return (about?.[1] ?? element).replace(/^(?:the|a|an|my|your)\s+/i, '').trim()
}

export async function planRemove(instruction: { element: string; verb: string }, source: string, tools: VerbPlanning): Promise<void> {
  // 'Remove book 4' with an operation 'Remove a book' that asks which: run with 4.
  const value = valueIn(instruction.element)
  const which = value
    ? instruction.element
        .slice(0, instruction.element.lastIndexOf(value))
        .replace(/(?:#|\bnumber|\bno\.?|\bid)\s*$/i, '')
        .trim()
    : ''
  if (value && which && (await runWithValue(instruction.verb, which, value, source, tools))) return
  if (await clickNamedControl(instruction, source, tools)) return
  const words = thingWords(instruction.element)
  // The thing is often a link in its list (a mail's subject): any element that says it.
  const thing = await tools.find(words, 'any', source)
  if (!thing) return
  const shown = (thing.element.text ?? thing.element.name ?? words).trim().slice(0, 120)
  const inside = await controlInside(shown, tools)
  if (inside) return tools.keep({ type: 'click', target: inside.target }, source)
  // Many lists show an item's delete control only while the pointer is over the item.
  await tools.keep({ type: 'hover', target: thing.target }, source)
  const revealed = await controlInside(shown, tools)
  if (revealed) return tools.keep({ type: 'click', target: revealed.target }, source)
  // Mail and notes apps delete the thing that is open.
  tools.unkeep()
  await tools.keep({ type: 'click', target: thing.target }, source)
  const onPage = await removeControl((await tools.look()).elements, tools)
  if (onPage) return tools.keep({ type: 'click', target: onPage }, source)
  tools.notes.push(`Found “${shown}” but no control that deletes it (from “${source}”); check the steps before running.`)
}

/** 'Clear the completed items' is the button 'Clear completed'; 'delete all mail' is 'Delete all'. */
async function clickNamedControl(instruction: { element: string; verb: string }, source: string, tools: VerbPlanning): Promise<boolean> {
  const controls = (await tools.look()).elements.filter(
    (element) => element.interactive && (element.role === 'button' || element.role === 'link'),
  )
  const thing = withoutKindNouns(instruction.element)
  const verbs = [instruction.verb, ...REMOVE_WORDS.slice(0, 6)].filter((verb, index, all) => all.indexOf(verb) === index)
  for (const verb of verbs) {
    for (const phrase of [`${verb} ${instruction.element}`, `${verb} ${thing}`]) {
      const [best] = rankElements(phrase, controls, 'clickable')
      if (!best || best.score < NAMED_SCORE) continue
      const target = await tools.targetOf(best.element)
      if (!target) continue
      await tools.keep({ type: 'click', target }, source)
      return true
    }
  }
  return false
}

/** The control that removes the thing, inside the row, item or card showing its words. */
async function controlInside(shown: string, tools: VerbPlanning): Promise<Found | null> {
  const saysThing = (element: SnapshotElement) => normalise(element.text || element.name || '') === normalise(shown)
  for (const kind of CONTAINERS) {
    const within = { kind, text: shown }
    for (const words of REMOVE_WORDS) {
      const phrase: ElementPhrase = { words, roles: ['button', 'link'], quoted: false, within }
      const found = await tools.placed(phrase, 'clickable')
      // The thing itself (a mail's subject link) is not the control that deletes it.
      if (found && !saysThing(found.element)) return found
    }
    // An icon button with no words: the row's only button.
    const only = await tools.placed({ words: '', roles: ['button'], quoted: false, within }, 'clickable')
    if (only && !only.element.name.trim()) return only
  }
  return null
}

/** A control on the page that deletes what is open: 'Delete', 'Move to trash', a bin icon named so. */
async function removeControl(elements: readonly SnapshotElement[], tools: VerbPlanning): Promise<Target | null> {
  // An icon that deletes is often a plain element with a title ('<a title="Delete"><i class="fa-trash">').
  const controls = elements.filter((element) => element.interactive)
  for (const words of REMOVE_WORDS.slice(0, 5)) {
    const [best] = rankElements(readElementPhrase(words), controls, 'clickable')
    if (!best || best.score < 0.7) continue
    const target = await tools.targetOf(best.element)
    if (target) return target
  }
  return null
}
