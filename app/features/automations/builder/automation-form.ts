import {
  automationInputSchema,
  MAX_RUN_STEP_LIMIT,
  MAX_RUN_TIME_LIMIT_SECONDS,
  signInBlockSchema,
  type SignInBlock,
} from '#common/automations.ts'
import { SCHEDULE_KINDS, scheduleInputSchema, type ScheduleInput, type Weekday } from '#common/schedules.ts'
import { z } from '#common/zod.ts'

/** The schedule picker's fields (docs/decisions/036): a kind ('' is none), the kind's own fields, the zone, paused. */
export const scheduleFormFields = {
  scheduleKind: z.enum(['', ...SCHEDULE_KINDS], { error: 'Choose when it runs.' }).default(''),
  scheduleEvery: z.string().optional(),
  scheduleUnit: z.string().optional(),
  scheduleTime: z.string().optional(),
  // Ticked boxes: one value is a string, several a list, none absent.
  scheduleDays: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
  scheduleDay: z.string().optional(),
  scheduleCron: z.string().optional(),
  scheduleTimeZone: z.string().optional(),
  schedulePaused: z.boolean().default(false),
}
export type ScheduleFormValue = z.output<z.ZodObject<typeof scheduleFormFields>>

/** The form field that shows a problem with a field of the schedule. */
const SCHEDULE_FIELD: Record<string, keyof typeof scheduleFormFields> = {
  kind: 'scheduleKind',
  every: 'scheduleEvery',
  unit: 'scheduleUnit',
  time: 'scheduleTime',
  days: 'scheduleDays',
  day: 'scheduleDay',
  expression: 'scheduleCron',
  timeZone: 'scheduleTimeZone',
}
/** The form field for an issue the server reports on `schedule` or `schedule.<field>`. */
export const scheduleFormField = (path: string): keyof typeof scheduleFormFields =>
  SCHEDULE_FIELD[path.split('.')[1] ?? ''] ?? 'scheduleKind'

/** A number a field holds, or the text itself so the schema says what is wrong with it. */
const numberOf = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : (text ?? ''))

/**
 * The schedule the picker's fields describe (null: none), checked with the API's schema; an issue
 * names the form field it is about.
 */
export function scheduleOf(
  value: Partial<ScheduleFormValue>,
): { schedule: ScheduleInput | null } | { issue: { path: string; message: string } } {
  const common = { timeZone: value.scheduleTimeZone ?? '', paused: value.schedulePaused ?? false }
  let raw: Record<string, unknown>
  switch (value.scheduleKind) {
    case undefined:
    case '':
      return { schedule: null }
    case 'interval':
      raw = { kind: 'interval', every: numberOf(value.scheduleEvery), unit: value.scheduleUnit }
      break
    case 'daily':
      raw = { kind: 'daily', time: value.scheduleTime }
      break
    case 'weekly':
      raw = { kind: 'weekly', days: value.scheduleDays ?? [], time: value.scheduleTime }
      break
    case 'monthly':
      raw = { kind: 'monthly', day: numberOf(value.scheduleDay), time: value.scheduleTime }
      break
    case 'cron':
      raw = { kind: 'cron', expression: value.scheduleCron ?? '' }
      break
  }
  const parsed = scheduleInputSchema.safeParse({ ...raw, ...common })
  if (parsed.success) return { schedule: parsed.data }
  const issue = parsed.error.issues[0]
  return { issue: { path: SCHEDULE_FIELD[String(issue?.path[0])] ?? 'scheduleKind', message: issue?.message ?? 'Invalid schedule.' } }
}

/** The days a weekly schedule starts with. */
export const DEFAULT_DAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri']

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
 * JSON value (the editor writes it into a hidden field), the schedule as the picker's fields, and
 * `selfRepair` and the like as checkboxes (unticked is absent). The steps themselves are checked
 * with parseSteps, in the editor and by the service.
 */
export const automationFormSchema = automationInputSchema
  .omit({ signInBlock: true, schedule: true, enabled: true })
  .extend({
    ...scheduleFormFields,
    selfRepair: z.boolean().default(false),
    keepSession: z.boolean().default(false),
    askPersonOnCaptcha: z.boolean().default(false),
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
  .superRefine((value, context) => {
    const schedule = scheduleOf(value)
    if ('issue' in schedule) context.addIssue({ code: 'custom', path: [schedule.issue.path], message: schedule.issue.message })
  })

/** The help under the custom cron field. */
export const CRON_EXAMPLES = [
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
