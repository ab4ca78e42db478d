import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import { appSettingsSchema, THEMES } from '#common/settings.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
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

const read = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/',
  tags: ['System settings (admin)'],
  summary: 'System Settings: site name and description, default credits, maintenance mode, default theme, API rate limit',
  responses: { 200: answer },
})

const save = signedInRoute(admin('never'), {
  method: 'put',
  path: '/',
  tags: ['System settings (admin)'],
  summary: 'Save System Settings (every field); audited, and in force at once',
  request: { body: jsonBody(appSettingsSchema) },
  responses: { 200: answer, ...errorResponses(400) },
})

export function createSettingsApi(settings: SettingsService) {
  return createRouter()
    .openapi(read, async (c) => {
      return c.json({ data: await settings.get() }, 200)
    })
    .openapi(save, async (c) => {
      const actor = c.get('member')
      return c.json({ data: await settings.update(c.req.valid('json'), actor) }, 200)
    })
}
