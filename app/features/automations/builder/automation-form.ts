import { automationInputSchema } from '#common/automations.ts'
import { z } from '#common/zod.ts'

/**
 * The builder's form: the automation's own fields as the API takes them, with the steps as one
 * JSON value (the editor writes it into a hidden field) and `enabled` and `selfRepair` as checkboxes
 * (unticked is absent). The steps themselves are checked with parseSteps, in the editor and by the service.
 */
export const automationFormSchema = automationInputSchema.extend({
  enabled: z.boolean().default(false),
  selfRepair: z.boolean().default(false),
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
