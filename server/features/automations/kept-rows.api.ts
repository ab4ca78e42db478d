import { z } from '@hono/zod-openapi'
import { keptRowsInputSchema } from '#common/automations.ts'
import { ValidationError } from '#common/errors.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import { dataSourceOf } from '#server/tables/data-sources.ts'
import type { AutomationService } from './automation.service.ts'
import type { KeptRowsSummary } from '#server/tables/kept-rows.ts'

// /automations/{id}/rows: rows of data kept with an automation (docs/decisions/046), for the runs
// started without rows of their own (a schedule, a trigger URL, Run in cloud with nothing given).

const tags = ['Automations']
const keptSchema = z
  .object({
    name: z.string(),
    rowCount: z.number().int(),
    columns: z.array(z.string()),
    updatedAt: z.string(),
  })
  .nullable()
const answer = { 'application/json': { schema: z.object({ data: keptSchema }) } }
const toDto = (kept: KeptRowsSummary | null) => (kept ? { ...kept, updatedAt: kept.updatedAt.toISOString() } : null)

const read = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}/rows',
  tags,
  summary: 'The rows of data kept with an automation: their name, how many, their columns (null: none)',
  request: { params: ownedResourceParams },
  responses: { 200: { description: 'What is kept', content: answer }, ...errorResponses(400, 404) },
})

const keep = signedInRoute(member('automations', 'member'), {
  method: 'put',
  path: '/{id}/rows',
  tags,
  summary:
    'Keep rows of data with an automation that has a "for each row" block, in place of any before: one way of rows, csv, xlsx (base64) or rowsFromRun, and a name. A new version of the automation.',
  request: { params: ownedResourceParams, body: jsonBody(keptRowsInputSchema) },
  responses: { 200: { description: 'Kept', content: answer }, ...errorResponses(400, 403, 404) },
})

const forget = signedInRoute(member('automations', 'member'), {
  method: 'delete',
  path: '/{id}/rows',
  tags,
  summary: 'Keep no rows of data with an automation any more (a new version of it)',
  request: { params: ownedResourceParams },
  responses: { 200: { description: 'None kept', content: answer }, ...errorResponses(400, 404) },
})

/** What kept rows are called when the member gives no name, by the way they came. */
const NAMES = { rows: 'Rows from the API', csv: 'Pasted rows', xlsx: 'A workbook', fromRun: 'An earlier run' } as const

export function createKeptRowsApi(automations: AutomationService) {
  return createRouter()
    .openapi(read, async (c) => {
      const caller = callerOf(c.get('member'))
      return c.json({ data: toDto(await automations.keptRows(c.req.valid('param').id, caller)) }, 200)
    })
    .openapi(keep, async (c) => {
      const caller = callerOf(c.get('member'))
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      const source = dataSourceOf(body)
      if (!source) throw new ValidationError('Give the rows one way: rows, csv, xlsx or rowsFromRun.')
      const way = Object.keys(source)[0] as keyof typeof NAMES
      await automations.keepRows(id, caller, { source, name: body.name ?? NAMES[way] })
      return c.json({ data: toDto(await automations.keptRows(id, caller)) }, 200)
    })
    .openapi(forget, async (c) => {
      const caller = callerOf(c.get('member'))
      await automations.keepRows(c.req.valid('param').id, caller, null)
      return c.json({ data: null }, 200)
    })
}
