import { z } from '@hono/zod-openapi'
import { automationStepSchema } from '#common/automation-steps.ts'
import { inspectInputSchema, planInputSchema } from '#common/planning.ts'
import { targetSchema } from '#common/targets.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { PlanningService } from './planning.service.ts'

const tags = ['Planning']
const access = member('automations', 'member')

const elementSchema = z
  .object({
    ref: z.number().int().openapi({ description: 'The element’s number in this inspection' }),
    role: z.string().nullable(),
    name: z.string(),
    label: z.string().nullable(),
    placeholder: z.string().nullable(),
    text: z.string().nullable(),
    testId: z.string().nullable(),
    tag: z.string(),
    type: z.string().nullable(),
    value: z.string().nullable().openapi({ description: 'A field’s current value (never a password’s)' }),
    options: z.array(z.string()).nullable(),
    box: z
      .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
      .openapi({ description: 'Position on the page, CSS pixels from its top left' }),
    interactive: z.boolean(),
    target: targetSchema.describe('The target we suggest: ways to find it, in words first'),
    checked: z.boolean().openapi({ description: 'The target’s first way was checked to match exactly this element' }),
  })
  .openapi('InspectedElement')

const inspectionSchema = z
  .object({
    url: z.string(),
    title: z.string(),
    screenshot: z.object({ dataUrl: z.string(), width: z.number(), height: z.number() }),
    elements: z.array(elementSchema),
    truncated: z.boolean(),
    stoppedAt: z.object({ step: z.number().int(), message: z.string() }).nullable(),
  })
  .openapi('Inspection')

const planSchema = z
  .object({
    steps: z.array(automationStepSchema),
    tried: z
      .array(
        z.object({
          problem: z
            .string()
            .nullable()
            .openapi({ description: 'Why the step did not work when it was tried while planning; null when it did' }),
          picture: z.string().nullable().openapi({ description: 'The page as the step left it: a small JPEG data URL' }),
        }),
      )
      .openapi({ description: 'One per step, in order: how trying it in the cloud browser went' }),
    notes: z.array(z.string()),
    planner: z.enum(['offline', 'model']),
    modelCalls: z.number().int(),
  })
  .openapi('DraftPlan')

const inspect = signedInRoute(access, {
  method: 'post',
  path: '/inspect',
  tags,
  summary:
    'Load a page in the cloud browser (behind the target guard) and return a screenshot and its elements, each with a suggested target. ' +
    'With steps, they are replayed first (to continue from the page a step leads to). Costs no credits; 30 per 10 minutes.',
  request: { body: jsonBody(inspectInputSchema) },
  responses: {
    200: { description: 'What the page shows', content: { 'application/json': { schema: z.object({ data: inspectionSchema }) } } },
    ...errorResponses(400, 429, 503),
  },
})

const plan = signedInRoute(access, {
  method: 'post',
  path: '/plan',
  tags,
  summary:
    'Turn a task said in words into draft steps to review (nothing is saved or run). Uses the AI model when one is configured and the plan ' +
    'includes it (each model call costs credits), else the offline planner; `notes` say what could not be used.',
  request: { body: jsonBody(planInputSchema) },
  responses: {
    200: { description: 'Draft steps and notes', content: { 'application/json': { schema: z.object({ data: planSchema }) } } },
    ...errorResponses(400, 409, 429, 503),
  },
})

export function createPlanningApi(planning: PlanningService) {
  return createRouter()
    .openapi(inspect, async (c) => {
      const user = c.get('member')
      return c.json({ data: await planning.inspect(callerOf(user), c.req.valid('json'), c.req.raw.signal) }, 200)
    })
    .openapi(plan, async (c) => {
      const user = c.get('member')
      return c.json({ data: await planning.plan(callerOf(user), c.req.valid('json'), c.req.raw.signal) }, 200)
    })
}
