import { createRoute, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { runFinishSchema, runListQuerySchema, runProgressSchema } from '#common/automations.ts'
import { Forbidden } from '#common/errors.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import { requireUser } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import { callerOf } from './automations.api.ts'
import { extractedAsCsv } from './extracted-csv.ts'
import type { RunFiles } from './run-files.ts'
import { runDtoSchema, toRunDto } from './run.dto.ts'
import type { RunService } from './run.service.ts'

const HEARTBEAT_MS = 25_000
const tags = ['Runs']
const idParam = z.object({ id: z.uuid({ error: 'id must be a run id (UUID)' }) })
const one = { 'application/json': { schema: z.object({ data: runDtoSchema }) } }

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: "The caller's runs, newest first; an admin passes scope=all (and userId) for every member's",
  security: bearerSecurity,
  request: {
    query: runListQuerySchema.extend({
      scope: z.enum(['mine', 'all'], { error: 'scope must be mine or all' }).default('mine'),
      userId: z.string().max(100).optional(),
    }),
  },
  responses: {
    200: {
      description: 'A page of runs',
      content: {
        'application/json': {
          schema: z.object({ data: z.array(runDtoSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
        },
      },
    },
    ...errorResponses(400, 401, 403),
  },
})

const events = createRoute({
  method: 'get',
  path: '/events',
  tags,
  summary: "Server-sent events: `run` with { id, status, automationId } whenever one of the caller's runs changes",
  security: bearerSecurity,
  responses: {
    200: { description: 'An event stream (text/event-stream)', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(401),
  },
})

const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One run with its log, extracted data and screenshots',
  security: bearerSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 401, 404) },
})

const progress = createRoute({
  method: 'post',
  path: '/{id}/progress',
  tags,
  summary: 'A client (extension, desktop app) reports progress on a run it executes: actions so far, log lines, extracted rows',
  security: bearerSecurity,
  request: { params: idParam, body: jsonBody(runProgressSchema) },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 401, 404) },
})

const finish = createRoute({
  method: 'post',
  path: '/{id}/finish',
  tags,
  summary: 'A client reports how a run it executed ended (succeeded, failed with an error, or cancelled)',
  security: bearerSecurity,
  request: { params: idParam, body: jsonBody(runFinishSchema) },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 401, 404) },
})

const cancel = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  tags,
  summary: 'Cancel a run that has not finished; a queued cloud run gets its credit back',
  security: bearerSecurity,
  request: { params: idParam },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 401, 404) },
})

const downloadRoute = (format: 'csv' | 'json') =>
  createRoute({
    method: 'get',
    path: `/{id}/extracted.${format}`,
    tags,
    summary: `The data a run extracted, as a ${format.toUpperCase()} file`,
    security: bearerSecurity,
    request: { params: idParam },
    responses: {
      200: {
        description: 'The file',
        content:
          format === 'csv'
            ? { 'text/csv': { schema: z.string() } }
            : { 'application/json': { schema: z.array(z.record(z.string(), z.string().nullable())) } },
      },
      ...errorResponses(400, 401, 404),
    },
  })

const screenshot = createRoute({
  method: 'get',
  path: '/{id}/screenshots/{file}',
  tags,
  summary: 'A screenshot a cloud run took (PNG)',
  security: bearerSecurity,
  request: { params: idParam.extend({ file: z.string().max(100) }) },
  responses: { 200: { description: 'The image', content: { 'image/png': { schema: z.string() } } }, ...errorResponses(400, 401, 404) },
})

const downloadHeaders = (runId: string, format: string, type: string) => ({
  'Content-Type': type,
  'Content-Disposition': `attachment; filename="run-${runId}.${format}"`,
  'Cache-Control': 'private, no-store',
})

export function createRunsApi(deps: { runs: RunService; files: RunFiles; events: EventBus }) {
  const { runs, files, events: bus } = deps
  return createRouter()
    .openapi(list, async (c) => {
      const user = requireUser(c)
      const { scope, userId, ...query } = c.req.valid('query')
      if (scope === 'all' && user.profile.role !== 'admin') throw new Forbidden('Only an admin can list every member’s runs.')
      const page = await runs.list({ ...query, userId: scope === 'all' ? userId : user.id })
      return c.json({ data: page.items.map(toRunDto), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(events, (c) => {
      const user = requireUser(c)
      return streamSSE(c, async (stream) => {
        const unsubscribe = bus.subscribe('run', (event) => {
          if (event.userId !== user.id) return
          void stream.writeSSE({
            event: 'run',
            data: JSON.stringify({ id: event.id, status: event.status, automationId: event.automationId }),
          })
        })
        stream.onAbort(unsubscribe)
        await stream.writeSSE({ event: 'ready', data: '{}' })
        while (!stream.aborted && !stream.closed) {
          await stream.sleep(HEARTBEAT_MS)
          if (!stream.aborted) await stream.write(': heartbeat\n\n')
        }
        unsubscribe()
      })
    })
    .openapi(get, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toRunDto(await runs.get(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(progress, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toRunDto(await runs.report(c.req.valid('param').id, callerOf(user), c.req.valid('json'))) }, 200)
    })
    .openapi(finish, async (c) => {
      const user = requireUser(c)
      const { status, error, ...report } = c.req.valid('json')
      return c.json({ data: toRunDto(await runs.report(c.req.valid('param').id, callerOf(user), report, { status, error })) }, 200)
    })
    .openapi(cancel, async (c) => {
      const user = requireUser(c)
      return c.json({ data: toRunDto(await runs.cancel(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(downloadRoute('csv'), async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(requireUser(c)))
      return c.body(extractedAsCsv(run.extracted), 200, downloadHeaders(run.id, 'csv', 'text/csv; charset=utf-8'))
    })
    .openapi(downloadRoute('json'), async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(requireUser(c)))
      return c.body(JSON.stringify(run.extracted, null, 2), 200, downloadHeaders(run.id, 'json', 'application/json; charset=utf-8'))
    })
    .openapi(screenshot, async (c) => {
      const user = requireUser(c)
      const { id, file } = c.req.valid('param')
      const run = await runs.get(id, callerOf(user))
      if (!run.screenshots.some((shot) => shot.file === file)) return c.json({ message: 'No such screenshot', code: 'NOT_FOUND' }, 404)
      const png = await files.readScreenshot(run.id, file)
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' })
    })
}
