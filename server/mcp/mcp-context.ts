import type { Caller } from '#common/auth.ts'
import type { Db } from '#server/db/client.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { AutomationService } from '#server/features/automations/automation.service.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { PlanningService } from '#server/features/planning/planning.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { RunService } from '#server/features/runs/run.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import type { TemplateService } from '#server/features/templates/template.service.ts'
import type { Logger } from '#server/logger.ts'

/** What the MCP server reaches through: the services the REST API calls too. */
export interface McpServices {
  automations: Pick<AutomationService, 'list' | 'get'>
  runs: Pick<RunService, 'start' | 'get'>
  planning: Pick<PlanningService, 'plan'>
  templates: Pick<TemplateService, 'listPublished'>
  events: Pick<EventBus, 'subscribe'>
  audit: Pick<AuditService, 'record'>
  rateLimits: RateLimitService
  settings: Pick<SettingsService, 'get'>
}

export interface McpDeps {
  db: Db
  services: McpServices
  /** The site's address: the links in answers start with it. */
  publicUrl: string
  logger: Logger
}

/** One MCP request: the API key's member in the key's workspace, and the signal of the request. */
export interface McpContext extends McpDeps {
  user: SessionUser
  caller: Caller
  keyId: string
  signal: AbortSignal
}
