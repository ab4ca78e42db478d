import type { Target } from '#common/targets.ts'
import type { RecordedStep } from './recording-steps.ts'
import { passwordPlaceholder } from './secret-name.ts'
import { chooseTarget } from './target-choice.ts'
import { elementDescriber } from '#common/element-description.ts'

/** How long typing may pause before the field's `type` step is written. */
const TYPING_PAUSE_MS = 1_500
/** A click this soon after a recorded Enter came from that key (a form's implicit submit), not from the member. */
const KEY_CLICK_MS = 500
const MAX_TYPED = 5_000
const NOT_TYPED = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color', 'hidden'])

/** A field a member types into: text-like inputs, text areas, editable regions. */
function isTypedInto(element: Element): element is HTMLInputElement | HTMLTextAreaElement | HTMLElement {
  if (element.tagName === 'TEXTAREA') return true
  if (element.tagName === 'INPUT') return !NOT_TYPED.has((element as HTMLInputElement).type)
  return (element as HTMLElement).isContentEditable === true
}
const isPassword = (element: Element) => element.tagName === 'INPUT' && (element as HTMLInputElement).type === 'password'
/** Enter there is part of the text (a new line), not a key the page answers. */
const isMultiLine = (element: Element) => element.tagName === 'TEXTAREA' || (element as HTMLElement).isContentEditable === true

/** The element an event really happened on, inside open shadow roots too. */
function realTarget(event: Event): Element | null {
  const first = event.composedPath()[0]
  return first && (first as Node).nodeType === Node.ELEMENT_NODE ? (first as Element) : null
}

interface Typing {
  element: Element
  target: Target
}

export interface Recorder {
  /** Writes what is still pending (a field being typed into) and stops listening. */
  stop(): void
}

/**
 * Records what a member does in one window (a page or a frame) as steps: clicks, typing (one
 * `type` step per field when the member stops typing, leaves it or changes it, never per key),
 * choices in lists, and Enter in a field. A password is written as a vault placeholder, never
 * its value. Events a page script makes (not trusted) are not the member's and are left out;
 * navigations are recorded by the background, which knows how each one started.
 */
export function startRecorder(view: Window, onStep: (step: RecordedStep) => void, options: { typingPauseMs?: number } = {}): Recorder {
  const pauseMs = options.typingPauseMs ?? TYPING_PAUSE_MS
  let typing: Typing | null = null
  let typingTimer: ReturnType<typeof setTimeout> | undefined
  let enterAt = -Infinity

  const valueOf = (element: Element) =>
    element.tagName === 'INPUT' || element.tagName === 'TEXTAREA'
      ? (element as HTMLInputElement).value
      : ((element as HTMLElement).innerText ?? '')

  const flushTyping = () => {
    clearTimeout(typingTimer)
    if (!typing) return
    const { element, target } = typing
    typing = null
    const text = isPassword(element)
      ? passwordPlaceholder(
          view.location.href,
          elementDescriber(element.ownerDocument).describe(element).label ?? element.getAttribute('name'),
        )
      : valueOf(element).slice(0, MAX_TYPED)
    onStep({ type: 'type', target, text })
  }

  const record = (element: Element, make: (target: Target) => RecordedStep) => {
    const target = chooseTarget(element)
    if (target) onStep(make(target))
  }

  const onClick = (event: MouseEvent) => {
    const element = realTarget(event)
    if (!event.isTrusted || !element) return
    // Enter in a field submits its form with a click on the submit button: the Enter step does that again.
    if (event.detail === 0 && performance.now() - enterAt < KEY_CLICK_MS) return
    // Clicking into a field or a list only focuses it: the typing or the choice is the step.
    if (isTypedInto(element) || element.closest('select')) return
    // A label passes its click on to its control, whose own click is recorded.
    const label = element.closest('label')
    if (label?.control && label.control !== element) return
    flushTyping()
    const describer = elementDescriber(element.ownerDocument)
    let actionable: Element | null = element
    while (actionable && !actionable.matches(describer.interactive)) actionable = describer.parentOf(actionable)
    record(actionable ?? element, (target) => ({ type: 'click', target }))
  }

  const onInput = (event: Event) => {
    const element = realTarget(event)
    if (!event.isTrusted || !element) return
    if (element.tagName === 'SELECT') {
      flushTyping()
      const select = element as HTMLSelectElement
      const option = select.selectedOptions[0]
      if (option) record(select, (target) => ({ type: 'select', target, value: (option.label || option.value).slice(0, 500) }))
      return
    }
    if (!isTypedInto(element)) return
    if (typing?.element !== element) {
      flushTyping()
      const target = chooseTarget(element)
      if (!target) return
      typing = { element, target }
    }
    clearTimeout(typingTimer)
    typingTimer = setTimeout(flushTyping, pauseMs)
  }

  const onLeave = (event: Event) => {
    if (typing && realTarget(event) === typing.element) flushTyping()
  }

  const onKeyDown = (event: KeyboardEvent) => {
    const element = realTarget(event)
    if (!event.isTrusted || !element || event.key !== 'Enter' || event.isComposing) return
    // Enter on a button or a link clicks it: that click is the step.
    if (!isTypedInto(element) || isMultiLine(element)) return
    flushTyping()
    enterAt = performance.now()
    record(element, (target) => ({ type: 'press', key: 'Enter', target }))
  }

  const listeners: [string, (event: never) => void][] = [
    ['click', onClick],
    ['input', onInput],
    ['change', onLeave],
    ['focusout', onLeave],
    ['keydown', onKeyDown],
    ['pagehide', flushTyping],
  ]
  for (const [type, listener] of listeners) view.addEventListener(type, listener as EventListener, true)
  return {
    stop() {
      flushTyping()
      for (const [type, listener] of listeners) view.removeEventListener(type, listener as EventListener, true)
    },
  }
}
