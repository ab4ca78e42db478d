import type { AutomationStep, STEP_KEYS } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { findElement, normalise, rankElements, readElementPhrase, type ElementWant } from '#server/browser/element-match.ts'
import { confirmTarget, type PageSnapshot, type SnapshotElement } from '#server/browser/page-snapshot.ts'
import type { Explorer } from './explorer.ts'
import { extractStep } from './plan-extract.ts'
import { planVerb } from './plan-verbs.ts'
import type { Read } from './instructions.ts'
import type { Instruction } from './read-clause.ts'

export interface DraftPlan {
  steps: AutomationStep[]
  /** What the member should know: parts of the sentence not used, elements not found, steps that did not work. */
  notes: string[]
}

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
  const notes: string[] = []
  let snapshot: PageSnapshot | null = null
  /** The last field typed into: 'submit' and 'press' act near it. */
  let lastField: SnapshotElement | null = null

  const page = async () => (snapshot ??= await explorer.look())
  const where = () => (snapshot?.title ? `the page “${snapshot.title}”` : 'the page')

  /** Keeps a step and tries it, so what follows is looked for on the page it leads to. */
  async function keep(step: AutomationStep, source: string) {
    steps.push(step)
    if (step.type === 'screenshot' || (step.type === 'wait' && step.ms !== undefined)) return
    const failed = await explorer.attempt(step)
    snapshot = null
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
  async function find(words: string, want: ElementWant, source: string): Promise<{ element: SnapshotElement; target: Target } | null> {
    const current = await page()
    const ranked = rankElements(words, current.elements, want).filter((match) => match.score >= 0.6)
    for (const match of ranked.slice(0, 3)) {
      const target = await targetOf(match.element)
      if (target) return { element: match.element, target }
    }
    notes.push(
      `Could not find ${quote(readElementPhrase(words).words || words)} on ${where()} (from ${quote(source)}); that step was left out.`,
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
        const read = readElementPhrase(instruction.element)
        const found = await find(instruction.element, read.roles.includes('checkbox') ? 'checkable' : 'clickable', source)
        if (found) return keep({ type: 'click', target: found.target }, source)
        return
      }
      case 'type': {
        const found = instruction.element ? await find(instruction.element, 'field', source) : await onlyField(source)
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
        if (!chosen) {
          // A custom drop-down: click it open, then the option.
          const opener = element ? await find(element, 'clickable', source) : null
          if (!opener) return
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
        return submit(source)
      case 'search': {
        const current = await page()
        const field =
          findElement(
            'search',
            current.elements.filter((element) => element.role === 'searchbox'),
            'field',
          ) ??
          findElement('search', current.elements, 'field') ??
          (current.elements.filter((element) => element.interactive && element.role === 'textbox').length === 1
            ? {
                element: current.elements.find((element) => element.interactive && element.role === 'textbox') as SnapshotElement,
                score: 1,
              }
            : null)
        const target = field ? await targetOf(field.element) : null
        // 'find the total' on a page with nothing to search in asks to read it.
        if (!field || !target) {
          if (!current.elements.some((element) => element.role === 'searchbox' || element.role === 'textbox')) {
            return extract(instruction.text, null, source)
          }
          notes.push(`Could not find a search field on ${where()} (from ${quote(source)}); that step was left out.`)
          return
        }
        lastField = field.element
        await keep({ type: 'type', target, text: instruction.text }, source)
        return submit(source, ['search', 'find', 'go'])
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
      default:
        return planVerb(instruction, source, { look: page, find, targetOf, keep, steps, notes })
    }
  }

  /** The page's one text field, when a sentence types without naming one. */
  async function onlyField(source: string): Promise<{ element: SnapshotElement; target: Target } | null> {
    const fields = (await page()).elements.filter((element) => element.interactive && ['textbox', 'searchbox'].includes(element.role ?? ''))
    const [only] = fields
    const target = fields.length === 1 && only ? await targetOf(only) : null
    if (only && target) return { element: only, target }
    notes.push(
      `${quote(source)} does not say which field to type into, and ${where()} has ${fields.length === 0 ? 'none' : `${fields.length}`}; that step was left out.`,
    )
    return null
  }

  /** Sends the form of the last field: its button (by the words given, else the next button), else Enter. */
  async function submit(source: string, words = ['submit', 'send', 'save', 'continue', 'sign in', 'log in', 'search', 'go', 'ok', 'next']) {
    const current = await page()
    const buttons = current.elements.filter((element) => element.role === 'button' && element.interactive)
    const after = lastField ? buttons.filter((button) => button.ref > (lastField as SnapshotElement).ref) : buttons
    const named = words.map((word) => rankElements(word, after, 'clickable')[0]).find((match) => match && match.score >= 0.6)
    const button = named?.element ?? after[0] ?? (buttons.length === 1 ? buttons[0] : undefined)
    const target = button ? await targetOf(button) : null
    if (target) return keep({ type: 'click', target }, source)
    const field = lastField ? await targetOf(lastField) : null
    if (field) return keep({ type: 'press', key: 'Enter', target: field }, source)
    notes.push(`Could not find how to send the form on ${where()} (from ${quote(source)}); that step was left out.`)
  }

  async function extract(what: string, field: string | null, source: string) {
    const step = await extractStep(
      { look: page, page: explorer.page, targetOf, find: (words) => find(words, 'readable', source) },
      what,
      field,
    )
    if (step) await keep(step, source)
  }

  if (start) await keep({ type: 'navigate', url: start }, 'the start page')
  for (const read of reads) {
    if (explorer.remaining() <= 0) {
      notes.push('Planning ran out of time; the rest of the description was not planned.')
      break
    }
    if ('unread' in read) {
      notes.push(
        `Could not use ${quote(read.unread)}: it names no action I know (go to, click, type … into …, choose … in …, check, press, wait, extract … as …, take a screenshot, check that … appears).`,
      )
      continue
    }
    await plan(read.instruction, read.source)
  }
  return { steps, notes }
}
