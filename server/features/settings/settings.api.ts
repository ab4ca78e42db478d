import { createRoute, z } from '@hono/zod-openapi'
import { appSettingsSchema, THEMES } from '#common/settings.ts'
import { requireAdmin } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { SettingsService } from './settings.service.ts'

const settingsSchema = z
  .object({
    siteName: z.string(),
    description: z.string(),
    defaultCredits: z.number().int(),
    maintenanceMode: z.boolean(),
    theme: z.enum(THEMES),
    apiRateLimit: z.number().int(),
  })
  .openapi('SystemSettings')

const answer = { description: 'The settings', content: { 'application/json': { schema: z.object({ data: settingsSchema }) } } }

const read = createRoute({
  method: 'get',
  path: '/',
  tags: ['System settings (admin)'],
  summary: 'System Settings: site name and description, default credits, maintenance mode, default theme, API rate limit',
  security: bearerSecurity,
  responses: { 200: answer, ...errorResponses(401, 403) },
})

const save = createRoute({
  method: 'put',
  path: '/',
  tags: ['System settings (admin)'],
  summary: 'Save System Settings (every field); audited, and in force at once',
  security: bearerSecurity,
  request: { body: jsonBody(appSettingsSchema) },
  responses: { 200: answer, ...errorResponses(400, 401, 403) },
})

export function createSettingsApi(settings: SettingsService) {
  return createRouter()
    .openapi(read, async (c) => {
      requireAdmin(c)
      return c.json({ data: await settings.get() }, 200)
    })
    .openapi(save, async (c) => {
      const actor = requireAdmin(c)
      return c.json({ data: await settings.update(c.req.valid('json'), actor) }, 200)
    })
}
