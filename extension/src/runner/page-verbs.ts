import type { AutomationStep } from '#common/automation-steps.ts'
import { MAX_SCROLLS } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { targetName } from '#common/unresolved-target.ts'
import { alternativeMatches } from './page-matches-all.ts'

// The verb steps (common/verb-steps.ts) the runner content script performs in the page, with the
// same meaning as the cloud's (server/browser/verb-actions.ts). Going back, tabs and browser
// dialogs are the tab's (run-in-tab.ts).

export type PageVerbStep = Extract<
  AutomationStep,
  { type: 'check' | 'hover' | 'doubleClick' | 'clear' | 'scroll' | 'assertChecked' | 'assertCount' }
>

/** A step that did not work here: its message says why (onError may retry it). */
export class PageFailure extends Error {}

export type FindInPage = (target: Target, match: 'one' | 'any', timeoutMs: number) => Promise<Element[]>

const POLL_MS = 100
const LOOK_MS = 300
const DEFAULT_SCROLLS = 20
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const ticked = (checked: boolean) => (checked ? 'ticked' : 'not ticked')

/** Whether a checkbox, radio or switch is on (a native box, or one with aria-checked); null when it is none. */
export function checkedState(element: Element): boolean | null {
  const view = element.ownerDocument.defaultView ?? window
  if (element instanceof view.HTMLInputElement && ['checkbox', 'radio'].includes(element.type)) return element.checked
  const aria = element.getAttribute('aria-checked')
  if (aria === 'true' || aria === 'mixed') return true
  if (aria === 'false') return false
  return null
}

/** The visible elements the target matches by its first way that matches any (as the cloud counts). */
export function visibleMatches(doc: Document, target: Target): Element[] {
  for (const alternative of target) {
    const found = (() => {
      try {
        return alternativeMatches(alternative, doc)
      } catch {
        return []
      }
    })()
    if (found.length) return found
  }
  return []
}

/** Reads again every 100 ms until `holds` or the time is up: the last value read, and whether it held. */
export async function pollUntil<T>(read: () => T, holds: (value: T) => boolean, timeoutMs: number): Promise<{ value: T; held: boolean }> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (holds(value)) return { value, held: true }
    if (Date.now() >= until) return { value, held: false }
    await sleep(POLL_MS)
  }
}

function mouse(element: Element, types: string[], detail = 1) {
  const view = element.ownerDocument.defaultView ?? window
  const box = element.getBoundingClientRect()
  const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }
  for (const type of types) {
    const init = { bubbles: !type.endsWith('enter') && !type.endsWith('leave'), cancelable: true, composed: true, detail, view, ...at }
    element.dispatchEvent(type.startsWith('pointer') ? new view.PointerEvent(type, init) : new view.MouseEvent(type, init))
  }
}

function scrollOneScreen(doc: Document) {
  const view = doc.defaultView ?? window
  const middle = doc.elementFromPoint(view.innerWidth / 2, view.innerHeight / 2)
  // The list a web app scrolls inside, else the page.
  for (let element = middle; element; element = element.parentElement) {
    const style = view.getComputedStyle(element)
    if (/(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight) {
      element.scrollBy({ top: element.clientHeight * 0.9 })
      return
    }
  }
  view.scrollBy({ top: view.innerHeight * 0.9 })
}

/** Performs one verb step in this page; throws PageFailure when it cannot. */
export async function performVerbInPage(
  doc: Document,
  step: PageVerbStep,
  timeoutMs: number,
  find: FindInPage,
  click: (element: Element) => void,
) {
  switch (step.type) {
    case 'check': {
      const [box] = await find(step.target, 'one', timeoutMs)
      const state = checkedState(box as Element)
      if (state === null) throw new PageFailure(`${targetName(step.target)} is not a checkbox, radio button or switch`)
      if (state === step.checked) return
      if (!step.checked && box instanceof (doc.defaultView ?? window).HTMLInputElement && box.type === 'radio')
        throw new PageFailure(`${targetName(step.target)} is a radio button: choose another option instead`)
      click(box as Element)
      if (checkedState(box as Element) !== step.checked)
        throw new PageFailure(`clicking ${targetName(step.target)} did not make it ${ticked(step.checked)}`)
      return
    }
    case 'hover': {
      const [element] = await find(step.target, 'one', timeoutMs)
      ;(element as Element).scrollIntoView({ block: 'center', inline: 'center' })
      mouse(element as Element, ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'])
      return
    }
    case 'doubleClick': {
      const [element] = await find(step.target, 'one', timeoutMs)
      click(element as Element)
      mouse(element as Element, ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'], 2)
      mouse(element as Element, ['dblclick'], 2)
      return
    }
    case 'clear': {
      const [field] = await find(step.target, 'one', timeoutMs)
      const view = doc.defaultView ?? window
      const element = field as HTMLElement
      element.focus()
      if (element instanceof view.HTMLInputElement || element instanceof view.HTMLTextAreaElement) {
        const prototype = element instanceof view.HTMLInputElement ? view.HTMLInputElement.prototype : view.HTMLTextAreaElement.prototype
        Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, '')
      } else if (element.isContentEditable) element.textContent = ''
      else throw new PageFailure(`${targetName(step.target)} is not a field that can be cleared`)
      element.dispatchEvent(new view.Event('input', { bubbles: true }))
      element.dispatchEvent(new view.Event('change', { bubbles: true }))
      return
    }
    case 'scroll': {
      if (!step.target) return scrollOneScreen(doc)
      const most = Math.min(step.maxScrolls ?? DEFAULT_SCROLLS, MAX_SCROLLS)
      const until = Date.now() + timeoutMs
      for (let scrolled = 0; ; scrolled++) {
        const found = await find(step.target, 'any', Math.min(LOOK_MS, Math.max(1, until - Date.now()))).catch(() => null)
        if (found?.[0]) {
          found[0].scrollIntoView({ block: 'center', inline: 'center' })
          return
        }
        if (scrolled >= most || Date.now() >= until)
          throw new PageFailure(`${targetName(step.target)} did not appear after scrolling ${scrolled} screen${scrolled === 1 ? '' : 's'}`)
        scrollOneScreen(doc)
        await sleep(LOOK_MS)
      }
    }
    case 'assertChecked': {
      const [box] = await find(step.target, 'one', timeoutMs)
      if (checkedState(box as Element) === null)
        throw new PageFailure(`${targetName(step.target)} is not a checkbox, radio button or switch`)
      const seen = await pollUntil(
        () => checkedState(box as Element),
        (state) => state === step.checked,
        timeoutMs,
      )
      if (!seen.held) throw new PageFailure(`${targetName(step.target)} is ${ticked(Boolean(seen.value))} (waited ${seconds(timeoutMs)})`)
      return
    }
    case 'assertCount': {
      const seen = await pollUntil(
        () => visibleMatches(doc, step.target).length,
        (count) => count === step.count,
        timeoutMs,
      )
      if (!seen.held)
        throw new PageFailure(
          `${targetName(step.target)} matches ${seen.value} element${seen.value === 1 ? '' : 's'}, not ${step.count} (waited ${seconds(timeoutMs)})`,
        )
      return
    }
  }
}
