import type { AutomationStep } from './automation-steps.ts'
import { describeTarget } from './targets.ts'
import { isWorkflowStep, workflowStepInWords } from './workflow-words.ts'

/** Text cut to at most `max` characters, an ellipsis saying so. */
export const short = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** What the run log says a step is about to do. */
export function describeStep(step: AutomationStep): string {
  if (isWorkflowStep(step)) return workflowStepInWords(step)
  switch (step.type) {
    case 'navigate':
      return step.url
    case 'click':
      return describeTarget(step.target)
    case 'type':
      return `${describeTarget(step.target)} (${step.text.length} characters)`
    case 'select':
      return `${describeTarget(step.target)} = "${step.value}"`
    case 'press':
      return step.target ? `${step.key} in ${describeTarget(step.target)}` : step.key
    case 'wait':
      return step.ms !== undefined ? `${step.ms} ms` : step.target ? `${describeTarget(step.target)}${step.gone ? ' to go' : ''}` : ''
    case 'extract':
      return `${describeTarget(step.target)} -> ${step.field}${step.attribute ? ` (${step.attribute})` : ''}${
        step.fields ? ` [${step.fields.map((field) => field.name).join(', ')}]` : ''
      }${step.pages ? `, up to ${step.pages.max} pages` : ''}`
    case 'screenshot':
      return step.name ?? 'the page'
    case 'assertText':
      return `${step.absent ? 'no ' : ''}"${short(step.text, 80)}"${step.target ? ` in ${describeTarget(step.target)}` : ' on the page'}`
    case 'check':
    case 'assertChecked':
      return `${describeTarget(step.target)} ${step.checked ? 'checked' : 'unchecked'}`
    case 'hover':
    case 'doubleClick':
    case 'clear':
      return describeTarget(step.target)
    case 'scroll':
      return step.target ? `to ${describeTarget(step.target)}` : 'one screen down'
    case 'goBack':
      return 'the previous page'
    case 'askPerson':
      return `waiting for a person: "${short(step.message, 200)}"`
    case 'dialog':
      return `${step.action} the next dialog${step.text !== undefined ? ` (answer ${step.text.length} characters)` : ''}`
    case 'switchTab':
      return 'the newest tab'
    case 'assertCount':
      return `${step.count} × ${describeTarget(step.target)}`
  }
}

/** What an extract step read, as the run log says it: '6 records of "books" from 3 pages'. */
export function extractedInWords(step: Extract<AutomationStep, { type: 'extract' }>, count: number, pages: number): string {
  const what = step.fields
    ? `${count} record${count === 1 ? '' : 's'} of "${step.field}"`
    : `${count} value${count === 1 ? '' : 's'} for "${step.field}"`
  return step.pages ? `${what} from ${pages} page${pages === 1 ? '' : 's'}` : what
}
