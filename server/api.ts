import { createWorkspacesApi } from './features/workspaces/workspaces.api.ts'
import { PUBLIC_AUTH_ENDPOINTS } from './auth.ts'
import type { Database } from './db/client.ts'
import { renderApiDocs } from './features/docs/api-docs-page.ts'
import { createAuthApi } from './features/auth/auth.api.ts'
import { createPasskeysApi } from './features/auth/passkeys.api.ts'
import { createTwoFactorApi } from './features/auth/two-factor.api.ts'
import { createViewAsApi, createViewAsEndApi } from './features/auth/view-as.api.ts'
import { ownCallbackUrls } from './features/auth/own-callback-urls.ts'
import { createHealthApi } from './features/health/health.api.ts'
import { createUsersApi } from './features/users/users.api.ts'
import { createUserSuspensionApi } from './features/users/user-suspension.api.ts'
import { createUserTimelineApi } from './features/users/user-timeline.api.ts'
import { createAccountDataApi } from './features/account-data/account-data.api.ts'
import { createPlansApi } from './features/plans/plans.api.ts'
import { createInquiriesApi } from './features/inquiries/inquiries.api.ts'
import { keptApiAnswers } from './http/kept-api-answers.ts'
import { createBlogApi } from './features/blog/blog.api.ts'
import { createWebhooksApi } from './features/billing/webhooks.api.ts'
import { createBillingApi } from './features/billing/billing.api.ts'
import { createMailApi } from './features/mail/mail.api.ts'
import { createAiApi } from './features/ai/ai.api.ts'
import { createAuditApi } from './features/audit/audit.api.ts'
import { createOverviewApi } from './features/overview/overview.api.ts'
import { createEventsApi } from './features/events/events.api.ts'
import { createSettingsApi } from './features/settings/settings.api.ts'
import { createUploadsApi } from './features/uploads/uploads.api.ts'
import { createApiKeysApi } from './features/api-keys/api-keys.api.ts'
import { createDevicesApi } from './features/devices/devices.api.ts'
import { createSessionApi, createVaultApi } from './features/vault/vault.api.ts'
import { createDeviceVaultApi } from './features/vault/device-vault.api.ts'
import { createAutomationsApi } from './features/automations/automations.api.ts'
import { createAutomationFilesApi } from './features/automations/automation-files.api.ts'
import { createKeptRowsApi } from './features/automations/kept-rows.api.ts'
import { createRunsApi, createRunStartApi } from './features/runs/runs.api.ts'
import { createLiveViewApi } from './features/runs/live-view.api.ts'
import { createPersonHelpApi } from './features/runs/person-help.api.ts'
import { createPlanningApi } from './features/planning/planning.api.ts'
import { createSuggestionsApi } from './features/suggestions/suggestions.api.ts'
import { createTemplatesApi } from './features/templates/templates.api.ts'
import { createAutomationTriggerApi, createTriggersApi } from './features/triggers/triggers.api.ts'
import { createWebhookEndpointsApi } from './features/webhooks/webhook-endpoints.api.ts'
import { apiRateLimit } from './http/api-rate-limit.ts'
import { createRestHooksApi } from './features/webhooks/rest-hooks.api.ts'
import { createMcpApi } from './mcp/mcp.api.ts'
import { refuseUnreadable } from './http/request-guard.ts'
import { createRouter } from './http/openapi.ts'
import type { Services } from './services.ts'

/** The OpenAPI document's own fields; its paths come from the routes (served at /api/openapi.json, and the SDK is generated from it). */
export const API_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Aether API',
    version: '1.0.0',
    description:
      'The API used by the Aether web app, browser extension and desktop apps. Signed-in routes take the auth_session ' +
      'cookie or `Authorization: Bearer <token>`, where the token is a session token from POST /auth/login (bearerAuth) ' +
      'or an API key `ak_...` from Settings (apiKeyAuth). A revoked or unknown key is treated as not signed in (401).',
  },
  servers: [{ url: '/api' }],
}

/** Everything under /api: the spec's own-API contract, Better Auth's endpoints, health and docs. */
export function createApi(deps: { services: Services; database: Pick<Database, 'kind' | 'ping'> }) {
  const { services, database } = deps
  const api = createRouter()

  api.route('/health', createHealthApi(database))

  // Signed by the payment provider, whose deliveries must not count against a client's API limit.
  // The signature is checked first; text PostgreSQL cannot store then answers 400 (error-handler.ts).
  api.route('/webhooks', createWebhooksApi(services.webhooks))
  api.use(apiRateLimit(services.rateLimits, services.settings))
  // After the limit: a kept answer still counts, and carries the client's own RateLimit headers.
  api.use(keptApiAnswers({ readVersion: services.publicContent.version, heardVersion: services.publicContent.heard }))

  api.route('/uploads', createUploadsApi(services.uploads))

  // The few Better Auth endpoints the browser needs (see PUBLIC_AUTH_ENDPOINTS).
  for (const endpoint of PUBLIC_AUTH_ENDPOINTS) {
    api.on(endpoint.method, `/identity${endpoint.path}`, refuseUnreadable(), ownCallbackUrls(), (c) =>
      services.betterAuth.handler(c.req.raw),
    )
  }

  api.route('/auth', createAuthApi(services.auth, services.viewAs))
  api.route('/auth', createViewAsEndApi(services.viewAs))
  api.route('/auth', createTwoFactorApi(services.twoFactor))
  api.route('/auth', createPasskeysApi(services.passkeys))
  api.route('/users', createUsersApi(services.users, services.userAdmin))
  api.route('/users', createUserSuspensionApi(services.userSuspensions))
  api.route('/users', createViewAsApi(services.viewAs))
  api.route('/users', createUserTimelineApi(services.userTimelines))
  api.route('/account', createAccountDataApi({ exports: services.dataExports, deletion: services.accountDeletion }))
  api.route('/plans', createPlansApi({ plans: services.plans, sale: services.billing }))
  api.route('/billing', createBillingApi(services.billing))
  api.route('/contact', createInquiriesApi(services.inquiries))
  api.route('/blog', createBlogApi(services.blog))
  api.route('/mail', createMailApi(services.mailer))
  api.route('/ai', createAiApi(services.aiDrafter))
  api.route('/settings', createSettingsApi(services.settings))
  api.route('/audit', createAuditApi(services.audit))
  api.route('/overview', createOverviewApi(services.overview))
  api.route('/events', createEventsApi({ events: services.events, sessions: services.sessions }))
  api.route('/keys', createApiKeysApi(services.apiKeys))
  api.route('/devices', createDevicesApi({ devices: services.devices, pairings: services.pairings }))
  api.route(
    '/workspaces',
    createWorkspacesApi({ workspaces: services.workspaces, invitations: services.invitations, activity: services.audit }),
  )
  api.route('/automations', createPlanningApi(services.planning))
  api.route('/automations', createAutomationsApi(services.automations))
  api.route('/automations', createRunStartApi(services.runs))
  api.route('/automations', createKeptRowsApi(services.automations))
  api.route('/automations', createAutomationFilesApi(services.automations))
  api.route('/automations', createSuggestionsApi(services.suggestions))
  api.route('/automations', createAutomationTriggerApi(services.triggers))
  api.route('/triggers', createTriggersApi(services.triggers))
  api.route('/automations', createSessionApi(services.vault))
  api.route('/templates', createTemplatesApi(services.templates))
  api.route('/vault', createVaultApi(services.vault))
  api.route(
    '/runs',
    createRunsApi({
      runs: services.runs,
      repairs: services.repairs,
      files: services.runFiles,
      events: services.events,
      sessions: services.sessions,
      links: services.artifactLinks,
    }),
  )
  api.route('/runs', createDeviceVaultApi(services.deviceVault))
  api.route(
    '/runs',
    createLiveViewApi({ runs: services.runs, liveView: services.liveView, events: services.events, sessions: services.sessions }),
  )
  api.route('/runs', createPersonHelpApi(services.personHelp))
  api.route('/webhooks', createWebhookEndpointsApi(services.outgoingWebhooks))
  api.route('/hooks', createRestHooksApi(services.outgoingWebhooks))
  api.route('/mcp', createMcpApi(services.mcp))

  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' })
  // The same Authorization header as bearerAuth: every route that takes a session token takes a key.
  api.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ak_<prefix>_<secret>',
    description:
      'An API key created in Settings or with POST /keys, sent as `Authorization: Bearer ak_...`. It acts as its member ' +
      'wherever bearerAuth is accepted, under the same role, rate limit and plan rules, but cannot manage API keys or ' +
      'change the password or e-mail address (403). A revoked or unknown key is not signed in (401).',
  })
  api.openAPIRegistry.registerComponent('securitySchemes', 'deviceAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dev_<secret>',
    description:
      'A connected device’s token (docs/decisions/031), collected once from POST /devices/pairings/{pairingId}/token and sent as ' +
      '`Authorization: Bearer dev_...` (with `X-Aether-Client-Version` to report its version). It acts as its member in its ' +
      'workspace where deviceAuth lists one of its scopes (automations), and on GET /devices/me; nowhere else (403). A revoked ' +
      'device is not signed in (401).',
  })
  api.openAPIRegistry.registerComponent('securitySchemes', 'cookieAuth', { type: 'apiKey', in: 'cookie', name: 'auth_session' })
  api.doc31('/openapi.json', API_DOCUMENT)
  api.get('/docs', (c) => c.html(renderApiDocs(api.getOpenAPI31Document(API_DOCUMENT) as unknown as Parameters<typeof renderApiDocs>[0])))

  api.all('*', (c) => c.json({ message: `No API route for ${c.req.method} ${c.req.path}`, code: 'NOT_FOUND' }, 404))
  return api
}
