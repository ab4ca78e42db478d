import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { rankElements, type ElementPhrase, type ElementWant } from '#server/browser/element-match.ts'
import type { PageSnapshot, SnapshotElement } from '#server/browser/page-snapshot.ts'
import { planRemove } from './plan-remove.ts'
import { planRun, pressSaying } from './plan-run.ts'
import type { VerbInstruction } from './read-verb-clause.ts'

// The offline planner's steps for the verb instructions (read-verb-clause.ts): each finds its
// element on the page as it is at that point (offline-planner.ts's `find`) and keeps the step.

type Found = { element: SnapshotElement; target: Target }

export interface VerbPlanning {
  look(): Promise<PageSnapshot>
  /** `quiet`: no note when not found, and no looking again for a late element. */
  find(words: string, want: ElementWant, source: string, options?: { quiet?: boolean }): Promise<Found | null>
  /** The one element the phrase names by where it sits ('the Delete button in the item “Buy milk”'), or null. */
  placed(phrase: ElementPhrase, want: ElementWant): Promise<Found | null>
  targetOf(element: SnapshotElement): Promise<Target | null>
  /** Whether the target still finds exactly one element on the page. */
  shows(target: Target): Promise<boolean>
  /** How many elements on the page the CSS selector matches. */
  count(selector: string): Promise<number>
  /** Whether the last step tried opened a browser dialog (a confirm, an alert). */
  openedDialog(): boolean
  keep(step: AutomationStep, source: string): Promise<void>
  /** Takes back the last step kept (it was tried on the page, and led nowhere). */
  unkeep(): void
  /** The steps so far. */
  readonly steps: readonly AutomationStep[]
  /**
   * Keeps a step untried that answers what comes later (a browser dialog's answer), `beforeLast`:
   * before the last step kept, the click that opened the dialog when planning.
   */
  arm(step: AutomationStep, beforeLast: boolean): void
  notes: string[]
}

/** The words cookie banners' buttons say, the likeliest first: to accept, and to refuse. */
const ACCEPT_COOKIES = [
  'accept all cookies',
  'accept all',
  'accept cookies',
  'allow all',
  'accept',
  'agree',
  'i agree',
  'got it',
  'ok',
  'allow',
]
const REJECT_COOKIES = ['reject all', 'reject', 'decline', 'refuse', 'deny', 'necessary only', 'only necessary', 'close']
/** What a control that asks to be clicked again to confirm says. */
const DESTRUCTIVE = /\b(?:delete|remove|clear|empty|erase|discard|reset|trash|purge|wipe)\b/i
/** The words a target finds its element by (its name, text, label). */
const targetWords = (target: Target) =>
  target.map((alternative) => ('name' in alternative ? alternative.name : 'text' in alternative ? alternative.text : '')).join(' ')
/** What a page's own confirmation says. */
const CONFIRM_WORDS = ['confirm', 'ok', 'yes', 'confirm changes', 'done']
/** A banner that is not there when the run comes (it was answered before) must not fail the run. */
const WHEN_PRESENT = { onError: { retries: 0, delayMs: 0, then: 'skip' as const } }

export async function planVerb(instruction: VerbInstruction, source: string, tools: VerbPlanning): Promise<void> {
  const withElement = async (words: string, want: ElementWant, make: (target: Target) => AutomationStep) => {
    const found = await tools.find(words, want, source)
    if (found) await tools.keep(make(found.target), source)
  }
  switch (instruction.kind) {
    case 'check':
      return withElement(instruction.element, 'checkable', (target) => ({ type: 'check', target, checked: instruction.on }))
    case 'hover':
      // A menu opens on hovering over its heading, often plain text.
      return withElement(instruction.element, 'any', (target) => ({ type: 'hover', target }))
    case 'doubleClick':
      return withElement(instruction.element, 'any', (target) => ({ type: 'doubleClick', target }))
    case 'clear':
      return withElement(instruction.element, 'field', (target) => ({ type: 'clear', target }))
    case 'back':
      return tools.keep({ type: 'goBack' }, source)
    case 'switchTab':
      return tools.keep({ type: 'switchTab' }, source)
    case 'scroll': {
      if (!instruction.element) return tools.keep({ type: 'scroll' }, source)
      const found = await tools.find(instruction.element, 'any', source)
      if (found) return tools.keep({ type: 'scroll', target: found.target }, source)
      return
    }
    case 'waitGone':
      if (instruction.quoted) return tools.keep({ type: 'wait', target: [{ by: 'text', text: instruction.element }], gone: true }, source)
      return withElement(instruction.element, 'any', (target) => ({ type: 'wait', target, gone: true }))
    case 'dialog': {
      const step: AutomationStep = {
        type: 'dialog',
        action: instruction.action,
        ...(instruction.text !== null ? { text: instruction.text } : {}),
      }
      // 'click Delete and accept the confirmation': the answer is armed before the click that opens it.
      const last = tools.steps.at(-1)
      return tools.arm(step, Boolean(last && (last.type === 'click' || last.type === 'press' || last.type === 'doubleClick')))
    }
    case 'confirm': {
      // A Confirm or OK on the page (a modal, an editor's toolbar), else the browser's confirmation the last click opened.
      const current = (await tools.look()).elements.filter((element) => element.interactive)
      if (await pressSaying(CONFIRM_WORDS, current, source, tools)) return
      // No dialog came and no confirmation shows: a control that deletes may ask for a second click
      // ('Delete all' arms itself). Never a Save or a switch: clicked twice, they act twice or undo.
      const last = tools.steps.at(-1)
      if (last?.type === 'click' && DESTRUCTIVE.test(targetWords(last.target)) && !tools.openedDialog() && (await tools.shows(last.target)))
        return tools.keep({ ...last }, source)
      return planVerb({ kind: 'dialog', action: 'accept', text: null }, source, tools)
    }
    case 'run':
      return planRun(instruction, source, tools)
    case 'cookies':
      return cookieBanner(instruction.accept, source, tools)
    case 'remove':
      return planRemove(instruction, source, tools)
    case 'assertAbsent':
      return tools.keep({ type: 'assertText', text: instruction.text, absent: true }, source)
    case 'assertChecked':
      return withElement(instruction.element, 'checkable', (target) => ({ type: 'assertChecked', target, checked: instruction.on }))
    case 'assertCount': {
      const found = await tools.find(instruction.element, 'readable', source)
      if (!found) return
      return tools.keep({ type: 'assertCount', target: found.target, count: instruction.count }, source)
    }
  }
}

/** A click on the cookie banner's button, when the page shows one; skipped in a run that finds none. */
async function cookieBanner(accept: boolean, source: string, tools: VerbPlanning) {
  const snapshot = await tools.look()
  const said = (element: SnapshotElement) => `${element.name} ${element.text ?? ''}`
  // Buttons that say 'Accept' or 'OK' are everywhere: only a page that speaks of cookies has a banner.
  if (!snapshot.elements.some((element) => /cookie|consent|gdpr/i.test(said(element)))) {
    tools.notes.push(`No cookie banner was showing (from “${source}”); no step was needed.`)
    return
  }
  const buttons = snapshot.elements.filter((element) => element.interactive && (element.role === 'button' || element.role === 'link'))
  for (const words of accept ? ACCEPT_COOKIES : REJECT_COOKIES) {
    const [best] = rankElements(words, buttons, 'clickable')
    if (!best || best.score < 0.9) continue
    const target = await tools.targetOf(best.element)
    if (target) return tools.keep({ type: 'click', target, ...WHEN_PRESENT }, source)
  }
  tools.notes.push(`No cookie banner was showing (from “${source}”); no step was needed.`)
}
