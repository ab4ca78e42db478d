import { z } from '@hono/zod-openapi'
import { automationStepSchema } from '#common/automation-steps.ts'
import { signInBlockSchema } from '#common/automations.ts'
import { TRACE_MODES } from '#common/run-trace.ts'
import { scheduleOutputSchema, type Schedule } from '#common/schedules.ts'
import type { Automation } from '#server/features/automations/automation.service.ts'

/** An automation as the API answers it: its routes, and 'Use template' (docs/decisions/022). */
export const automationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    steps: z.array(automationStepSchema),
    stepsVersion: z.number().int(),
    version: z.number().int().openapi({ description: 'Bumped by every saved change (an applied fix or suggestion included)' }),
    selfRepair: z.boolean().openapi({
      description: 'Whether a run may look for the element a broken step meant (similar words; the AI model when the plan includes it)',
    }),
    keepSession: z.boolean().openapi({
      description: 'Whether cloud runs keep the browser session (cookies, storage) for the next run, sealed like vault secrets',
    }),
    trace: z.enum(TRACE_MODES).openapi({
      description: 'When cloud runs keep a Playwright trace to download and open in the trace viewer: off, onFailure or always',
    }),
    askPersonOnCaptcha: z.boolean().openapi({
      description:
        'Whether a cloud run whose step is blocked by a CAPTCHA or a similar check asks a person (as an askPerson step does), then tries the step again',
    }),
    signInBlock: signInBlockSchema.nullable().openapi({
      description: 'Steps from..to sign in; they run only when the check finds the run signed out',
    }),
    runTimeLimitSeconds: z.number().int().nullable().openapi({
      description: "Each run's time limit in seconds, when lower than the platform's; null: the platform's",
    }),
    runStepLimit: z.number().int().nullable().openapi({
      description: "The most steps (browser actions) each run performs, when lower than the platform's; null: the platform's",
    }),
    schedule: scheduleOutputSchema.nullable().openapi({
      description:
        'When it runs by itself, in its time zone (kind: interval, daily, weekly, monthly or cron), with paused; null: it runs only when started',
    }),
    deviceId: z.string().nullable().openapi({
      description: 'The local runner (a connected device of kind runner) its scheduled runs wait for; null: they run in the cloud',
    }),
    deviceApprovedVersion: z.number().int().nullable().openapi({
      description:
        "The version the runner's owner let run on it (their save, or POST …/runner-approval); the runner runs it only while this equals version. Null: not approved, or no runner",
    }),
    enabled: z.boolean().openapi({ description: 'Whether the schedule fires: the opposite of schedule.paused' }),
    nextRunAt: z.string().nullable(),
    /** The workspace it belongs to (docs/decisions/021). */
    workspaceId: z.string(),
    /** Who created it; null once their account is gone. */
    ownerId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Automation')

export function toAutomationDto(row: Automation): z.infer<typeof automationSchema> {
  return {
    ...row,
    schedule: row.schedule ? ({ ...row.schedule, paused: !row.enabled } as Schedule) : null,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}
