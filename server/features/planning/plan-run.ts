import { rankElements } from '#server/browser/element-match.ts'
import type { SnapshotElement } from '#server/browser/page-snapshot.ts'
import type { VerbPlanning } from './plan-verbs.ts'
import type { VerbInstruction } from './read-verb-clause.ts'

// 'Run the List loans request', 'call List books with author set to Macfarlane': what the page can
// run (an API console's operation, a saved query, a job) is opened, its fields filled in, and its
// own run control pressed: the one nearest below it. A console that asks to 'Try it out' (or to
// edit) before its fields and its run control show is asked first.

const RUN_WORDS = ['execute', 'run', 'send', 'send request', 'run query', 'call', 'submit']
const ENABLE_WORDS = ['try it out', 'edit', 'enable editing', 'unlock']
/** A control says the word itself, not more ('Execute', not 'Execute all'). */
const SAYS_IT = 0.9
/** A control named by the clause's verb and thing ('Remove a book' for 'remove book 4'). */
const NAMED = 0.8

type Run = Extract<VerbInstruction, { kind: 'run' }>

export async function planRun(instruction: Run, source: string, tools: VerbPlanning): Promise<void> {
  const opened = await tools.find(instruction.element, 'clickable', source)
  if (!opened) return
  // One open already (it says so) would close if clicked.
  if (opened.element.expanded !== true) await tools.keep({ type: 'click', target: opened.target }, source)
  const below = opened.element.box.y
  // Its fields may show, but stay locked until it is tried out: asked first when the page offers it.
  const enabled = instruction.settings.length > 0 && (await press(ENABLE_WORDS, below, source, tools))
  for (const { field, value } of instruction.settings) {
    const found = field === null ? await ownField(below, tools) : await tools.find(field, 'field', source)
    if (found) await tools.keep({ type: 'type', target: found.target, text: value }, source)
    else if (field === null)
      tools.notes.push(`Could not find where “${instruction.element}” takes ${value} (from “${source}”); that step was left out.`)
  }
  if (enabled) {
    if (!(await press(RUN_WORDS, below, source, tools))) tools.notes.push(cannotRun(instruction.element, source))
    return
  }
  if (await press(RUN_WORDS, below, source, tools)) return
  if ((await press(ENABLE_WORDS, below, source, tools)) && (await press(RUN_WORDS, below, source, tools))) return
  tools.notes.push(cannotRun(instruction.element, source))
}

/** The first empty text field below the opened thing: where it takes the value that says which one. */
async function ownField(below: number, tools: VerbPlanning) {
  const fields = (await tools.look()).elements
    .filter((element) => element.interactive && element.role === 'textbox' && !element.value && element.box.y >= below)
    .sort((a, b) => a.box.y - b.box.y)
  for (const field of fields) {
    const target = await tools.targetOf(field)
    if (target) return { element: field, target }
  }
  return null
}

/**
 * 'Remove book 4' with an operation 'Remove a book' (an API console, an admin tool): that operation,
 * opened and run with 4 in its own field. Only a control that opens a part (aria-expanded) is such an
 * operation. False, with nothing kept, when no control says the verb and the thing, or it opens no field.
 */
export async function runWithValue(verb: string, thing: string, value: string, source: string, tools: VerbPlanning): Promise<boolean> {
  // Only a control that opens something (it says whether it is open): never one that acts at once, as a row's Delete does.
  const controls = (await tools.look()).elements.filter((element) => element.interactive && element.expanded !== undefined)
  const [best] = rankElements(`${verb} ${thing}`, controls, 'clickable')
  if (!best || best.score < NAMED) return false
  const target = await tools.targetOf(best.element)
  if (!target) return false
  const below = best.element.box.y
  const clicked = best.element.expanded !== true
  if (clicked) await tools.keep({ type: 'click', target }, source)
  const enabled = await press(ENABLE_WORDS, below, source, tools)
  const field = await ownField(below, tools)
  if (!field) {
    if (enabled) tools.unkeep()
    if (clicked) tools.unkeep()
    return false
  }
  await tools.keep({ type: 'type', target: field.target, text: value }, source)
  if (!(await press(RUN_WORDS, below, source, tools))) tools.notes.push(cannotRun(`${verb} ${thing}`, source))
  return true
}

const cannotRun = (what: string, source: string) =>
  `Could not find how to run “${what}” (Execute, Run, Send) on the page (from “${source}”); that step was left out.`

/** Clicks the control saying one of the words (the first word first) nearest below the opened thing; false when none. */
async function press(words: string[], below: number, source: string, tools: VerbPlanning): Promise<boolean> {
  const controls = (await tools.look()).elements.filter((element) => element.interactive && element.box.y >= below)
  return pressSaying(words, controls, source, tools)
}

/**
 * Clicks the control that says one of the words itself (the first word first; of several, the
 * highest on the page): 'Execute', 'Confirm'. False, with nothing kept, when none does.
 */
export async function pressSaying(
  words: string[],
  controls: readonly SnapshotElement[],
  source: string,
  tools: VerbPlanning,
): Promise<boolean> {
  for (const word of words) {
    const saying = rankElements(word, controls, 'clickable')
      .filter((match) => match.score >= SAYS_IT)
      .map((match) => match.element)
      .sort((a, b) => a.box.y - b.box.y)
    for (const control of saying) {
      const target = await tools.targetOf(control)
      if (!target) continue
      await tools.keep({ type: 'click', target }, source)
      return true
    }
  }
  return false
}
