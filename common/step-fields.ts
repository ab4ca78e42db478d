import { z } from './zod.ts'

// The fields every step schema builds on (automation-steps.ts, verb-steps.ts).

/** A text field: 'is required' when missing, 'must be a string' when something else. */
export const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
export const MAX_WAIT_MS = 60_000
export const yesNo = () => z.boolean({ error: 'must be true or false' })
export const whole = (max: number) =>
  z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'cannot be negative').max(max, `must be at most ${max}`)

/**
 * What a step does when it fails (docs/decisions/028): it is tried again `retries` more times,
 * `delayMs` apart; if it still fails, `then` decides: 'fail' ends the run failed, 'skip' leaves
 * the step out and goes on, 'continue' goes on with the next steps and ends the run failed after
 * the last one. A step without it fails the run at once.
 */
export const STEP_FAILURE_ACTIONS = ['fail', 'skip', 'continue'] as const
export type StepFailureAction = (typeof STEP_FAILURE_ACTIONS)[number]
export const MAX_STEP_RETRIES = 5
export const onErrorSchema = z.object({
  retries: whole(MAX_STEP_RETRIES).default(0),
  delayMs: whole(MAX_WAIT_MS).default(1000),
  then: z.enum(STEP_FAILURE_ACTIONS, { error: `must be one of ${STEP_FAILURE_ACTIONS.join(', ')}` }).default('fail'),
})
export type OnError = z.output<typeof onErrorSchema>
/** Every step type may say what to do when it fails. */
export const onError = { onError: onErrorSchema.optional() }
