import { OpenAPIHono } from '@hono/zod-openapi'
import { z } from '@hono/zod-openapi'
import type { AppEnv } from './app-env.ts'

/** A router whose request validation answers 400 with a message naming the field. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
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

export function errorResponses(...statuses: (400 | 401 | 403 | 404 | 409 | 429)[]) {
  const descriptions = {
    400: 'Invalid input; the message names the field',
    401: 'Not signed in, or wrong credentials',
    403: 'Signed in without the needed role',
    404: 'Not found',
    409: 'Conflicts with existing data',
    429: 'Too many requests; see Retry-After',
  } as const
  return Object.fromEntries(
    statuses.map((status) => [status, { description: descriptions[status], content: { 'application/json': { schema: errorSchema } } }]),
  )
}

/** A required JSON request body: without `required`, a body of another content type would skip validation. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } }, required: true as const }
}

export const bearerSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }]
