import {
  automationInputSchema,
  MAX_RUN_STEP_LIMIT,
  MAX_RUN_TIME_LIMIT_SECONDS,
  signInBlockSchema,
  type SignInBlock,
} from '#common/automations.ts'
import { z } from '#common/zod.ts'

/** A run limit as the form sends it: a whole number, or empty for the platform's. */
const formLimit = (label: string, max: number) =>
  z.coerce
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be a whole number.`)
    .min(1, `${label} must be at least 1.`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')}.`)
    .optional()
    .transform((value) => value ?? null)

/**
 * The builder's form: the automation's own fields as the API takes them, with the steps as one
 * JSON value (the editor writes it into a hidden field) and `enabled` and `selfRepair` as checkboxes
 * (unticked is absent). The steps themselves are checked with parseSteps, in the editor and by the service.
 */
export const automationFormSchema = automationInputSchema.omit({ signInBlock: true }).extend({
  enabled: z.boolean().default(false),
  selfRepair: z.boolean().default(false),
  keepSession: z.boolean().default(false),
  // The sign-in block (docs/decisions/025) in words: steps from..to, and what the page shows when signed out or in.
  signInFrom: z.coerce.number({ error: 'From must be a step number.' }).int('From must be a step number.').optional(),
  signInTo: z.coerce.number({ error: 'To must be a step number.' }).int('To must be a step number.').optional(),
  signInCheck: z.string().trim().max(200, 'At most 200 characters.').optional(),
  signInPresent: z.enum(['signedOut', 'signedIn']).default('signedOut'),
  // Empty: the platform's limit (docs/decisions/028).
  runTimeLimitSeconds: formLimit('Time limit', MAX_RUN_TIME_LIMIT_SECONDS),
  runStepLimit: formLimit('Action limit', MAX_RUN_STEP_LIMIT),
  steps: z
    .string({ error: 'Steps are required.' })
    .transform((text, context): unknown[] => {
      try {
        const value: unknown = JSON.parse(text)
        if (Array.isArray(value)) return value
      } catch {
        // Reported below.
      }
      context.addIssue({ code: 'custom', message: 'Steps must be a list of actions.' })
      return z.NEVER
    })
    .pipe(automationInputSchema.shape.steps),
})

/** The help under the schedule field. */
export const SCHEDULE_EXAMPLES = [
  { cron: '0 9 * * 1-5', meaning: 'weekdays at 09:00' },
  { cron: '*/30 * * * *', meaning: 'every 30 minutes' },
  { cron: '0 0 1 * *', meaning: 'the 1st of every month at midnight' },
] as const

/**
 * The sign-in block the form's fields describe, or null when "from" is blank; the check finds the
 * words on the page (a "Sign in" link, an account menu). An issue names the field it is about.
 */
export function signInBlockOf(value: {
  signInFrom?: number
  signInTo?: number
  signInCheck?: string
  signInPresent: 'signedOut' | 'signedIn'
}): { block: SignInBlock | null } | { issue: { path: string; message: string } } {
  if (value.signInFrom === undefined) return { block: null }
  if (!value.signInCheck)
    return { issue: { path: 'signInCheck', message: 'Say what the page shows, so the run can tell whether it is signed in.' } }
  const parsed = signInBlockSchema.safeParse({
    from: value.signInFrom,
    to: value.signInTo ?? value.signInFrom,
    check: { target: [{ by: 'text', text: value.signInCheck }], present: value.signInPresent },
  })
  if (parsed.success) return { block: parsed.data }
  const issue = parsed.error.issues[0]
  return { issue: { path: issue?.path[0] === 'to' ? 'signInTo' : 'signInFrom', message: issue?.message ?? 'Invalid sign-in block.' } }
}
