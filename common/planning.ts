import { MAX_STEPS } from './automation-steps.ts'
import { z } from './zod.ts'

// What a member (or the extension, or the desktop app) asks of the planning features:
// inspecting a page to pick its elements, and turning a sentence into draft steps
// (docs/decisions/020).

/** The longest task description a planner reads. */
export const MAX_DESCRIPTION_LENGTH = 2_000
/** Steps an inspection replays at most before it looks at the page. */
export const MAX_INSPECT_STEPS = 50

const httpAddress = (field: string) =>
  z
    .string({ error: `${field} must be an http or https address` })
    .trim()
    .max(2000, `${field} must be at most 2000 characters`)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), `${field} must be an http or https address`)

/**
 * Inspect a page: load `url` (or replay `steps`, which begin with a navigate step, to reach the
 * page one of them leads to; with both, `url` first) and return a screenshot and its elements.
 */
export const inspectInputSchema = z
  .object({
    url: httpAddress('url').optional(),
    steps: z
      .array(z.unknown(), { error: 'steps must be a list of steps' })
      .max(MAX_INSPECT_STEPS, `steps: at most ${MAX_INSPECT_STEPS} steps are replayed`)
      .default([]),
  })
  .refine((input) => input.url !== undefined || input.steps.length > 0, {
    message: 'url is required (or steps that begin with a navigate step)',
    path: ['url'],
  })
export type InspectInput = z.infer<typeof inspectInputSchema>

export const PLANNERS = ['auto', 'offline', 'model'] as const
export type PlannerChoice = (typeof PLANNERS)[number]

/** Plan from a sentence: `{ description, startUrl }`; `planner` picks the AI model or the offline planner (auto: the model when the plan allows it). */
export const planInputSchema = z.object({
  description: z
    .string({ error: 'description is required' })
    .trim()
    .min(1, 'description is required: say the task in a sentence or two')
    .max(MAX_DESCRIPTION_LENGTH, `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`),
  startUrl: httpAddress('startUrl').optional(),
  planner: z.enum(PLANNERS, { error: `planner must be one of ${PLANNERS.join(', ')}` }).default('auto'),
})
export type PlanInput = z.infer<typeof planInputSchema>

/** The most steps one draft plan holds. */
export const MAX_PLAN_STEPS = Math.min(MAX_STEPS, 60)
