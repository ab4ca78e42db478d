import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { targetName, whyUnresolved } from '#common/unresolved-target.ts'
import { valueForInput } from '#common/field-values.ts'
import { notAFormField, secretOriginRefusal, type SecretTyping } from '#common/secret-typing.ts'
import { resolveInPage } from './resolve-target.ts'
import { readRecords } from './page-records.ts'
import type { ExtractedRecord } from '#common/extracted-table.ts'
import { PageFailure, performVerbInPage, pollUntil, visibleMatches, type PageVerbStep } from './page-verbs.ts'

/**
 * Go to the next page of an extract step's items (run-in-tab.ts asks between pages): its control
 * clicked, or `moved: false` when there is none or it is disabled (the last page).
 */
export interface NextPageStep {
  type: 'nextPage'
  next: Target
}

/** A type step that types vault values: where they may be typed, checked in the page at the moment of typing (docs/decisions/039, 048). */
export type SecretTypeStep = Extract<AutomationStep, { type: 'type' }> & { typing: SecretTyping }

/** The steps the content script performs in the page (navigation, tabs, dialogs, pauses and screenshots are the tab's). */
export type PageStep =
  | Extract<AutomationStep, { type: 'click' | 'type' | 'select' | 'press' | 'wait' | 'extract' | 'assertText' }>
  | SecretTypeStep
  | PageVerbStep
  | NextPageStep
export const PAGE_STEP_TYPES: readonly AutomationStep['type'][] = [
  'click',
  'type',
  'select',
  'press',
  'wait',
  'extract',
  'assertText',
  'check',
  'hover',
  'doubleClick',
  'clear',
  'scroll',
  'assertChecked',
  'assertCount',
]

/** The page's answer: done (an extract step's values), or why not (`failure`: the step's fault, onError may retry). */
export type PageAnswer =
  { ok: true; values?: (string | null)[]; records?: ExtractedRecord[]; moved?: boolean } | { ok: false; error: string; failure: boolean }
type Done = Omit<Extract<PageAnswer, { ok: true }>, 'ok'> | undefined

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`
const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function elements(doc: Document, target: Target, match: 'one' | 'any', timeoutMs: number): Promise<Element[]> {
  const found = await resolveInPage(doc, target, { timeoutMs, match })
  if ('counts' in found) throw new PageFailure(whyUnresolved(target, found.counts, seconds(timeoutMs)))
  return found.elements
}

/** Sets a field's value as typing would leave it, through the element's own setter so page frameworks notice. */
function fill(element: Element, text: string) {
  const view = element.ownerDocument.defaultView ?? window
  ;(element as HTMLElement).focus()
  if (element instanceof view.HTMLInputElement || element instanceof view.HTMLTextAreaElement) {
    const prototype = element instanceof view.HTMLInputElement ? view.HTMLInputElement.prototype : view.HTMLTextAreaElement.prototype
    // A date or number field takes its own format ('5 December 2026' -> '2026-12-05').
    const value = element instanceof view.HTMLInputElement ? valueForInput(element.type, text) : text
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value)
  } else if ((element as HTMLElement).isContentEditable) {
    element.textContent = text
  } else {
    throw new PageFailure(`${element.tagName.toLowerCase()} is not a field one can type into`)
  }
  element.dispatchEvent(new view.Event('input', { bubbles: true }))
  element.dispatchEvent(new view.Event('change', { bubbles: true }))
}

/** The fields this page was given vault values in: masked while the extension takes a screenshot. */
const secretFields = new Set<Element>()
const MASKED = 'data-aether-masked'

/** The addresses of the windows from the field's out to the page, as the browser has them (a page's scripts cannot change them). */
function framesAround(element: Element): string[] {
  const urls: string[] = []
  for (let view: Window | null = element.ownerDocument.defaultView; view; view = view.parent === view ? null : view.parent) {
    try {
      urls.push(view.location.href)
    } catch {
      urls.push('')
    }
  }
  return urls
}

/** Types vault values only into a form field of the secret's sites, as the cloud does (common/secret-typing.ts). */
function fillSecret(element: Element, step: SecretTypeStep) {
  const refusal = secretOriginRefusal(step.typing, framesAround(element))
  if (refusal) throw new PageFailure(refusal)
  if ((element as HTMLElement).isContentEditable && !element.matches('input, textarea, select'))
    throw new PageFailure(notAFormField(step.typing, element.tagName.toLowerCase()))
  fill(element, step.text)
  secretFields.add(element)
}

/** Hides (or shows again) the text of the fields given vault values, for a screenshot. */
export function maskSecretFields(doc: Document, on: boolean) {
  if (on && !doc.getElementById(MASKED)) {
    const style = doc.createElement('style')
    style.id = MASKED
    style.textContent = `[${MASKED}] { color: transparent !important; text-shadow: none !important; -webkit-text-security: disc !important; }`
    doc.documentElement.append(style)
  }
  for (const field of secretFields) {
    if (!field.isConnected) secretFields.delete(field)
    else if (on) field.setAttribute(MASKED, '')
    else field.removeAttribute(MASKED)
  }
}

function choose(element: Element, value: string, what: string) {
  const view = element.ownerDocument.defaultView ?? window
  if (!(element instanceof view.HTMLSelectElement)) throw new PageFailure(`${what} is not a drop-down`)
  const loose = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()
  const options = [...element.options]
  const option =
    options.find((item) => item.value === value || item.label.trim() === value.trim()) ??
    options.find((item) => loose(item.label) === loose(value) || loose(item.value) === loose(value))
  if (!option) throw new PageFailure(`${what} has no option "${short(value, 80)}"`)
  element.value = option.value
  element.dispatchEvent(new view.Event('input', { bubbles: true }))
  element.dispatchEvent(new view.Event('change', { bubbles: true }))
}

function click(element: Element) {
  const view = element.ownerDocument.defaultView ?? window
  element.scrollIntoView({ block: 'center', inline: 'center' })
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup'])
    element.dispatchEvent(new view.MouseEvent(type, { bubbles: true, cancelable: true, composed: true }))
  ;(element as HTMLElement).focus?.()
  ;(element as HTMLElement).click()
}

/** A key pressed in an element, with what the browser would do by default for the keys forms answer to. */
function press(element: Element, key: string) {
  const view = element.ownerDocument.defaultView ?? window
  const name = key === 'Space' ? ' ' : key
  ;(element as HTMLElement).focus?.()
  const down = new view.KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true, composed: true })
  const proceed = element.dispatchEvent(down)
  element.dispatchEvent(new view.KeyboardEvent('keyup', { key: name, bubbles: true, composed: true }))
  if (!proceed) return
  const tag = element.tagName
  if (key === 'Enter' && tag === 'INPUT') (element as HTMLInputElement).form?.requestSubmit()
  else if ((key === 'Enter' && (tag === 'BUTTON' || tag === 'A')) || (key === 'Space' && tag !== 'INPUT' && tag !== 'TEXTAREA'))
    (element as HTMLElement).click()
  else if (key === 'Space' && tag === 'INPUT' && ['checkbox', 'radio'].includes((element as HTMLInputElement).type))
    (element as HTMLElement).click()
}

/** What an extract step reads (as the cloud's readElements): text, or value/href/src as the element has them now. */
function read(element: Element, attribute: string | null): string | null {
  if (!attribute) return ((element as HTMLElement).innerText ?? element.textContent ?? '').trim().slice(0, 10_000)
  if ((attribute === 'value' || attribute === 'href' || attribute === 'src') && attribute in element) {
    const value = (element as unknown as Record<string, unknown>)[attribute]
    if (typeof value === 'string') return value.slice(0, 10_000)
  }
  return element.getAttribute(attribute)
}

async function assertText(doc: Document, step: Extract<PageStep, { type: 'assertText' }>, timeoutMs: number) {
  if (step.absent) {
    const shown = () =>
      (step.target ? visibleMatches(doc, step.target) : [doc.body]).some((element) =>
        ((element as HTMLElement).innerText ?? '').includes(step.text),
      )
    if ((await pollUntil(shown, (value) => !value, timeoutMs)).held) return
    throw new PageFailure(
      `${step.target ? targetName(step.target) : 'the page'} still shows "${short(step.text, 80)}" (waited ${seconds(timeoutMs)})`,
    )
  }
  const until = Date.now() + timeoutMs
  const within = step.target ? await elements(doc, step.target, 'any', timeoutMs) : [doc.body]
  let seen = ''
  for (;;) {
    const texts = within.map((element) => (element as HTMLElement).innerText ?? '')
    seen = texts.find((text) => text.includes(step.text)) ?? texts[0] ?? ''
    if (seen.includes(step.text)) return
    if (Date.now() >= until) break
    await sleep(100)
  }
  throw new PageFailure(
    step.target
      ? `${targetName(step.target)} does not contain "${short(step.text, 80)}" (it reads "${short(seen.trim(), 120)}")`
      : `the page does not show "${short(step.text, 80)}" (waited ${seconds(timeoutMs)})`,
  )
}

/** How long a later page has to show its next control before it is taken as the last. */
const NEXT_LOOK_MS = 2_000

async function nextPage(doc: Document, next: Target, timeoutMs: number): Promise<boolean> {
  const found = await resolveInPage(doc, next, { timeoutMs: Math.min(NEXT_LOOK_MS, timeoutMs), match: 'one' })
  const control = 'elements' in found ? found.elements[0] : undefined
  if (!control) return false
  const disabled =
    (control as HTMLButtonElement).disabled === true ||
    control.closest('[aria-disabled="true"], [disabled], .disabled') !== null ||
    control.getAttribute('aria-current') === 'page'
  if (disabled) return false
  click(control)
  return true
}

async function perform(doc: Document, step: PageStep, timeoutMs: number): Promise<Done> {
  switch (step.type) {
    case 'click':
      click((await elements(doc, step.target, 'one', timeoutMs))[0] as Element)
      return
    case 'type': {
      const field = (await elements(doc, step.target, 'one', timeoutMs))[0] as Element
      if ('typing' in step) fillSecret(field, step)
      else fill(field, step.text)
      return
    }
    case 'select':
      choose((await elements(doc, step.target, 'one', timeoutMs))[0] as Element, step.value, targetName(step.target))
      return
    case 'press': {
      const element = step.target ? (await elements(doc, step.target, 'one', timeoutMs))[0] : (doc.activeElement ?? doc.body)
      press(element as Element, step.key)
      return
    }
    case 'wait':
      if (step.target && step.gone) {
        const target = step.target
        if (
          !(
            await pollUntil(
              () => visibleMatches(doc, target).length,
              (count) => count === 0,
              timeoutMs,
            )
          ).held
        )
          throw new PageFailure(`${targetName(target)} was still there after ${seconds(timeoutMs)}`)
        return
      }
      if (step.target) await elements(doc, step.target, 'any', timeoutMs)
      return
    case 'extract': {
      // One page: run-in-tab.ts goes to the next ones (a page load ends this script).
      const found = await elements(doc, step.target, 'any', timeoutMs)
      if (step.fields) return { records: readRecords(found, step.fields, read) }
      return { values: found.map((element) => read(element, step.attribute ?? null)) }
    }
    case 'nextPage':
      return { moved: await nextPage(doc, step.next, timeoutMs) }
    case 'assertText':
      await assertText(doc, step, timeoutMs)
      return
    default:
      await performVerbInPage(doc, step, timeoutMs, (target, match, ms) => elements(doc, target, match, ms), click)
      return
  }
}

/**
 * Performs one step in this page as the cloud's step actions do (server/browser/step-actions.ts),
 * finding elements with the in-page resolver: the page answers, never throws.
 */
export async function performInPage(doc: Document, step: PageStep, timeoutMs: number): Promise<PageAnswer> {
  try {
    return { ok: true, ...(await perform(doc, step, timeoutMs)) }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), failure: error instanceof PageFailure }
  }
}
