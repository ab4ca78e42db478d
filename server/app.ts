import { Hono, type MiddlewareHandler } from 'hono'
import { createApi } from './api.ts'
import type { Database } from './db/client.ts'
import type { Env } from './env.ts'
import { bodyLimit } from './http/body-limit.ts'
import { compressAnswers } from './http/compress-answers.ts'
import { answerRefusedBody, requestGuard } from './http/request-guard.ts'
import type { AppEnv } from './http/app-env.ts'
import { clientIp } from './http/client-ip.ts'
import { errorHandler } from './http/error-handler.ts'
import { requestLogger } from './http/request-logger.ts'
import { sameOriginGuard } from './http/same-origin.ts'
import { securityHeaderList, securityHeaders, type SecurityHeaderOptions } from './http/security-headers.ts'
import { traceViewer } from './http/trace-viewer.ts'
import { maintenanceMode } from './http/maintenance.ts'
import { nodeListener } from './http/node-listener.ts'
import { pageCache } from './http/page-cache.ts'
import { resolveSession } from './http/session.ts'
import { viewingAsMember } from './http/view-as.ts'
import type { Logger } from './logger.ts'
import type { Services } from './services.ts'

export interface AppDeps {
  env: Pick<Env, 'isProduction' | 'TRUST_PROXY' | 'PUBLIC_URL'> & Partial<Pick<Env, 'ANALYTICS_ID'>>
  logger: Logger
  database: Pick<Database, 'kind' | 'ping'>
  services: Services
  /** Serves built client files (production); in development Vite does it before us. */
  assets?: MiddlewareHandler<AppEnv>
  /** Renders every non-API path with React Router. */
  pages?: MiddlewareHandler<AppEnv>
}

/** The one Hono app: middleware, then /api, then the React Router pages. */
export function createApp(deps: AppDeps) {
  return assemble(deps).app
}

/** Node's request listener for the app: kept pages answered at once, the rest by Hono (node-listener.ts). */
export function createNodeListener(deps: AppDeps) {
  const { app, keptPages } = assemble(deps)
  return nodeListener(app.fetch, { keptPages, logger: deps.logger })
}

function assemble(deps: AppDeps) {
  const { env, logger, services } = deps
  const app = new Hono<AppEnv>()

  const headerOptions: SecurityHeaderOptions = {
    isProduction: env.isProduction,
    analytics: Boolean(env.ANALYTICS_ID),
    paddle: services.billing.checkout?.kind === 'paddle',
  }
  // Public pages kept ready to send; only in production: in development a kept page would hide a
  // code change for a few seconds.
  const keptPages =
    deps.pages && env.isProduction
      ? pageCache({
          readVersion: services.publicContent.version,
          heardVersion: services.publicContent.heard,
          securityHeaders: (scriptSources) => securityHeaderList(headerOptions, scriptSources),
          maintenance: async () => (await services.settings.get()).maintenanceMode,
          maintenanceNow: () => services.settings.cachedNow()?.maintenanceMode ?? null,
        })
      : null

  app.use(requestLogger(logger))
  // A kept page is answered here: nothing below does anything for a cookie-less GET of a page.
  if (keptPages) app.use(keptPages.serve)
  // Before the page headers: the viewer's answers carry their own (they frame the viewer's snapshots).
  app.use(traceViewer(headerOptions))
  app.use(securityHeaders(headerOptions))
  if (deps.assets) app.use(deps.assets)
  if (env.isProduction) app.use(compressAnswers())
  app.use(clientIp({ trustProxy: env.TRUST_PROXY }))
  app.use(bodyLimit())
  app.use(requestGuard())
  app.use(sameOriginGuard(env.PUBLIC_URL))
  app.use(resolveSession(services.sessions))
  app.use(viewingAsMember({ viewAs: services.viewAs, sessions: services.sessions }))
  app.use(maintenanceMode(services.settings))

  app.route('/api', createApi({ services, database: deps.database }))
  if (deps.pages && keptPages) app.all('*', answerRefusedBody(), keptPages.keep, deps.pages)
  else if (deps.pages) app.all('*', answerRefusedBody(), deps.pages)

  app.onError(errorHandler(logger))
  app.notFound((c) => c.text('Not found', 404))
  return { app, keptPages }
}
