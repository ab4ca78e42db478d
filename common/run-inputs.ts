import type { AutomationStep } from './automation-steps.ts'
import { ValidationError } from './errors.ts'
import { fillStep, isVaultPlaceholder, PLACEHOLDER_NAME, placeholdersOf, type Placeholder } from './step-placeholders.ts'
import { z } from './zod.ts'

/**
 * A run's inputs (docs/decisions/027): values for the steps' `{{input.name}}` placeholders, given
 * when the run starts (a trigger URL, the API, "Run again"). They are data (docs/decisions/039):
 * the run keeps its steps as written and the values beside them, and every placeholder is filled
 * in one pass when a step runs (or, for a client, when it receives the run), so nothing a value
 * holds is ever read as a placeholder, whatever it reads like.
 */
export const MAX_INPUTS = 50
export const MAX_INPUT_LENGTH = 2000

export const runInputsSchema = z
  .record(
    z.string().regex(PLACEHOLDER_NAME, 'Input names are letters, digits and _ (at most 64), starting with a letter or _.'),
    z.string({ error: 'Input values must be text.' }).max(MAX_INPUT_LENGTH, `Input values must be at most ${MAX_INPUT_LENGTH} characters.`),
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
 * Checks the inputs a start gives: every input the steps ask for, and nothing else (a typo in a
 * caller's input name is an error, not a silently empty field).
 */
export function checkInputs(steps: readonly AutomationStep[], inputs: RunInputs): void {
  const wanted = inputNamesOf(steps)
  const unknown = Object.keys(inputs).filter((name) => !wanted.includes(name))
  if (unknown.length > 0) {
    const expected = wanted.length ? `This automation's inputs: ${wanted.join(', ')}.` : 'This automation takes no inputs.'
    throw new ValidationError(`Unknown input${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ${expected}`)
  }
  const missing = wanted.filter((name) => !Object.hasOwn(inputs, name))
  if (missing.length > 0) throw new ValidationError(`Missing input${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`)
}

/** The value of an input placeholder, or undefined (for any other placeholder, or an input not given). */
export const inputValue = (inputs: RunInputs, placeholder: Placeholder): string | undefined =>
  placeholder.kind === 'input' && Object.hasOwn(inputs, placeholder.name) ? inputs[placeholder.name] : undefined

/**
 * A step of a run with every placeholder filled in one pass (docs/decisions/039): `{{input.x}}`
 * from the run's inputs (null: the step came with its inputs filled, and stays as it is), vault
 * placeholders from `vaultValue`. What a value brings is never read again, so an input can never
 * make a placeholder, alone or joined with another.
 */
export function fillRunStep(
  step: AutomationStep,
  inputs: RunInputs | null,
  vaultValue: (placeholder: Placeholder) => string | undefined,
  scope: RunScope = {},
): { step: AutomationStep; missing: Placeholder[] } {
  return fillStep(step, (placeholder) => {
    if (isVaultPlaceholder(placeholder)) return vaultValue(placeholder)
    if (placeholder.kind === 'row') return scope.row ? ownValue(scope.row, placeholder.name) : placeholder.text
    if (placeholder.kind === 'value') return scope.values ? ownValue(scope.values, placeholder.name) : placeholder.text
    return inputs === null ? placeholder.text : inputValue(inputs, placeholder)
  })
}

/**
 * What a step is run with besides the run's inputs (docs/decisions/046): the data row a "for each
 * row" block is on, and the values script steps kept. Left out, those placeholders stay as written
 * (the log, a step shown before it runs).
 */
export interface RunScope {
  row?: Readonly<Record<string, string>>
  values?: Readonly<Record<string, string>>
}

const ownValue = (record: Readonly<Record<string, string>>, name: string) => (Object.hasOwn(record, name) ? record[name] : undefined)

/**
 * The steps with their inputs filled in, in one pass: vault placeholders stay as written, and a
 * value is never read again. What a run shows and what a client runner receives (a client never
 * fills vault values).
 */
export function stepsWithInputs(steps: readonly AutomationStep[], inputs: RunInputs): AutomationStep[] {
  if (Object.keys(inputs).length === 0) return [...steps]
  return steps.map((step) => fillStep(step, (placeholder) => inputValue(inputs, placeholder)).step)
}
