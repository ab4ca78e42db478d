// The offline planner (docs/decisions/020, 043). Over 300 lines because its instructions share the
// state of one planning (the page as last seen, the field typed into, the last search, what was
// opened): they are closures over it in planOffline; what needs none of it lives beside it
// (plan-verbs, plan-search, plan-run, plan-extract, plan-remove).

import { guardSteps } from './condition-clause.ts'
import type { AutomationStep, STEP_KEYS } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import {
  findElement,
  MATCH_THRESHOLD,
  normalise,
  rankElements,
  readElementPhrase,
  tokens,
  type ElementWant,
} from '#server/browser/element-match.ts'
import { confirmTarget, type PageSnapshot, type SnapshotElement } from '#server/browser/page-snapshot.ts'
import type { Explorer } from './explorer.ts'
import { findPlaced } from './find-placed.ts'
import { withoutKindNouns } from './plan-remove.ts'
import { extractStep, fieldName } from './plan-extract.ts'
import { eachOf, isTextField, valueBeside } from './read-by-meaning.ts'
import { knownBy, planSearch, namesAResult, openResult, searchField, searchResultsTarget, type SearchDone } from './plan-search.ts'
import { planVerb, type VerbPlanning } from './plan-verbs.ts'
import type { Read } from './instructions.ts'
import { inPlanningOrder } from './plan-order.ts'
import type { Instruction } from './read-clause.ts'

/** What happened to a draft step when it was tried while planning. */
export interface StepTrial {
  /** Why it did not work, or null when it did (or needed no trying: a pause, a screenshot). */
  problem: string | null
  /** The page as the step left it: a small JPEG data URL, or null. */
  picture: string | null
}

export interface DraftPlan {
  steps: AutomationStep[]
  /** One per step, in order: how trying it went, for the member to review. */
  tried: StepTrial[]
  /** What the member should know: parts of the sentence not used, elements not found, steps that did not work. */
  notes: string[]
}

/** What a form's send button says, the likeliest first. */
const SUBMIT_WORDS = ['submit', 'send', 'save', 'continue', 'sign in', 'log in', 'search', 'go', 'ok', 'next']

const quote = (text: string) => `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`

/**
 * The offline planner (docs/decisions/020): reads the instructions of a sentence
 * (instructions.ts) and finds each element they name on the page as it is at that point, by the
 * words a person sees (element-match.ts), trying each step in the cloud browser so the next one
 * is looked for on the page this one leads to. A step is kept only with a target that matches
 * exactly one element; what it cannot use, it says in a note, and it never invents a target.
 */
export async function planOffline(reads: Read[], explorer: Explorer, start: string | null): Promise<DraftPlan> {
  const steps: AutomationStep[] = []
  const tried: StepTrial[] = []
  const notes: string[] = []
  let snapshot: PageSnapshot | null = null
  /** The last field typed into: 'submit' and 'press' act near it. */
  let lastField: SnapshotElement | null = null
  /** The last search: "open the one it finds" clicks what it found. */
  let lastSearch: SearchDone | null = null
  /** The count of steps when the last search was done: nothing since, its results are what the page shows. */
  let searchEnd = -1
  /** The name of what was clicked last: 'its ingredients' are the ingredients of that. */
  let lastOpened: string | null = null
  /** The tab selected last: 'read them' reads its panel first. */
  let lastTab: Target | null = null
  /** The control clicked last: 'its property names' are read in what it opened. */
  let lastClicked: Target | null = null

  const page = async () => (snapshot ??= await explorer.look())
  const where = () => (snapshot?.title ? `the page “${snapshot.title}”` : 'the page')

  /** Keeps a step and tries it, so what follows is looked for on the page it leads to. */
  async function keep(step: AutomationStep, source: string) {
    steps.push(step)
    // Another page: what was opened or selected on the last one is gone.
    if (step.type === 'navigate' || step.type === 'goBack') [lastTab, lastClicked] = [null, null]
    if (step.type === 'screenshot' || (step.type === 'wait' && step.ms !== undefined)) {
      tried.push({ problem: null, picture: await explorer.picture() })
      return
    }
    const failed = await explorer.attempt(step)
    snapshot = null
    tried.push({ problem: failed, picture: await explorer.picture() })
    if (failed)
      notes.push(
        `Step ${steps.length} (${step.type}, from ${quote(source)}) did not work while planning: ${failed}. Check it before running.`,
      )
  }

  /** A target for an element of the snapshot, checked to find exactly it. */
  async function targetOf(element: SnapshotElement): Promise<Target | null> {
    return confirmTarget(explorer.page, element.target)
  }

  /** The element the words name, with a checked target; a note when there is none. */
  async function find(
    words: string,
    want: ElementWant,
    source: string,
    options: { quiet?: boolean } = {},
  ): Promise<{ element: SnapshotElement; target: Target } | null> {
    // 'Delete in the row for invoice 42', 'the 2nd Edit link': the container and position too.
    const read = readElementPhrase(words)
    const placedOnly = Boolean(read.within?.text !== undefined || read.nth)
    const within = async (current: PageSnapshot) => {
      snapshot = current
      if (read.within || read.nth) {
        const placed = await findPlaced(explorer.page, read, current.elements, want)
        // Never another row's element instead: only 'in the dialog' may fall back to the words alone.
        if (placed || placedOnly) return placed
      }
      const ranked = rankElements(words, current.elements, want).filter((match) => match.score >= 0.6)
      for (const match of ranked.slice(0, 3)) {
        // A name shown beside its value ('status' | 'packing'): the value is the field.
        const element = want === 'field' ? (valueBeside(match.element, current.elements) ?? match.element) : match.element
        const target = await targetOf(element)
        if (target) return { element, target }
      }
      // 'the notes' in a tree of names and editable values: the value beside the name that says it.
      if (want === 'field' && !read.within && !read.nth) {
        for (const match of rankElements(words, current.elements, 'any')
          .filter((each) => each.score >= 0.9)
          .slice(0, 3)) {
          const value = valueBeside(match.element, current.elements)
          const target = value ? await targetOf(value) : null
          if (value && target) return { element: value, target }
        }
      }
      // 'Mark Buy milk as done': a box with no label of its own is the one next to those words.
      if (want === 'checkable' && !read.within && !read.nth && read.words) {
        return findPlaced(explorer.page, readElementPhrase(`the checkbox next to ${read.words}`), current.elements, want)
      }
      return null
    }
    // An app may draw the element a while after its page looked settled: looked for again, a while.
    const found = (await within(await page())) ?? (options.quiet ? null : await explorer.waitFor(within))
    if (found || options.quiet) return found
    notes.push(
      placedOnly
        ? `Could not find exactly one ${quote(words)} on ${where()} (from ${quote(source)}); that step was left out.`
        : `Could not find ${quote(read.words || words)} on ${where()} (from ${quote(source)}); that step was left out.`,
    )
    return null
  }

  async function plan(instruction: Instruction, source: string) {
    switch (instruction.kind) {
      case 'navigate': {
        const base = snapshot?.url ?? steps.findLast((step) => step.type === 'navigate')?.url ?? start
        const url = /^https?:\/\//i.test(instruction.url) ? instruction.url : base ? new URL(instruction.url, base).toString() : null
        if (!url) {
          notes.push(
            `Could not use ${quote(source)}: ${quote(instruction.url)} is not a full address (give the start page, or write https://…).`,
          )
          return
        }
        return keep({ type: 'navigate', url }, source)
      }
      case 'open':
      case 'click': {
        if (lastSearch && namesAResult(instruction.element)) return void (await openResult(lastSearch, source, tools))
        const read = readElementPhrase(instruction.element)
        const want = read.roles.includes('checkbox') ? 'checkable' : 'clickable'
        // 'Open the Reading list and the Packing list from the Welcome note': each of them, in turn.
        const each = eachOf(instruction.element)
        // 'Open the email from Ada Lovelace' where the list does not show who sent it: what its search finds.
        const by = knownBy(instruction.element)
        const found = await find(instruction.element, want, source, { quiet: each.length > 1 || Boolean(by?.one) })
        if (!found && by?.one && (await search(by.by, source, { open: true }))) return
        for (const words of found ? [] : each.length > 1 ? each : []) await click(await find(words, want, source), source)
        if (!found && by?.one && each.length <= 1) return click(await find(instruction.element, want, source), source)
        // 'Open the loans section' that is open already (its control says so) is left as it is.
        return click(found, source, instruction.kind === 'open' ? true : instruction.expand)
      }
      case 'type': {
        const shown = instruction.was ? await fieldShowing(instruction.was) : null
        if (!shown && instruction.was && !instruction.element && (await editInPlace(instruction.was, instruction.text, source))) return
        // 'replace the notes with …' where no field shows "the notes": the field called so.
        const named = instruction.element ?? (shown ? null : instruction.was)
        const found =
          shown ??
          (named
            ? ((await find(named, 'field', source, { quiet: true })) ??
              (await onlyField(source, { empty: true, quiet: true })) ??
              (await find(named, 'field', source)))
            : await onlyField(source))
        if (!found) return
        lastField = found.element
        return keep({ type: 'type', target: found.target, text: instruction.text }, source)
      }
      case 'select': {
        const current = await page()
        // 'choose Returns' with no drop-down named: the drop-down that offers it.
        const element = instruction.element ?? ''
        const byName = element ? findElement(element, current.elements, 'choice') : null
        const byOption = byName
          ? null
          : current.elements.find((candidate) => candidate.options?.some((option) => normalise(option) === normalise(instruction.value)))
        const chosen = byName?.element ?? byOption
        // 'set status to shipped' where status is a text, not a drop-down: typed.
        const dropDown = chosen && (chosen.options?.length || ['combobox', 'listbox'].includes(chosen.role ?? ''))
        const text = !dropDown && element ? await find(element, 'field', source, { quiet: true }) : null
        if (text && isTextField(text.element)) {
          lastField = text.element
          return keep({ type: 'type', target: text.target, text: instruction.value }, source)
        }
        if (!chosen) {
          // A custom drop-down: click it open, then the option; no such control ('editor mode' as a
          // row of buttons): the control that says the option.
          const opener = element ? await find(element, 'clickable', source, { quiet: true }) : null
          if (!opener) return click(await find(instruction.value, 'clickable', source), source)
          await keep({ type: 'click', target: opener.target }, source)
          const option = await find(instruction.value, 'clickable', source)
          if (option) await keep({ type: 'click', target: option.target }, source)
          return
        }
        const target = await targetOf(chosen)
        if (!target) {
          notes.push(`Could not find one ${quote(element || instruction.value)} drop-down on ${where()}; that step was left out.`)
          return
        }
        const options = chosen.options ?? []
        const exact = options.find((option) => normalise(option) === normalise(instruction.value))
        const close = exact ?? options.find((option) => normalise(option).includes(normalise(instruction.value)))
        if (options.length && !close) {
          notes.push(
            `${quote(chosen.label ?? chosen.name)} offers no option ${quote(instruction.value)} (it offers ${options.slice(0, 8).map(quote).join(', ')}); that step was left out.`,
          )
          return
        }
        return keep({ type: 'select', target, value: close ?? instruction.value }, source)
      }
      case 'press': {
        // A key without an element goes to the field just typed into.
        const found = instruction.element ? await find(instruction.element, 'field', source) : null
        const target = found?.target ?? (lastField && !instruction.element ? await targetOf(lastField) : null)
        const key = instruction.key as (typeof STEP_KEYS)[number]
        return keep(target ? { type: 'press', key, target } : { type: 'press', key }, source)
      }
      case 'submit':
        return instruction.first
          ? submit(source, [instruction.first, ...SUBMIT_WORDS.filter((word) => word !== instruction.first), 'done'])
          : submit(source)
      case 'search': {
        // 'Find the message from the library': its sender searched for, and the one message it finds opened.
        const by = knownBy(instruction.text)
        if (await search(by?.by ?? instruction.text, source, { open: Boolean(by?.one) })) return
        const current = await page()
        // 'find the total' on a page with nothing to search in asks to read it.
        if (!current.elements.some((element) => element.role === 'searchbox' || element.role === 'textbox')) {
          return extract(instruction.text, null, source)
        }
        notes.push(`Could not find a search field on ${where()} (from ${quote(source)}); that step was left out.`)
        return
      }
      case 'signIn': {
        const current = await page()
        const password = current.elements.find((element) => element.tag === 'input' && element.type === 'password')
        const user =
          findElement(
            'email',
            current.elements.filter((element) => element.type !== 'password'),
            'field',
          ) ??
          findElement(
            'username',
            current.elements.filter((element) => element.type !== 'password'),
            'field',
          ) ??
          (password
            ? {
                element: current.elements
                  .filter((element) => element.interactive && element.ref < password.ref && element.role === 'textbox')
                  .at(-1),
                score: 1,
              }
            : null)
        const userTarget = user?.element ? await targetOf(user.element) : null
        const passwordTarget = password ? await targetOf(password) : null
        if (!userTarget || !passwordTarget) {
          notes.push(`Could not find the sign-in fields on ${where()} (from ${quote(source)}); those steps were left out.`)
          return
        }
        await keep({ type: 'type', target: userTarget, text: instruction.user }, source)
        lastField = password ?? null
        await keep({ type: 'type', target: passwordTarget, text: instruction.password }, source)
        return submit(source, ['sign in', 'log in', 'continue', 'submit', 'next'])
      }
      case 'add': {
        const inPlace = await newEntryField(instruction.into)
        const found = inPlace ?? (await openNewEntryForm(instruction.into, source))
        if (!found) {
          notes.push(
            `Could not find where to add ${quote(instruction.into ?? 'it')} on ${where()} (from ${quote(source)}); that step was left out.`,
          )
          return
        }
        lastField = found.element
        await keep({ type: 'type', target: found.target, text: instruction.text }, source)
        if (instruction.body !== undefined) await typeBody(found.element, instruction.body, source)
        // A form opened by 'New …' is sent by what the sentence says next ('and save it').
        if (inPlace && instruction.body === undefined) return sendEntry(found, instruction.into, source)
        return
      }
      case 'waitTime':
        return keep({ type: 'wait', ms: Math.min(instruction.ms, 60_000) }, source)
      case 'waitFor': {
        if (instruction.quoted) return keep({ type: 'wait', target: [{ by: 'text', text: instruction.element }] }, source)
        const found = await find(instruction.element, 'any', source)
        if (found) return keep({ type: 'wait', target: found.target }, source)
        return
      }
      case 'extract':
        return extract(instruction.what, instruction.field, source)
      case 'screenshot':
        return keep(instruction.name ? { type: 'screenshot', name: instruction.name } : { type: 'screenshot' }, source)
      case 'assert':
        return keep({ type: 'assertText', text: instruction.text }, source)
      case 'guard':
        // Kept untried: what the page shows now says nothing of the rows or items a run will meet.
        for (const step of guardSteps(instruction.guard)) tools.arm(step, false)
        return
      case 'if':
        // The actions inside are tried as any other: when the page does not show the text while
        // planning, an element they need may not be there, and they are left out with a note.
        return tools.arm({ type: 'if', when: instruction.when, text: instruction.text }, false)
      case 'else':
        return tools.arm({ type: 'else' }, false)
      case 'endIf':
        return tools.arm({ type: 'end' }, false)
      default:
        return planVerb(instruction, source, tools)
    }
  }

  const tools: VerbPlanning = {
    look: page,
    find,
    placed: async (phrase, want) => findPlaced(explorer.page, phrase, (await page()).elements, want),
    targetOf,
    shows: async (target) => (await confirmTarget(explorer.page, target)) !== null,
    count: (selector) =>
      explorer.page
        .locator(selector)
        .count()
        .catch(() => 0),
    openedDialog: () => explorer.openedDialog(),
    keep,
    unkeep,
    steps,
    arm(step, beforeLast) {
      const at = beforeLast ? steps.length - 1 : steps.length
      steps.splice(at, 0, step)
      tried.splice(at, 0, { problem: null, picture: null })
    },
    notes,
  }

  /** Searches the page's search field for the text (and opens what it finds); false when the page has no search field. */
  async function search(text: string, source: string, options: { open: boolean }): Promise<boolean> {
    const field = searchField((await page()).elements)
    const done = field ? await planSearch(text, field, source, tools) : null
    if (!done) return false
    lastSearch = done
    searchEnd = steps.length
    lastField = done.field
    if (options.open) await openResult(done, source, tools)
    return true
  }

  async function click(found: { element: SnapshotElement; target: Target } | null, source: string, expand?: boolean) {
    if (!found) return
    lastOpened = found.element.name || found.element.text || null
    lastClicked = found.target
    lastTab = found.element.role === 'tab' ? found.target : null
    if (expand !== undefined && found.element.expanded === expand) return
    await keep({ type: 'click', target: found.target }, source)
  }

  /** Takes back the last step kept (a first move that led nowhere). */
  function unkeep() {
    steps.pop()
    tried.pop()
  }

  /** The field that shows this value now ('from Arlington'): an input's value or an editable element's text. */
  async function fieldShowing(value: string): Promise<{ element: SnapshotElement; target: Target } | null> {
    const wanted = normalise(value)
    const fields = (await page()).elements.filter(
      (element) => element.interactive && normalise(element.value ?? (element.tag === 'input' ? '' : (element.text ?? ''))) === wanted,
    )
    for (const field of fields) {
      const target = await targetOf(field)
      if (target) return { element: field, target }
    }
    return null
  }

  /**
   * 'Change “Call the plumber” to “Call the electrician”' where the words are plain text: the text
   * is edited where it is shown — double-clicked, the field that opens showing it typed over, and
   * Enter to keep it. False (nothing kept) when no text shows exactly those words or no field opens.
   */
  async function editInPlace(was: string, text: string, source: string): Promise<boolean> {
    const shownText = (element: SnapshotElement) => normalise(element.text ?? element.name ?? '') === normalise(was)
    const label = (await page()).elements.find((element) => !element.interactive && shownText(element))
    const labelTarget = label ? await targetOf(label) : null
    if (!labelTarget) return false
    await keep({ type: 'doubleClick', target: labelTarget }, source)
    const field = await fieldShowing(was)
    if (!field) {
      unkeep()
      return false
    }
    lastField = field.element
    await keep({ type: 'type', target: field.target, text }, source)
    await keep({ type: 'press', key: 'Enter', target: field.target }, source)
    return true
  }

  /**
   * A clause with no verb we know may be the words of a button or a link ('Try it out', 'execute
   * it'): each of its parts that names one clearly is a click. False when no part does.
   */
  async function clickNamed(clause: string, source: string): Promise<boolean> {
    const parts = clause.split(/\s*,\s*|\s+and\s+/i).filter(Boolean)
    const found: Target[] = []
    for (const part of parts) {
      const clickable = (await page()).elements.filter((element) => element.interactive)
      const said = [part, part.replace(/\b(?:it|them|this|that|one|please)\b/gi, ' ').trim(), withoutKindNouns(part)].filter(Boolean)
      const match = said
        .map((words) => rankElements(words, clickable, 'clickable')[0])
        .find(
          (candidate) => candidate && candidate.score >= 0.85 && (candidate.element.role === 'button' || candidate.element.role === 'link'),
        )
      const target = match ? await targetOf(match.element) : null
      if (!target) return found.length > 0
      await keep({ type: 'click', target }, source)
      found.push(target)
    }
    return found.length > 0
  }

  /**
   * The page's one text field, when a sentence types without naming one; with `empty`, its one
   * empty text field that is not a search or a password ('enter the API key X' in a dialog whose
   * one field says only 'Value'). Null (and, unless `quiet`, a note) when there is not exactly one.
   */
  async function onlyField(
    source: string,
    options: { empty?: boolean; quiet?: boolean } = {},
  ): Promise<{ element: SnapshotElement; target: Target } | null> {
    const fields = (await page()).elements.filter((element) =>
      options.empty
        ? element.interactive && element.role === 'textbox' && element.type !== 'password' && !element.value
        : element.interactive && ['textbox', 'searchbox'].includes(element.role ?? ''),
    )
    const [only] = fields
    const target = fields.length === 1 && only ? await targetOf(only) : null
    if (only && target) return { element: only, target }
    if (!options.quiet)
      notes.push(
        `${quote(source)} does not say which field to type into, and ${where()} has ${fields.length === 0 ? 'none' : `${fields.length}`}; that step was left out.`,
      )
    return null
  }

  /**
   * The field that makes a new entry: the one the thing's words name ('a todo': 'New todo',
   * 'What needs to be done?'), else the page's one empty text field that is not a search.
   */
  async function newEntryField(into: string | null): Promise<{ element: SnapshotElement; target: Target } | null> {
    const current = await page()
    const fields = current.elements.filter(
      (element) =>
        element.interactive && ['textbox', 'combobox'].includes(element.role ?? '') && element.type !== 'password' && !element.value,
    )
    const byWords = into ? rankElements(into, fields, 'field').filter((match) => match.score >= MATCH_THRESHOLD) : []
    const byIntent = rankElements('new add what', fields, 'field').filter((match) => match.score > 0)
    for (const candidate of [...byWords, ...byIntent].map((match) => match.element).concat(fields.length === 1 ? fields : [])) {
      const target = await targetOf(candidate)
      if (target) return { element: candidate, target }
    }
    return null
  }

  /**
   * 'Create a new tiddler titled Tent pegs': no field makes one on the page, so the control that
   * says so ('New tiddler', 'Create', '+') is clicked, and the form it opens gets the title — in
   * its field named so, or the one that shows a default like 'New Tiddler'.
   */
  async function openNewEntryForm(into: string | null, source: string): Promise<{ element: SnapshotElement; target: Target } | null> {
    const controls = (await page()).elements.filter(
      (element) => element.interactive && (element.role === 'button' || element.role === 'link'),
    )
    const phrases = [...(into ? [`new ${into}`, `create new ${into}`, `add ${into}`, `create ${into}`] : []), 'new', 'create', 'add', '+']
    const opener = phrases.map((phrase) => rankElements(phrase, controls, 'clickable')[0]).find((match) => match && match.score >= 0.8)
    const openerTarget = opener ? await targetOf(opener.element) : null
    if (!opener || !openerTarget) return null
    await keep({ type: 'click', target: openerTarget }, source)
    const fields = (await page()).elements.filter(
      (element) => element.interactive && ['textbox', 'combobox'].includes(element.role ?? '') && element.type !== 'password',
    )
    // The new entry's own title field often shows a default that says its kind ('New Tiddler').
    const showingKind = into
      ? fields.find((field) => field.value && tokens(field.value).some((word) => tokens(into).includes(word)))
      : undefined
    const titled = rankElements('title', fields, 'field').find((match) => match.score >= 0.9)?.element
    const named = rankElements('name', fields, 'field').find((match) => match.score >= 0.9)?.element
    const empty = fields.find((field) => field.tag === 'input' && !field.value)
    for (const candidate of [showingKind, titled, named, empty]) {
      const target = candidate ? await targetOf(candidate) : null
      if (candidate && target) return { element: candidate, target }
    }
    return null
  }

  /** The text of a new entry beside its title: the form's text area, or its field named text, body or content. */
  async function typeBody(title: SnapshotElement, body: string, source: string) {
    const fields = (await page()).elements.filter(
      (element) => element.interactive && element.ref !== title.ref && (element.tag === 'textarea' || element.role === 'textbox'),
    )
    const named = ['text', 'body', 'content', 'description', 'message']
      .map((words) => rankElements(words, fields, 'field')[0])
      .find((match) => match && match.score >= MATCH_THRESHOLD)?.element
    const area = fields.find((field) => field.tag === 'textarea') ?? named
    const target = area ? await targetOf(area) : null
    if (!target) {
      notes.push(`Could not find where to write ${quote(body)} on ${where()} (from ${quote(source)}); that step was left out.`)
      return
    }
    await keep({ type: 'type', target, text: body }, source)
  }

  /** An entry is sent by the button beside its field that adds or saves, else by Enter in the field. */
  async function sendEntry(field: { element: SnapshotElement; target: Target }, into: string | null, source: string) {
    const current = await page()
    const buttons = current.elements.filter(
      (element) => element.role === 'button' && element.interactive && element.ref > field.element.ref,
    )
    const words = ['add', 'create', 'save', 'submit', ...(into ? [`add ${into}`] : [])]
    const named = words
      .map((word) => rankElements(word, buttons, 'clickable')[0])
      .find((match) => match && match.score >= MATCH_THRESHOLD && match.element.ref - field.element.ref <= 5)
    const target = named ? await targetOf(named.element) : null
    if (target) return keep({ type: 'click', target }, source)
    return keep({ type: 'press', key: 'Enter', target: field.target }, source)
  }

  /** Sends the form of the last field: its button (by the words given, else the next button), else Enter. */
  async function submit(source: string, words = SUBMIT_WORDS) {
    const current = await page()
    const buttons = current.elements.filter((element) => element.role === 'button' && element.interactive)
    const after = lastField ? buttons.filter((button) => button.ref > (lastField as SnapshotElement).ref) : buttons
    const named = words.map((word) => rankElements(word, after, 'clickable')[0]).find((match) => match && match.score >= 0.6)
    // An editor's toolbar often sits above its fields ('ok', 'Save' at the top of the note): the nearest such button.
    const from = lastField?.ref ?? 0
    const above = named
      ? undefined
      : words
          .filter((word) => ['save', 'ok', 'done', 'submit', 'send'].includes(word))
          .flatMap((word) => rankElements(word, buttons, 'clickable').filter((match) => match.score >= 0.9))
          .sort((a, b) => Math.abs(a.element.ref - from) - Math.abs(b.element.ref - from))[0]
    const button = named?.element ?? above?.element ?? after[0] ?? (buttons.length === 1 ? buttons[0] : undefined)
    const target = button ? await targetOf(button) : null
    if (target) return keep({ type: 'click', target }, source)
    const field = lastField ? await targetOf(lastField) : null
    if (field) return keep({ type: 'press', key: 'Enter', target: field }, source)
    notes.push(`Could not find how to send the form on ${where()} (from ${quote(source)}); that step was left out.`)
  }

  async function extract(what: string, field: string | null, source: string) {
    // 'tell me which notes mention it' right after a search: what the search found.
    const results = lastSearch && searchEnd === steps.length ? await searchResultsTarget(lastSearch, what, tools) : null
    const things = what.replace(/^(?:(?:all|every|each)\s+(?:of\s+)?)?(?:the\s+)?/i, '')
    if (results) return keep({ type: 'extract', target: results, field: fieldName(field ?? things) }, source)
    const step = await extractStep(
      {
        look: page,
        page: explorer.page,
        targetOf,
        find: (words, options) => find(words, 'readable', source, options),
        its: lastOpened,
        tab: lastTab,
        opened: lastClicked,
        note: (text) => notes.push(`${text} (from ${quote(source)})`),
      },
      what,
      field,
    )
    if (step) await keep(step, source)
  }

  const ordered = inPlanningOrder(reads, start)
  if (ordered.start) await keep({ type: 'navigate', url: ordered.start }, 'the start page')
  for (const read of ordered.reads) {
    if (explorer.remaining() <= 0) {
      notes.push('Planning ran out of time; the rest of the description was not planned.')
      break
    }
    if ('unread' in read) {
      if (await clickNamed(read.unread, read.unread)) continue
      notes.push(
        `Could not use ${quote(read.unread)}: it names no action I know (go to, click, type … into …, choose … in …, check, press, wait, extract … as …, take a screenshot, check that … appears).`,
      )
      continue
    }
    const [stepsBefore, notesBefore] = [steps.length, notes.length]
    await plan(read.instruction, read.source)
    // 'Clear the completed items' read as clearing a field that is not there: the words may be a button's ('Clear completed').
    if (steps.length === stepsBefore && notes.length > notesBefore && (await clickNamed(read.source, read.source))) {
      notes.splice(notesBefore)
    }
  }
  return { steps, tried, notes }
}
