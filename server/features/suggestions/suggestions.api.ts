import { z } from '@hono/zod-openapi'
import { automationStepSchema } from '#common/automation-steps.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, ownedResourceParams } from '#server/http/openapi.ts'
import { SUGGESTION_KINDS } from './suggestion-analysis.ts'
import type { SuggestionService } from './suggestion.service.ts'

const suggestionSchema = z
  .object({
    id: z.string().openapi({ description: 'Stable for this version of the automation; it no longer applies once the automation changes' }),
    kind: z.enum(SUGGESTION_KINDS),
    step: z.number().int().nullable().openapi({ description: 'The step it is about (1-based), or null for the whole automation' }),
    title: z.string(),
    detail: z.string(),
    change: z
      .object({
        steps: z.array(automationStepSchema).optional().openapi({ description: "The automation's whole new list of steps" }),
        selfRepair: z.boolean().optional(),
      })
      .openapi({ description: 'What applying it changes' }),
  })
  .openapi('Suggestion')

const tags = ['Automations']

const list = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}/suggestions',
  tags,
  summary:
    "Optimisation suggestions for the caller's automation, from its steps and its last 20 runs (a plan feature: 409 PLAN_LIMIT without it)",
  request: { params: ownedResourceParams },
  responses: {
    200: {
      description: 'The suggestions, most useful first (at most 20)',
      content: { 'application/json': { schema: z.object({ data: z.array(suggestionSchema) }) } },
    },
    ...errorResponses(400, 404, 409),
  },
})

const apply = signedInRoute(member('automations', 'member'), {
  method: 'post',
  path: '/{id}/suggestions/{suggestionId}/apply',
  tags,
  summary: 'Apply a suggestion as a new version of the automation (409 when the automation changed since it was made)',
  request: { params: ownedResourceParams.extend({ suggestionId: z.string().max(64) }) },
  responses: {
    200: {
      description: "Applied: the automation's new version",
      content: {
        'application/json': { schema: z.object({ data: z.object({ automationId: z.string(), version: z.number().int() }) }) },
      },
    },
    ...errorResponses(400, 404, 409),
  },
})

export function createSuggestionsApi(suggestions: SuggestionService) {
  return createRouter()
    .openapi(list, async (c) => {
      const user = c.get('member')
      return c.json({ data: await suggestions.list(c.req.valid('param').id, callerOf(user)) }, 200)
    })
    .openapi(apply, async (c) => {
      const user = c.get('member')
      const { id, suggestionId } = c.req.valid('param')
      const automation = await suggestions.apply(id, callerOf(user), suggestionId)
      return c.json({ data: { automationId: automation.id, version: automation.version } }, 200)
    })
}
