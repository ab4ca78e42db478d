import { z } from './zod.ts'

/**
 * The steps of an automation, version 1: a typed list of browser actions that the cloud worker,
 * the extension and the desktop apps all run. The JSON Schema served at
 * /api/automations/steps.schema.json is generated from these definitions.
 */
export const STEPS_VERSION = 1

/** A text field: 'is required' when missing, 'must be a string' when something else. */
const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
const selector = text().trim().min(1, 'is required').max(500, 'must be at most 500 characters')
const MAX_WAIT_MS = 60_000

export const navigateStep = z.object({
  type: z.literal('navigate'),
  url: text()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http or https address'),
})
export const clickStep = z.object({ type: z.literal('click'), selector })
export const typeStep = z.object({ type: z.literal('type'), selector, text: text().max(5000, 'must be at most 5000 characters') })
export const selectStep = z.object({ type: z.literal('select'), selector, value: text().max(500, 'must be at most 500 characters') })
export const waitStep = z
  .object({
    type: z.literal('wait'),
    ms: z
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number')
      .min(0, 'cannot be negative')
      .max(MAX_WAIT_MS, `must be at most ${MAX_WAIT_MS}`)
      .optional(),
    selector: selector.optional(),
  })
  .refine((step) => (step.ms === undefined) !== (step.selector === undefined), {
    message: 'needs either ms or selector, not both',
  })
export const extractStep = z.object({
  type: z.literal('extract'),
  selector,
  field: text()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_ -]{0,63}$/, 'must be a name of letters, digits, spaces, - or _ (at most 64)'),
  /** Read an attribute (href, value, …) instead of the text. */
  attribute: z.string().trim().min(1).max(100).optional(),
})
export const screenshotStep = z.object({
  type: z.literal('screenshot'),
  name: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
})
export const assertTextStep = z.object({
  type: z.literal('assertText'),
  /** Where to look; the whole page when unset. */
  selector: selector.optional(),
  text: text().min(1, 'is required').max(1000, 'must be at most 1000 characters'),
})

const STEP_SCHEMAS = {
  navigate: navigateStep,
  click: clickStep,
  type: typeStep,
  select: selectStep,
  wait: waitStep,
  extract: extractStep,
  screenshot: screenshotStep,
  assertText: assertTextStep,
} as const

export type StepType = keyof typeof STEP_SCHEMAS
export const STEP_TYPES = Object.keys(STEP_SCHEMAS) as StepType[]
export const automationStepSchema = z.discriminatedUnion('type', [
  navigateStep,
  clickStep,
  typeStep,
  selectStep,
  waitStep,
  extractStep,
  screenshotStep,
  assertTextStep,
])
export type AutomationStep = z.infer<typeof automationStepSchema>

/** The most steps one automation may hold, whatever the plan (plans may allow fewer). */
export const MAX_STEPS = 1000

export interface StepIssue {
  /** 'steps.2.selector' */
  path: string
  /** 'Step 3 (click): selector is required' */
  message: string
}

/**
 * Checks a list of steps and names the step and field of every problem, e.g.
 * 'Step 3 (click): selector is required'. Returns the parsed steps or the issues.
 */
export function parseSteps(input: unknown): { ok: true; steps: AutomationStep[] } | { ok: false; issues: StepIssue[] } {
  if (!Array.isArray(input)) return { ok: false, issues: [{ path: 'steps', message: 'Steps must be a list of actions.' }] }
  if (input.length > MAX_STEPS) return { ok: false, issues: [{ path: 'steps', message: `An automation has at most ${MAX_STEPS} steps.` }] }
  const steps: AutomationStep[] = []
  const issues: StepIssue[] = []
  input.forEach((raw, index) => {
    const label = `Step ${index + 1}`
    const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined
    const schema = typeof type === 'string' ? STEP_SCHEMAS[type as StepType] : undefined
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
          ? { path: `steps.${index}.${field}`, message: `${label} (${type}): ${field} ${issue.message}` }
          : { path: `steps.${index}`, message: `${label} (${type}): ${issue.message}` },
      )
    }
  })
  return issues.length ? { ok: false, issues } : { ok: true, steps }
}

/** How many browser actions the steps perform (each step is one), for the plan's limit. */
export const actionCount = (steps: readonly AutomationStep[]) => steps.length
