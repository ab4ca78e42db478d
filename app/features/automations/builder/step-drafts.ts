import { MAX_STEPS, STEP_TYPES, STEPS_VERSION, upgradeStep, type StepIssue, type StepType } from '#common/automation-steps.ts'
import type { ScheduleInput } from '#common/schedules.ts'

/** A step as the editor holds it: possibly incomplete, checked with parseSteps as it changes. */
export type StepData = { type: StepType } & Record<string, unknown>

export interface StepDraft {
  /** Stable while the step moves, so React keeps its inputs (and their focus). */
  key: string
  data: StepData
}

export const STEP_TYPE_LABELS: Record<StepType, string> = {
  navigate: 'Navigate',
  click: 'Click',
  type: 'Type text',
  select: 'Select option',
  press: 'Press a key',
  wait: 'Wait',
  extract: 'Extract',
  screenshot: 'Screenshot',
  assertText: 'Assert text',
  check: 'Tick or untick',
  hover: 'Hover',
  doubleClick: 'Double-click',
  clear: 'Clear a field',
  goBack: 'Go back',
  scroll: 'Scroll',
  dialog: 'Answer a dialog',
  switchTab: 'Switch to new tab',
  assertChecked: 'Assert ticked',
  assertCount: 'Assert count',
  if: 'If',
  else: 'Otherwise',
  end: 'End of block',
  repeat: 'Repeat until',
  forEach: 'For each item',
  forEachRow: 'For each row of data',
  next: 'Skip to next',
  stop: 'Stop the run',
  script: 'Run JavaScript',
  download: 'Download a file',
  upload: 'Upload a file',
  saveTable: 'Save data as a file',
  readData: 'Read data from a file (runner)',
  writeData: 'Write data to a file (runner)',
  moveFile: 'Move or rename a file (runner)',
  copyFile: 'Copy a file (runner)',
  openFile: 'Open a file (runner)',
  askPerson: 'Ask a person (cloud)',
}

export const STEP_TYPE_HINTS: Record<StepType, string> = {
  navigate: 'Open a web address.',
  click: 'Click an element: a button, a link, a checkbox…',
  type: 'Type text into a field.',
  select: 'Choose an option of a drop-down by its value.',
  press: 'Press a key (Enter, Tab, Escape…), in an element or wherever the focus is.',
  wait: 'Pause for a time, or until an element appears.',
  extract: "Read an element's text (or an attribute) into a named column.",
  screenshot: 'Take a screenshot of the page.',
  assertText: 'Fail the run unless the text is on the page (or in the element), or unless it is not.',
  check: 'Tick or untick a checkbox or switch; nothing happens when it already is so.',
  hover: 'Rest the pointer on an element (menus that open on hover).',
  doubleClick: 'Double-click an element (edit a cell or a title in place).',
  clear: 'Empty a field.',
  goBack: "Go back to the previous page, as the browser's Back button.",
  scroll: 'Scroll until an element shows (lists that load more), or one screen down.',
  dialog: "Answer the browser's next alert, confirm or prompt: put it before the step that opens it. Not in the extension.",
  switchTab: 'Go on in the newest tab or popup the page opened.',
  assertChecked: 'Fail the run unless a checkbox or switch is ticked (or not ticked).',
  assertCount: 'Fail the run unless there are exactly this many of an element.',
  if: 'Run the steps up to Otherwise (or End of block) only when the condition holds; those after Otherwise when it does not.',
  else: 'The steps an If runs when its condition does not hold, up to End of block.',
  end: 'Closes the block above it (If, Repeat until, For each).',
  repeat: 'Run the steps up to End of block again and again until the condition holds (checked before each round).',
  forEach:
    'Run the steps up to End of block once for each element found (rows, cards, results); inside, elements are looked for in that item first.',
  forEachRow: 'Run the steps up to End of block once for each row of the data the run is started with; use {{row.column}} in them.',
  next: 'Leave the rest of this round: on to the next row or item (a row so left is reported as skipped).',
  stop: 'End the run here, as succeeded or failed, with a message.',
  script:
    'Run your own JavaScript in the page. It may use row, values and inputs, and what it returns can be kept as {{value.name}}. Not on a page a vault value was typed into.',
  download: "Keep a file the page downloads (by clicking an element, or from an address) with the run's files.",
  upload:
    'Choose a file in a file input: one the run kept (a download, a saved table), else one kept with the automation (its Files card).',
  saveTable: 'Write the data extracted so far as a CSV or JSON file of the run.',
  readData: 'On your machine: make a CSV file (or the list of files in a folder) the data rows of the "for each row" blocks after it.',
  writeData: 'On your machine: write the data extracted so far to a CSV or JSON file.',
  moveFile: 'On your machine: move a file to another folder or name.',
  copyFile: 'On your machine: copy a file.',
  openFile: "On your machine: open a file or folder with the system's app for it.",
  askPerson:
    'Pause the cloud run until someone of the workspace acts in its live view (a CAPTCHA, a code sent by SMS) and presses Continue.',
}

/** A new step of a type, with its required fields empty (so the editor asks for them). */
export function newStep(type: StepType): StepData {
  switch (type) {
    case 'navigate':
      return { type, url: '' }
    case 'click':
      return { type, target: [{ by: 'role', role: 'button', name: '' }] }
    case 'type':
      return { type, target: [{ by: 'label', text: '' }], text: '' }
    case 'select':
      return { type, target: [{ by: 'label', text: '' }], value: '' }
    case 'press':
      return { type, key: 'Enter' }
    case 'wait':
      return { type, ms: 1000 }
    case 'extract':
      return { type, target: [{ by: 'css', selector: '' }], field: '' }
    case 'screenshot':
      return { type }
    case 'assertText':
      return { type, text: '' }
    case 'check':
    case 'assertChecked':
      return { type, target: [{ by: 'label', text: '' }], checked: true }
    case 'hover':
    case 'doubleClick':
      return { type, target: [{ by: 'text', text: '' }] }
    case 'clear':
      return { type, target: [{ by: 'label', text: '' }] }
    case 'scroll':
      return { type, target: [{ by: 'text', text: '' }] }
    case 'goBack':
    case 'switchTab':
      return { type }
    case 'dialog':
      return { type, action: 'accept' }
    case 'assertCount':
      return { type, target: [{ by: 'css', selector: '' }], count: 1 }
    case 'if':
      return { type, when: 'textShown', text: '' }
    case 'repeat':
      return { type, when: 'elementNotShown', target: [{ by: 'role', role: 'link', name: '' }], max: 20 }
    case 'forEach':
      return { type, target: [{ by: 'css', selector: '' }], max: 50 }
    case 'forEachRow':
      return { type, onRowError: 'continue' }
    case 'stop':
      return { type, outcome: 'succeeded' }
    case 'script':
      return { type, code: 'return document.title' }
    case 'download':
      return { type, target: [{ by: 'role', role: 'link', name: '' }] }
    case 'upload':
      return { type, target: [{ by: 'label', text: '' }], file: '' }
    case 'saveTable':
      return { type, format: 'csv', name: 'data.csv' }
    case 'readData':
      return { type, path: '', source: 'table' }
    case 'writeData':
      return { type, path: '', format: 'csv' }
    case 'moveFile':
    case 'copyFile':
      return { type, from: '', to: '' }
    case 'openFile':
      return { type, path: '' }
    case 'askPerson':
      return { type, message: '' }
    case 'else':
    case 'end':
    case 'next':
      return { type }
  }
}

/** A step with one field set, or removed (`undefined`: an optional field left empty). */
export function withField(step: StepData, field: string, value: unknown): StepData {
  const next: StepData = { ...step }
  if (value === undefined) delete next[field]
  else next[field] = value
  return next
}

export type WaitMode = 'ms' | 'target' | 'gone'

/** A wait step waits for a time, for an element to appear, or for one to go: switching keeps the element. */
export function withWaitMode(step: StepData, mode: WaitMode): StepData {
  const { ms: _ms, target, selector: _selector, gone: _gone, ...rest } = step
  if (mode === 'ms') return { ...rest, ms: 1000 }
  const kept = target ?? [{ by: 'text', text: '' }]
  return mode === 'gone' ? { ...rest, target: kept, gone: true } : { ...rest, target: kept }
}

export const waitModeOf = (step: StepData): WaitMode =>
  'target' in step || 'selector' in step ? (step.gone === true ? 'gone' : 'target') : 'ms'

/** The list with one item moved from one place to another. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list]
  const next = [...list]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item as T)
  return next
}

export interface ShownIssue {
  /** The field it is about, or null for the whole step. */
  field: string | null
  message: string
}

/** parseSteps' issues by step index ('steps.2.selector' is step 2, field selector); -1 for the list. */
export function issuesByStep(issues: readonly StepIssue[]): Map<number, ShownIssue[]> {
  const byStep = new Map<number, ShownIssue[]>()
  for (const issue of issues) {
    const [, index, ...field] = issue.path.split('.')
    const at = index === undefined ? -1 : Number(index)
    const key = Number.isInteger(at) ? at : -1
    byStep.set(key, [...(byStep.get(key) ?? []), { field: field.length ? field.join('.') : null, message: issue.message }])
  }
  return byStep
}

/**
 * Steps from an imported JSON document: a list of steps, or an object with `steps` (what Export
 * writes). Every item must be a step of a known type; its fields are checked in the editor.
 */
export function readImport(text: string): { ok: true; steps: StepData[] } | { ok: false; message: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, message: 'This is not valid JSON.' }
  }
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null && Array.isArray((value as { steps?: unknown }).steps)
      ? (value as { steps: unknown[] }).steps
      : null
  if (!list) return { ok: false, message: 'Expected a list of steps, or an object with "steps".' }
  if (list.length > MAX_STEPS) return { ok: false, message: `An automation has at most ${MAX_STEPS} steps.` }
  for (const [index, item] of list.entries()) {
    const type = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { type?: unknown }).type : undefined
    if (!STEP_TYPES.includes(type as StepType)) {
      return { ok: false, message: `Step ${index + 1}: type must be one of ${STEP_TYPES.join(', ')}` }
    }
  }
  // Version-1 steps (a `selector`) come in as version 2 (a target with that CSS selector).
  return { ok: true, steps: list.map(upgradeStep) as StepData[] }
}

/** What Export writes: readable on its own, and importable again (its `steps`). */
export function exportDocument(automation: { name: string; description: string; schedule: ScheduleInput | null; steps: StepData[] }) {
  return {
    version: STEPS_VERSION,
    name: automation.name,
    description: automation.description,
    schedule: automation.schedule,
    steps: automation.steps,
  }
}

/** A file name from the automation's name: 'Fill the form' -> 'fill-the-form.automation.json'. */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${slug || 'automation'}.automation.json`
}
