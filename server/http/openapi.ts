import { OpenAPIHono } from '@hono/zod-openapi'
import { z } from '@hono/zod-openapi'
import type { AppEnv } from './app-env.ts'
import { refuse } from './request-guard.ts'
import { isUuid, NIL_UUID } from '#common/ids.ts'

/**
 * A router whose request validation answers 400 with a message naming the field. Validation runs
 * after a route's access rule (access.ts), so only a caller who may call the route learns its rules.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      // The request guard's findings (NUL, half surrogates) are refused here, after the route's access rule.
      const verdict = c.get('verdict')
      const refusal = result.target === 'json' || result.target === 'form' ? verdict?.body : verdict?.url
      if (refusal) return refuse(c, refusal)
      if (result.success) return
      const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
      const first = issues[0]
      const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid request'
      return c.json({ message, code: 'VALIDATION_ERROR', issues }, 400)
    },
  })
}

export const errorSchema = z
  .object({
    message: z.string(),
    code: z.string().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error')

export function errorResponses(...statuses: (400 | 401 | 403 | 404 | 409 | 410 | 413 | 429 | 503)[]) {
  const descriptions = {
    400: 'Invalid input; the message names the field',
    401: 'Not signed in, or wrong credentials',
    403: 'Signed in without the needed role',
    404: 'Not found',
    409: 'Conflicts with existing data',
    410: 'Gone: it expired or ended, and will not come back',
    413: 'The request body is larger than the limit',
    429: 'Too many requests; see Retry-After',
    503: 'Temporarily unavailable (busy, or a dependency is down); try again',
  } as const
  return Object.fromEntries(
    statuses.map((status) => [status, { description: descriptions[status], content: { 'application/json': { schema: errorSchema } } }]),
  )
}

/** The 200 answer of a list route: a page of items, the total and the page asked for. */
export function pageResponse<T extends z.ZodType>(item: T, description: string) {
  const schema = z.object({ data: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
  return { description, content: { 'application/json': { schema } } }
}

/** A required JSON request body: without `required`, a body of another content type would skip validation. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } }, required: true as const }
}

/** No row has this id. */

/**
 * The `{id}` of a member's own resource (automation, run). Another member's id answers 404 like a
 * missing one, and so does an id that is not a UUID at all: it is looked up as the nil UUID, which
 * names nothing, so a malformed id tells a caller no more than an unknown one.
 */
export const ownedResourceParams = z.object({
  id: z
    .string()
    .transform((id) => (isUuid(id) ? id : NIL_UUID))
    .openapi({ format: 'uuid' }),
})

/**
 * A JSON body documented for clients and the SDK but read by the handler alone: for routes whose
 * body holds the credential (a poll secret) or follows one (a trigger URL's inputs), so it is
 * checked only after the credential was, and a stranger learns nothing from a 400. As a plain
 * JSON schema, not a Zod one, it is never validated before the handler runs.
 */
export function bodyReadByHandler(schema: z.ZodType, required = true) {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' })
  return { required, content: { 'application/json': { schema: jsonSchema as Record<string, unknown> } } }
}
