import { format } from 'date-fns'
import type { AppLoadContext } from 'react-router'
import { hasRole } from '#common/workspaces.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import { pageCaller } from '#app/lib/guards.server.ts'

/** How many deliveries each endpoint's log shows on the page (the API pages through all). */
const LOG_SIZE = 10

const when = (date: Date) => ({ at: date.toISOString(), label: format(date, 'MMM d, yyyy HH:mm:ss') })

/** The Webhooks page: the workspace's endpoints with their recent deliveries (owners and admins only). */
export async function loadWebhooks(context: AppLoadContext, user: SessionUser) {
  const caller = pageCaller(user)
  const { outgoingWebhooks, plans } = context.services
  const allowances = await plans.allowancesOf(caller.workspace.id)
  if (!hasRole(caller.workspace.role, 'admin')) {
    return { canManage: false as const, role: caller.workspace.role, plan: allowances.plan, allowed: allowances.webhooks, endpoints: [] }
  }
  const endpoints = await outgoingWebhooks.list(caller)
  return {
    canManage: true as const,
    role: caller.workspace.role,
    plan: allowances.plan,
    allowed: allowances.webhooks,
    endpoints: await Promise.all(
      endpoints.map(async (endpoint) => {
        const log = await outgoingWebhooks.deliveries(caller, endpoint.id, { page: 1, limit: LOG_SIZE })
        return {
          id: endpoint.id,
          url: endpoint.url,
          description: endpoint.description,
          events: endpoint.events,
          enabled: endpoint.enabled,
          disabledReason: endpoint.disabledReason,
          created: when(endpoint.createdAt),
          deliveryCount: log.total,
          deliveries: log.items.map((delivery) => ({
            id: delivery.id,
            messageId: delivery.messageId,
            eventType: delivery.eventType,
            status: delivery.status,
            created: when(delivery.createdAt),
            nextAttempt: delivery.nextAttemptAt ? when(delivery.nextAttemptAt) : null,
            attempts: delivery.attempts.map((attempt) => ({
              attempt: attempt.attempt,
              statusCode: attempt.statusCode,
              responseMs: attempt.responseMs,
              ok: attempt.ok,
              error: attempt.error,
              time: when(attempt.createdAt),
            })),
          })),
        }
      }),
    ),
  }
}

export type WebhooksView = Awaited<ReturnType<typeof loadWebhooks>>
export type EndpointView = WebhooksView['endpoints'][number]
