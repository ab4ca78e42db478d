import type { AutomationStep } from './automation-steps.ts'
import { describeTarget } from './targets.ts'
import type { Condition, ConditionFields } from './workflow-steps.ts'

type WorkflowStep = Extract<
  AutomationStep,
  {
    type:
      | 'if'
      | 'else'
      | 'end'
      | 'repeat'
      | 'forEach'
      | 'forEachRow'
      | 'next'
      | 'stop'
      | 'script'
      | 'download'
      | 'upload'
      | 'saveTable'
      | 'readData'
      | 'writeData'
      | 'moveFile'
      | 'copyFile'
      | 'openFile'
  }
>

/** The steps the whole workflow's runner performs (blocks, scripts, files), not a tab's page alone. */
const WORKFLOW_TYPES: ReadonlySet<string> = new Set([
  'if',
  'else',
  'end',
  'repeat',
  'forEach',
  'forEachRow',
  'next',
  'stop',
  'script',
  'download',
  'upload',
  'saveTable',
  'readData',
  'writeData',
  'moveFile',
  'copyFile',
  'openFile',
])
export const isWorkflowStep = (step: AutomationStep): step is WorkflowStep => WORKFLOW_TYPES.has(step.type)

const short = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const quoted = (text: string) => `“${short(text)}”`

export const CONDITION_WORDS: Record<Condition, string> = {
  textShown: 'the page shows a text',
  textNotShown: 'the page does not show a text',
  elementShown: 'an element is on the page',
  elementNotShown: 'an element is not on the page',
  fieldIs: 'a field holds a value',
  valueIs: 'a value is',
  valueContains: 'a value contains',
  valueAbove: 'a number is above',
  valueBelow: 'a number is below',
}

/** A condition as a member reads it: 'the page shows “Out of stock”', '{{row.qty}} is above “10”'. */
export function conditionInWords(condition: ConditionFields): string {
  const where = condition.target ? describeTarget(condition.target) : 'the page'
  const text = quoted(condition.text ?? '')
  const value = condition.value ?? ''
  switch (condition.when) {
    case 'textShown':
      return `${where} shows ${text}`
    case 'textNotShown':
      return `${where} does not show ${text}`
    case 'elementShown':
      return `${where} is shown`
    case 'elementNotShown':
      return `${where} is not shown`
    case 'fieldIs':
      return `${where} holds ${text}`
    case 'valueIs':
      return `${value} is ${text}`
    case 'valueContains':
      return `${value} contains ${text}`
    case 'valueAbove':
      return `${value} is above ${text}`
    case 'valueBelow':
      return `${value} is below ${text}`
  }
}

/** A workflow step as a sentence (the builder, plans): 'If the page shows “Out of stock”', 'For each row of the data'. */
export function workflowStepInWords(step: WorkflowStep): string {
  switch (step.type) {
    case 'if':
      return `If ${conditionInWords(step)}`
    case 'else':
      return 'Otherwise'
    case 'end':
      return 'End of the block'
    case 'repeat':
      return `Repeat until ${conditionInWords(step)} (at most ${step.max} times)`
    case 'forEach':
      return `For each ${describeTarget(step.target)} (at most ${step.max})`
    case 'forEachRow':
      return `For each row of the data${step.onRowError === 'stop' ? ', stopping at the first row that fails' : ''}`
    case 'next':
      return 'Skip to the next row or item'
    case 'stop':
      return `Stop the run as ${step.outcome}${step.message ? `: ${quoted(step.message)}` : ''}`
    case 'script':
      return `Run JavaScript (${step.code.length} characters)${step.storeAs ? ` and keep the result as {{value.${step.storeAs}}}` : ''}`
    case 'download':
      return `Download ${step.target ? `by clicking ${describeTarget(step.target)}` : step.url}${step.name ? ` as ${quoted(step.name)}` : ''}`
    case 'upload':
      return `Choose the file ${quoted(step.file)} in ${describeTarget(step.target)}`
    case 'saveTable':
      return `Save the extracted data as ${quoted(step.name)} (${step.format.toUpperCase()})`
    case 'readData':
      return step.source === 'listing'
        ? `Read the files in ${quoted(step.path)} as the data rows`
        : `Read ${quoted(step.path)} as the data rows`
    case 'writeData':
      return `Write the extracted data to ${quoted(step.path)} (${step.format.toUpperCase()})`
    case 'moveFile':
      return `Move ${quoted(step.from)} to ${quoted(step.to)}`
    case 'copyFile':
      return `Copy ${quoted(step.from)} to ${quoted(step.to)}`
    case 'openFile':
      return `Open ${quoted(step.path)} with its app`
  }
}
