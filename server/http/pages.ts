import { createMiddleware } from 'hono/factory'
import { createRequestHandler, type ServerBuild } from 'react-router'
import type { Services } from '#server/services.ts'
import type { AppEnv } from './app-env.ts'
import type { PageContext } from './page-context.ts'

/** Hands every non-API request to React Router, with the services and caller as load context. */
export function pages(options: {
  getBuild: () => Promise<ServerBuild>
  mode: 'development' | 'production'
  services: Services
  publicUrl: string
}) {
  let cached: { build: ServerBuild; handle: ReturnType<typeof createRequestHandler> } | null = null
  return createMiddleware<AppEnv>(async (c) => {
    const build = await options.getBuild()
    if (cached?.build !== build) cached = { build, handle: createRequestHandler(build, options.mode) }
    const context: PageContext = {
      services: options.services,
      user: c.get('user'),
      cspNonce: c.get('cspNonce'),
      clientIp: c.get('clientIp'),
      publicUrl: options.publicUrl,
    }
    return cached.handle(c.req.raw, context)
  })
}
