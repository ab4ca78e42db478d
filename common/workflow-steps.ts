import { onError, text, whole } from './step-fields.ts'
import { targetSchema } from './targets.ts'
import { z } from './zod.ts'

// The steps that shape a workflow (issue 29, docs/decisions/046): blocks that decide or repeat
// (if, else, repeat, for each item, for each row, closed by end), skipping to the next round,
// stopping the run, and the member's own JavaScript. Blocks live in the one flat list of steps, as
// Power Automate Desktop writes them: every other part of the product (numbering, the log, the
// builder's list, repairs) keeps reading a list.

/**
 * What a condition asks (the checks assertions already know):
 * - textShown / textNotShown: `text` on the page, or in `target`;
 * - elementShown / elementNotShown: `target` is on the page;
 * - fieldIs: the field `target` holds `text`;
 * - valueIs / valueContains / valueAbove / valueBelow: `value` (a text with placeholders, such as
 *   `{{row.status}}` or `{{value.total}}`) equals, contains, or as a number is above or below `text`.
 */
export const CONDITIONS = [
  'textShown',
  'textNotShown',
  'elementShown',
  'elementNotShown',
  'fieldIs',
  'valueIs',
  'valueContains',
  'valueAbove',
  'valueBelow',
] as const
export type Condition = (typeof CONDITIONS)[number]

const NEEDS_TEXT: ReadonlySet<Condition> = new Set([
  'textShown',
  'textNotShown',
  'fieldIs',
  'valueIs',
  'valueContains',
  'valueAbove',
  'valueBelow',
])
const NEEDS_TARGET: ReadonlySet<Condition> = new Set(['elementShown', 'elementNotShown', 'fieldIs'])
const NEEDS_VALUE: ReadonlySet<Condition> = new Set(['valueIs', 'valueContains', 'valueAbove', 'valueBelow'])

const condition = {
  when: z.enum(CONDITIONS, { error: `must be one of ${CONDITIONS.join(', ')}` }),
  target: targetSchema.optional(),
  text: text().max(1000, 'must be at most 1000 characters').optional(),
  value: text().max(1000, 'must be at most 1000 characters').optional(),
}

/** A condition's fields are there when it needs them. */
function conditionComplete<S extends z.ZodObject<typeof condition & { type: z.ZodLiteral<string> }>>(schema: S): S {
  return schema.superRefine((step: ConditionFields, context) => {
    const missing = (field: 'text' | 'target' | 'value') =>
      context.addIssue({ code: 'custom', message: 'is required for this condition', path: [field] })
    if (NEEDS_TEXT.has(step.when) && !step.text) missing('text')
    if (NEEDS_TARGET.has(step.when) && !step.target) missing('target')
    if (NEEDS_VALUE.has(step.when) && !step.value?.trim()) missing('value')
  })
}

export type ConditionFields = { when: Condition; target?: z.output<typeof targetSchema>; text?: string; value?: string }

/** Runs the steps up to its `else` (or `end`) when the condition holds, else those after the `else`. */
export const ifStep = conditionComplete(z.object({ type: z.literal('if'), ...condition }))
/** Starts the steps an `if` runs when its condition does not hold. */
export const elseStep = z.object({ type: z.literal('else') })
/** Closes the innermost open block (if, repeat, forEach, forEachRow). */
export const endStep = z.object({ type: z.literal('end') })

export const MAX_REPEATS = 1000
/** Runs its steps again and again until the condition holds (looked at before each round), at most `max` rounds. */
export const repeatStep = conditionComplete(
  z.object({
    type: z.literal('repeat'),
    ...condition,
    max: whole(MAX_REPEATS).min(1, 'must be at least 1').default(20),
  }),
)

export const MAX_ITEMS = 500
/**
 * Runs its steps once for each element `target` matches (the rows, cards or results of a list),
 * at most `max`. Inside, a step's element is looked for in the current item first, then on the page.
 */
export const forEachStep = z.object({
  type: z.literal('forEach'),
  target: targetSchema,
  max: whole(MAX_ITEMS).min(1, 'must be at least 1').default(50),
})

export const ROW_FAILURE_ACTIONS = ['continue', 'stop'] as const
/**
 * Runs its steps once for each row of the run's data (a CSV or XLSX file, pasted rows, an earlier
 * run's extracted table), with `{{row.column}}` filled from the row. A row whose step fails is
 * reported with the reason and the next row goes on, unless `onRowError` is 'stop'.
 */
export const forEachRowStep = z.object({
  type: z.literal('forEachRow'),
  onRowError: z.enum(ROW_FAILURE_ACTIONS, { error: `must be one of ${ROW_FAILURE_ACTIONS.join(', ')}` }).default('continue'),
})

/** Skips the rest of this round: the next row or item (a row so skipped is reported as skipped). */
export const nextStep = z.object({ type: z.literal('next') })

export const STOP_OUTCOMES = ['succeeded', 'failed'] as const
/** Ends the run at once, as succeeded or failed, with the member's message. */
export const stopStep = z.object({
  type: z.literal('stop'),
  outcome: z.enum(STOP_OUTCOMES, { error: `must be one of ${STOP_OUTCOMES.join(', ')}` }),
  message: text().trim().max(500, 'must be at most 500 characters').optional(),
})

export const MAX_SCRIPT_LENGTH = 20_000
export const MAX_SCRIPT_MS = 30_000
/**
 * Runs the member's JavaScript in the page (the body of an async function given `row`, `values`
 * and `inputs`); what it returns may be kept as `{{value.<storeAs>}}` for later steps and, with
 * `extract`, added to the run's extracted data. Refused on a page a vault value was typed into.
 */
export const scriptStep = z
  .object({
    type: z.literal('script'),
    ...onError,
    code: text()
      .max(MAX_SCRIPT_LENGTH, `must be at most ${MAX_SCRIPT_LENGTH} characters`)
      .refine((code) => code.trim() !== '', 'is required'),
    storeAs: text()
      .trim()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a name of letters, digits and _ (at most 64), starting with a letter or _')
      .optional(),
    extract: z.boolean({ error: 'must be true or false' }).optional(),
    timeoutMs: whole(MAX_SCRIPT_MS).min(100, 'must be at least 100').optional(),
  })
  .refine((step) => !step.extract || step.storeAs !== undefined, { message: 'needs a name (storeAs) to extract', path: ['storeAs'] })

/** The steps that open a block, closed by `end`. */
export const BLOCK_OPENERS = ['if', 'repeat', 'forEach', 'forEachRow'] as const
export type BlockOpener = (typeof BLOCK_OPENERS)[number]
export const LOOPS: ReadonlySet<string> = new Set(['repeat', 'forEach', 'forEachRow'])
