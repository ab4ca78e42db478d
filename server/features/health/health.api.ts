import { z } from '@hono/zod-openapi'
import { publicRoute } from '#server/http/access.ts'
import type { Database } from '#server/db/client.ts'
import { createRouter } from '#server/http/openapi.ts'

const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    uptimeSeconds: z.number(),
    memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }),
    database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean(), latencyMs: z.number() }),
    /** Only when degraded: what is wrong, for people reading the answer. */
    message: z.string().optional(),
  })
  .openapi('Health')

const health = publicRoute({
  method: 'get',
  path: '/',
  tags: ['Operations'],
  summary: 'Process and database state',
  responses: {
    200: { description: 'Healthy', content: { 'application/json': { schema: healthSchema } } },
    503: { description: 'The database is unreachable', content: { 'application/json': { schema: healthSchema } } },
  },
})

export function createHealthApi(database: Pick<Database, 'kind' | 'ping'>) {
  return createRouter().openapi(health, async (c) => {
    const started = performance.now()
    const ok = await database.ping()
    const memory = process.memoryUsage()
    const body = {
      status: ok ? ('ok' as const) : ('degraded' as const),
      uptimeSeconds: Math.round(process.uptime()),
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
      database: { kind: database.kind, ok, latencyMs: Math.round((performance.now() - started) * 10) / 10 },
      ...(ok ? {} : { message: 'The database is unreachable: requests that need it answer 503 until it is back.' }),
    }
    c.header('Cache-Control', 'no-store')
    return ok ? c.json(body, 200) : c.json(body, 503)
  })
}
