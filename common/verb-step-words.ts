import type { AutomationStep } from './automation-steps.ts'
import { describeTarget } from './targets.ts'

type VerbStep = Extract<
  AutomationStep,
  { type: 'check' | 'hover' | 'doubleClick' | 'clear' | 'goBack' | 'scroll' | 'dialog' | 'switchTab' | 'assertChecked' | 'assertCount' }
>

/** The verb steps (verb-steps.ts) as sentences a member reads: 'Tick Checkbox named “Remember me”'. */
export function verbInWords(step: VerbStep): string {
  switch (step.type) {
    case 'check':
      return `${step.checked ? 'Tick' : 'Untick'} ${describeTarget(step.target)}`
    case 'hover':
      return `Hover over ${describeTarget(step.target)}`
    case 'doubleClick':
      return `Double-click ${describeTarget(step.target)}`
    case 'clear':
      return `Clear ${describeTarget(step.target)}`
    case 'goBack':
      return 'Go back to the previous page'
    case 'scroll':
      return step.target ? `Scroll until ${describeTarget(step.target)} shows` : 'Scroll one screen down'
    case 'dialog':
      return step.action === 'accept'
        ? `Accept the next browser dialog${step.text !== undefined ? ` answering “${step.text.length > 40 ? `${step.text.slice(0, 39)}…` : step.text}”` : ''}`
        : 'Dismiss the next browser dialog'
    case 'switchTab':
      return 'Go on in the newest tab or popup'
    case 'assertChecked':
      return `Check that ${describeTarget(step.target)} is ${step.checked ? 'ticked' : 'not ticked'}`
    case 'assertCount':
      return `Check that there ${step.count === 1 ? 'is 1' : `are ${step.count}`} × ${describeTarget(step.target)}`
  }
}
