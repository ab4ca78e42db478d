import type { AutomationStep } from './automation-steps.ts'
import { ValidationError } from './errors.ts'
import { fillStep, PLACEHOLDER_NAME, placeholdersOf } from './step-placeholders.ts'
import { z } from './zod.ts'

/**
 * A run's inputs (docs/decisions/027): values for the steps' `{{input.name}}` placeholders, given
 * when the run starts (a trigger URL, the API, "Run again"). They are filled into the run's copy
 * of the steps when it starts; the automation keeps its placeholders.
 */
export const MAX_INPUTS = 50
export const MAX_INPUT_LENGTH = 2000

/** A value may not name a placeholder itself: an input must never reach a vault value. */
const NAMES_A_PLACEHOLDER = /\{\{/

export const runInputsSchema = z
  .record(
    z.string().regex(PLACEHOLDER_NAME, 'Input names are letters, digits and _ (at most 64), starting with a letter or _.'),
    z
      .string({ error: 'Input values must be text.' })
      .max(MAX_INPUT_LENGTH, `Input values must be at most ${MAX_INPUT_LENGTH} characters.`)
      .refine((value) => !NAMES_A_PLACEHOLDER.test(value), 'Input values may not contain "{{".'),
  )
  .refine((inputs) => Object.keys(inputs).length <= MAX_INPUTS, `At most ${MAX_INPUTS} inputs.`)

export type RunInputs = Record<string, string>

/** The names of the inputs the steps ask for, in order of first use. */
export function inputNamesOf(steps: readonly AutomationStep[]): string[] {
  return placeholdersOf(steps)
    .filter((placeholder) => placeholder.kind === 'input')
    .map((placeholder) => placeholder.name)
}

/**
 * The steps with their inputs filled in. Every input the steps ask for must be given, and nothing
 * else: a typo in a caller's input name is an error, not a silently empty field.
 */
export function fillInputs(steps: readonly AutomationStep[], inputs: RunInputs): AutomationStep[] {
  const wanted = inputNamesOf(steps)
  const unknown = Object.keys(inputs).filter((name) => !wanted.includes(name))
  if (unknown.length > 0) {
    const expected = wanted.length ? `This automation's inputs: ${wanted.join(', ')}.` : 'This automation takes no inputs.'
    throw new ValidationError(`Unknown input${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ${expected}`)
  }
  const missing = wanted.filter((name) => !Object.hasOwn(inputs, name))
  if (missing.length > 0) throw new ValidationError(`Missing input${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`)
  if (wanted.length === 0) return [...steps]
  return steps.map(
    (step) =>
      fillStep(step, (placeholder) =>
        placeholder.kind === 'input' && Object.hasOwn(inputs, placeholder.name) ? inputs[placeholder.name] : undefined,
      ).step,
  )
}
