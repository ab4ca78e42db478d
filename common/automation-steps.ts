import { targetSchema } from './targets.ts'
import { z } from './zod.ts'
import { MAX_WAIT_MS, onError, text, yesNo, type OnError } from './step-fields.ts'
import {
  assertCheckedStep,
  assertCountStep,
  checkStep,
  clearStep,
  dialogStep,
  doubleClickStep,
  goBackStep,
  hoverStep,
  scrollStep,
  switchTabStep,
} from './verb-steps.ts'
import { elseStep, endStep, forEachRowStep, forEachStep, ifStep, nextStep, repeatStep, scriptStep, stopStep } from './workflow-steps.ts'
import { blockStructure, insideRows } from './step-blocks.ts'
import { downloadStep, saveTableStep, uploadStep } from './file-steps.ts'
import { copyFileStep, moveFileStep, openFileStep, readDataStep, writeDataStep } from './desktop-steps.ts'
import { placeholdersOf } from './step-placeholders.ts'
import { askPersonStep } from './person-help.ts'

/**
 * The steps of an automation, version 2: a typed list of browser actions that the cloud worker,
 * the extension and the desktop apps all run. A step that acts on an element names it with a
 * target (common/targets.ts): the way a person sees it, with CSS and XPath as fallbacks. The JSON
 * Schema served at /api/automations/steps.schema.json is generated from these definitions.
 * Version 1 named elements with a `selector` string; such steps are still accepted and read as a
 * target with that one CSS alternative (upgradeStep).
 */
export const STEPS_VERSION = 4

export * from './verb-steps.ts'
export * from './workflow-steps.ts'
export * from './file-steps.ts'
export * from './desktop-steps.ts'
export { MAX_STEP_RETRIES, onErrorSchema, STEP_FAILURE_ACTIONS, type OnError, type StepFailureAction } from './step-fields.ts'

export const navigateStep = z.object({
  type: z.literal('navigate'),
  ...onError,
  url: text()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http or https address'),
})
export const clickStep = z.object({ type: z.literal('click'), ...onError, target: targetSchema })
export const typeStep = z.object({
  type: z.literal('type'),
  ...onError,
  target: targetSchema,
  text: text().max(5000, 'must be at most 5000 characters'),
})
export const selectStep = z.object({
  type: z.literal('select'),
  ...onError,
  target: targetSchema,
  /** The option's value or its visible label. */
  value: text().max(500, 'must be at most 500 characters'),
})
export const waitStep = z
  .object({
    type: z.literal('wait'),
    ...onError,
    ms: z
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number')
      .min(0, 'cannot be negative')
      .max(MAX_WAIT_MS, `must be at most ${MAX_WAIT_MS}`)
      .optional(),
    target: targetSchema.optional(),
    /** Wait until the target is gone (no visible element matches) instead of until it appears. */
    gone: yesNo().optional(),
  })
  .refine((step) => (step.ms === undefined) !== (step.target === undefined), {
    message: 'needs either ms or target, not both',
  })
  .refine((step) => !step.gone || step.target !== undefined, { message: 'waits until an element is gone only with a target' })
const fieldName = () =>
  text()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_ -]{0,63}$/, 'must be a name of letters, digits, spaces, - or _ (at most 64)')
/** Read an attribute (href, value, …) instead of the text. */
const attribute = () => z.string().trim().min(1).max(100).optional()
export const MAX_EXTRACT_FIELDS = 20
export const MAX_EXTRACT_PAGES = 50
/** One column of the records an extract step with `fields` reads: a part of every item. */
export const extractFieldSchema = z.object({
  name: fieldName(),
  /** Where in each item the part is (its first match inside the item); the item's own text when unset. */
  part: targetSchema.optional(),
  attribute: attribute(),
})
export type ExtractField = z.output<typeof extractFieldSchema>
export const extractStep = z
  .object({
    type: z.literal('extract'),
    ...onError,
    /** Every element it matches gives a value (the first alternative that matches any); with `fields`, a record. */
    target: targetSchema,
    /** The column the values fill; with `fields`, what the records are (the log says '12 products'). */
    field: fieldName(),
    attribute: attribute(),
    /** Read each element the target matches (a row, a card) as one record, one column per field. */
    fields: z
      .array(extractFieldSchema)
      .min(1, 'needs at least one field')
      .max(MAX_EXTRACT_FIELDS, `keeps at most ${MAX_EXTRACT_FIELDS} fields`)
      .optional(),
    /** Read this page, then follow the `next` control and read again, up to `max` pages in all. */
    pages: z
      .object({
        next: targetSchema,
        max: z
          .number({ error: 'must be a number' })
          .int('must be a whole number')
          .min(2, 'must be at least 2')
          .max(MAX_EXTRACT_PAGES, `must be at most ${MAX_EXTRACT_PAGES}`)
          .default(20),
      })
      .optional(),
  })
  .refine((step) => !step.fields || new Set(step.fields.map((field) => field.name)).size === step.fields.length, {
    message: 'fields need different names',
    path: ['fields'],
  })
/** The keys a step may press (what forms and dialogs answer to). */
export const STEP_KEYS = ['Enter', 'Tab', 'Escape', 'Space', 'ArrowDown', 'ArrowUp', 'Backspace'] as const
export const pressStep = z.object({
  type: z.literal('press'),
  ...onError,
  key: z.enum(STEP_KEYS, { error: `must be one of ${STEP_KEYS.join(', ')}` }),
  /** The element to press it in; the element that has the focus when unset. */
  target: targetSchema.optional(),
})
export const screenshotStep = z.object({
  type: z.literal('screenshot'),
  ...onError,
  name: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
})
export const assertTextStep = z.object({
  type: z.literal('assertText'),
  ...onError,
  /** Where to look; the whole page when unset. */
  target: targetSchema.optional(),
  text: text().min(1, 'is required').max(1000, 'must be at most 1000 characters'),
  /** Check that the text is NOT shown (waiting, within the step's time, for it to go). */
  absent: yesNo().optional(),
})

const STEP_SCHEMAS = {
  navigate: navigateStep,
  click: clickStep,
  type: typeStep,
  select: selectStep,
  press: pressStep,
  wait: waitStep,
  extract: extractStep,
  screenshot: screenshotStep,
  assertText: assertTextStep,
  check: checkStep,
  hover: hoverStep,
  doubleClick: doubleClickStep,
  clear: clearStep,
  goBack: goBackStep,
  scroll: scrollStep,
  dialog: dialogStep,
  switchTab: switchTabStep,
  assertChecked: assertCheckedStep,
  assertCount: assertCountStep,
  if: ifStep,
  else: elseStep,
  end: endStep,
  repeat: repeatStep,
  forEach: forEachStep,
  forEachRow: forEachRowStep,
  next: nextStep,
  stop: stopStep,
  script: scriptStep,
  download: downloadStep,
  upload: uploadStep,
  saveTable: saveTableStep,
  readData: readDataStep,
  writeData: writeDataStep,
  moveFile: moveFileStep,
  copyFile: copyFileStep,
  openFile: openFileStep,
  askPerson: askPersonStep,
} as const

export type StepType = keyof typeof STEP_SCHEMAS
export const STEP_TYPES = Object.keys(STEP_SCHEMAS) as StepType[]
export const automationStepSchema = z.discriminatedUnion('type', [
  navigateStep,
  clickStep,
  typeStep,
  selectStep,
  pressStep,
  waitStep,
  extractStep,
  screenshotStep,
  assertTextStep,
  checkStep,
  hoverStep,
  doubleClickStep,
  clearStep,
  goBackStep,
  scrollStep,
  dialogStep,
  switchTabStep,
  assertCheckedStep,
  assertCountStep,
  ifStep,
  elseStep,
  endStep,
  repeatStep,
  forEachStep,
  forEachRowStep,
  nextStep,
  stopStep,
  scriptStep,
  downloadStep,
  uploadStep,
  saveTableStep,
  readDataStep,
  writeDataStep,
  moveFileStep,
  copyFileStep,
  openFileStep,
  askPersonStep,
])
export type AutomationStep = z.infer<typeof automationStepSchema>

/** What the step does when it fails (block steps have no onError: they decide, they do not act). */
export const onErrorOf = (step: AutomationStep): OnError | undefined => ('onError' in step ? step.onError : undefined)

/** The most steps one automation may hold, whatever the plan (plans may allow fewer). */
export const MAX_STEPS = 1000

/**
 * A version-1 step as version 2 reads it: its `selector` becomes a target with that one CSS
 * alternative (Playwright's selector syntax, `text=…` included, as version 1 ran it). Anything
 * else is left for the schema to judge.
 */
export function upgradeStep(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw
  const { selector, ...rest } = raw as Record<string, unknown>
  if (selector === undefined || 'target' in rest) return raw
  if (typeof selector !== 'string') return { ...rest, target: selector }
  return { ...rest, target: [{ by: 'css', selector }] }
}

/** A field's path as a message says it: 'url', 'element', 'element name', 'element (way 2) selector'. */
function inWords(path: PropertyKey[]): string {
  const [field, way, ...rest] = path.map(String)
  if (field !== 'target') return path.map(String).join('.')
  const which = way === undefined ? 'element' : way === '0' ? 'element' : `element (way ${Number(way) + 1})`
  return [which, ...rest].join(' ')
}

export interface StepIssue {
  /** 'steps.2.target' */
  path: string
  /** 'Step 3 (click): selector is required' */
  message: string
}

/**
 * Checks a list of steps (version 2, or version 1, upgraded) and names the step and field of every
 * problem, e.g. 'Step 3 (click): target is required'. Returns the parsed steps or the issues.
 */
export function parseSteps(input: unknown): { ok: true; steps: AutomationStep[] } | { ok: false; issues: StepIssue[] } {
  if (!Array.isArray(input)) return { ok: false, issues: [{ path: 'steps', message: 'Steps must be a list of actions.' }] }
  if (input.length > MAX_STEPS) return { ok: false, issues: [{ path: 'steps', message: `An automation has at most ${MAX_STEPS} steps.` }] }
  const steps: AutomationStep[] = []
  const issues: StepIssue[] = []
  input.forEach((original, index) => {
    const raw = upgradeStep(original)
    const label = `Step ${index + 1}`
    const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined
    // Own keys only: a type named like an object member ('constructor', '__proto__') is no step type.
    const schema = typeof type === 'string' && Object.hasOwn(STEP_SCHEMAS, type) ? STEP_SCHEMAS[type as StepType] : undefined
    if (!schema) {
      issues.push({ path: `steps.${index}.type`, message: `${label}: type must be one of ${STEP_TYPES.join(', ')}` })
      return
    }
    const parsed = schema.safeParse(raw)
    if (parsed.success) {
      steps.push(parsed.data as AutomationStep)
      return
    }
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.')
      issues.push(
        field
          ? { path: `steps.${index}.${field}`, message: `${label} (${type}): ${inWords(issue.path)} ${issue.message}` }
          : { path: `steps.${index}`, message: `${label} (${type}): ${issue.message}` },
      )
    }
  })
  if (issues.length) return { ok: false, issues }
  const workflowIssues = workflowIssuesOf(steps)
  return workflowIssues.length ? { ok: false, issues: workflowIssues } : { ok: true, steps }
}

/** Steps that are not where they may be in the blocks (step-blocks.ts), and `{{row.…}}` outside a "for each row" block. */
function workflowIssuesOf(steps: AutomationStep[]): StepIssue[] {
  const issues: StepIssue[] = blockStructure(steps).issues.map(({ index, message }) => ({
    path: `steps.${index}.type`,
    message: `Step ${index + 1} (${steps[index]?.type}): ${message}`,
  }))
  const inRows = insideRows(steps)
  steps.forEach((step, index) => {
    if (inRows[index]) return
    const [row] = placeholdersOf([step]).filter((placeholder) => placeholder.kind === 'row')
    if (row)
      issues.push({
        path: `steps.${index}`,
        message: `Step ${index + 1} (${step.type}): ${row.text} names a column of the run's rows, so it belongs inside a "for each row" block`,
      })
  })
  return issues
}
