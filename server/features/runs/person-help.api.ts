import { z } from '@hono/zod-openapi'
import { personInputSchema } from '#common/person-help.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import type { PersonHelp } from './person-help.ts'

// Human takeover (docs/decisions/059): members who may edit the workspace's automations act for a
// cloud run that waits for a person. Viewers watch its live view but do not act.
const acts = member('automations', 'member')
const accepted = {
  202: {
    description: 'Passed on to the run; its log says what was done',
    content: { 'application/json': { schema: z.object({ data: z.object({ runId: z.string() }) }) } },
  },
  ...errorResponses(400, 404, 409),
}

const continueRun = signedInRoute(acts, {
  method: 'post',
  path: '/{id}/continue',
  tags: ['Runs'],
  summary: 'A person is done: the run waiting for one goes on with its next step',
  description: '409 when the run is not waiting for a person.',
  request: { params: ownedResourceParams },
  responses: accepted,
})

const input = signedInRoute(acts, {
  method: 'post',
  path: '/{id}/live/input',
  tags: ['Runs'],
  summary: 'A person acts in the live view of a run waiting for one: a click, typed text or a key',
  description:
    '`{ kind: "click", x, y }` clicks at that point of the page in CSS pixels (the live view’s frames give the page’s size), ' +
    '`{ kind: "type", text }` types at most 200 characters where the focus is, `{ kind: "press", key }` presses a key. ' +
    'The run’s log says who did what (never the text typed). 409 when the run is not waiting for a person.',
  request: { params: ownedResourceParams, body: jsonBody(personInputSchema) },
  responses: accepted,
})

/** POST /runs/{id}/continue and /runs/{id}/live/input: mounted under /runs, beside the runs' own routes. */
export function createPersonHelpApi(people: Pick<PersonHelp, 'act'>) {
  return createRouter()
    .openapi(continueRun, async (c) => {
      const { id } = c.req.valid('param')
      await people.act(id, callerOf(c.get('member')), { kind: 'continue' })
      return c.json({ data: { runId: id } }, 202)
    })
    .openapi(input, async (c) => {
      const { id } = c.req.valid('param')
      await people.act(id, callerOf(c.get('member')), { kind: 'input', input: c.req.valid('json') })
      return c.json({ data: { runId: id } }, 202)
    })
}
