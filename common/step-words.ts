import type { AutomationStep, OnError, StepFailureAction } from './automation-steps.ts'
import { describeTarget } from './targets.ts'
import { verbInWords } from './verb-step-words.ts'
import { isWorkflowStep, workflowStepInWords } from './workflow-words.ts'

const short = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const quoted = (text: string) => `“${short(text)}”`

/** A step as a sentence a member reads: 'Type “Ada” into Field labelled “Full name”'. */
export function stepInWords(step: AutomationStep): string {
  if (isWorkflowStep(step)) return workflowStepInWords(step)
  switch (step.type) {
    case 'navigate':
      return `Go to ${step.url}`
    case 'click':
      return `Click ${describeTarget(step.target)}`
    case 'type':
      return `Type ${quoted(step.text)} into ${describeTarget(step.target)}`
    case 'select':
      return `Choose ${quoted(step.value)} in ${describeTarget(step.target)}`
    case 'press':
      return step.target ? `Press ${step.key} in ${describeTarget(step.target)}` : `Press ${step.key}`
    case 'wait':
      if (step.ms !== undefined) return `Wait ${step.ms / 1000} s`
      return step.gone && step.target
        ? `Wait until ${describeTarget(step.target)} is gone`
        : `Wait for ${step.target ? describeTarget(step.target) : 'the page'}`
    case 'extract':
      return `Extract ${describeTarget(step.target)}${step.attribute ? ` (${step.attribute})` : ''} as “${step.field}”${
        step.fields ? ` with ${step.fields.map((field) => quoted(field.name)).join(', ')}` : ''
      }${step.pages ? `, on up to ${step.pages.max} pages by ${describeTarget(step.pages.next)}` : ''}`
    case 'screenshot':
      return step.name ? `Take a screenshot “${step.name}”` : 'Take a screenshot'
    case 'assertText':
      return `Check that ${step.target ? describeTarget(step.target) : 'the page'} ${step.absent ? 'does not show' : 'shows'} ${quoted(step.text)}`
    case 'askPerson':
      return `Ask a person: ${quoted(step.message)}`
    default:
      return verbInWords(step)
  }
}

const AFTER_FAILING: Record<StepFailureAction, string> = {
  fail: 'fail the run',
  skip: 'skip the step and go on',
  continue: 'go on, then mark the run failed',
}

/** What a step does when it fails, in words: 'Try again 2 times, 1 s apart, then skip the step and go on'. */
export function onErrorInWords(onError: Partial<OnError> | undefined): string {
  const retries = onError?.retries ?? 0
  const then = AFTER_FAILING[onError?.then ?? 'fail']
  if (retries === 0) return `${then.charAt(0).toUpperCase()}${then.slice(1)}`
  const apart = (onError?.delayMs ?? 0) > 0 ? `, ${(onError?.delayMs ?? 0) / 1000} s apart` : ''
  return `Try again ${retries === 1 ? 'once' : `${retries} times`}${apart}, then ${then}`
}
