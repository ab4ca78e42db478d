// Webhook endpoints as a workspace's owners and admins manage them, and their delivery log.
// Just over 300 lines: every operation is one endpoint's, behind the same role, ownership and plan
// checks; sending and the worker are webhook-delivery.ts's.
import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import type { Page } from '#common/pagination.ts'
import { WEBHOOK_TEST_EVENT, webhookUrlHint, type WebhookCreate, type WebhookEvent, type WebhookUpdate } from '#common/webhooks.ts'
import { WEBHOOK_EXAMPLES } from '#common/webhook-examples.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import { requireVerifiedEmail } from '#common/email-verification.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { subscriptionPlans, webhookAttempts, webhookDeliveries, webhookEndpoints, workspaces } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { Logger } from '#server/logger.ts'
import { abandonPending, createWebhookDelivery, type WebhookAttempt, type WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookPayload } from './webhook-outbox.ts'
import { webhookUrlRefusal, type SenderConfig } from './webhook-sender.ts'
import { newMessageId, newWebhookSecret, type SecretBox } from './webhook-signing.ts'

export type WebhookEndpoint = Omit<typeof webhookEndpoints.$inferSelect, 'secretSealed' | 'previousSecretSealed'>
export type { WebhookAttempt, WebhookDelivery }
export type WebhookDeliveryWithAttempts = Omit<WebhookDelivery, 'body' | 'attempts'> & { attempts: WebhookAttempt[]; attemptCount: number }

const { secretSealed: _sealed, previousSecretSealed: _previousSealed, ...endpointColumns } = getTableColumns(webhookEndpoints)
/** How long the old secret keeps signing beside the new one after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/**
 * A workspace's outgoing webhooks (docs/decisions/026): endpoints its owners and admins manage,
 * their delivery log, test messages and redeliveries. Sending, retries and the worker that sends
 * what the outbox (webhook-outbox.ts) queued are webhook-delivery.ts's.
 */
export function createWebhookService(deps: {
  db: Db
  plans: Pick<PlanService, 'allowancesOf'>
  mailer: Pick<Mailer, 'send'>
  activity: Pick<AuditService, 'record'>
  box: SecretBox
  sender: SenderConfig
  publicUrl: string
  logger: Logger
}) {
  const { db, plans, activity, box, sender } = deps
  const worker = createWebhookDelivery(deps)

  /** How many sent messages a connector is shown as samples of an event. */
  const SAMPLES = 3
  const requireAdmin = (caller: Caller) => requireWorkspaceRole(caller.workspace.role, 'admin', 'Managing webhooks')

  async function owned(caller: Caller, id: string, tx: DbOrTx = db) {
    // An id that is no UUID (a page's form sends what it is given) is as unknown as a missing one.
    if (!isUuid(id)) throw new NotFound('Webhook endpoint not found')
    const [row] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, caller.workspace.id)))
    if (!row) throw new NotFound('Webhook endpoint not found')
    return row
  }

  const withoutSecret = ({
    secretSealed: _,
    previousSecretSealed: _previous,
    ...endpoint
  }: typeof webhookEndpoints.$inferSelect): WebhookEndpoint => endpoint

  async function checkUrl(url: string): Promise<void> {
    const refused = await webhookUrlRefusal(sender, url)
    if (refused) throw new ValidationError(refused, [{ path: 'url', message: refused }])
  }

  /** The refusal naming the cheapest plan with more endpoints than the workspace keeps. */
  async function requireRoom(tx: DbOrTx, workspaceId: string): Promise<void> {
    const allowances = await plans.allowancesOf(workspaceId, tx)
    const [kept] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId))
    const n = kept?.n ?? 0
    if (n < allowances.webhooks) return
    const [unlocking] = await tx
      .select({ name: subscriptionPlans.name, webhooks: subscriptionPlans.webhooks })
      .from(subscriptionPlans)
      .where(sql`${subscriptionPlans.webhooks} > ${n}`)
      .orderBy(asc(subscriptionPlans.price), asc(subscriptionPlans.sortOrder))
      .limit(1)
    const upgrade = unlocking ? ` The ${unlocking.name} plan includes ${unlocking.webhooks}.` : ''
    throw new LimitReached(
      allowances.webhooks === 0
        ? unlocking
          ? `Webhooks are part of the ${unlocking.name} plan; you are on the ${allowances.plan} plan. Upgrade to use them.`
          : 'Webhooks are not part of any plan at the moment.'
        : `The ${allowances.plan} plan includes ${allowances.webhooks} webhook endpoint${allowances.webhooks === 1 ? '' : 's'}, and this workspace has ${n}.${upgrade}`,
      'PLAN_LIMIT',
    )
  }

  async function deliveryOf(caller: Caller, endpointId: string, deliveryId: string) {
    if (!isUuid(deliveryId)) throw new NotFound('Delivery not found')
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.workspaceId, caller.workspace.id),
        ),
      )
    if (!row) throw new NotFound('Delivery not found')
    return row
  }

  async function withAttempts(delivery: WebhookDelivery): Promise<WebhookDeliveryWithAttempts> {
    const attempts = await db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, delivery.id))
      .orderBy(desc(webhookAttempts.createdAt), desc(webhookAttempts.attempt))
    const { body: _body, attempts: attemptCount, ...rest } = delivery
    return { ...rest, attempts, attemptCount }
  }

  /** Sends now what the member asked for, in the request: the answer shows how it went. */
  async function sendNow(caller: Caller, endpointId: string, deliveryId: string, now: Date): Promise<WebhookDeliveryWithAttempts> {
    const claimed = await worker.claimOne(deliveryId, now)
    if (!claimed) throw new ValidationError('This delivery is being sent right now; look again in a moment.')
    await worker.attempt(claimed, now, true)
    return withAttempts(await deliveryOf(caller, endpointId, deliveryId))
  }

  return {
    async list(caller: Caller): Promise<WebhookEndpoint[]> {
      requireAdmin(caller)
      return db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.workspaceId, caller.workspace.id))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    },

    async get(caller: Caller, id: string): Promise<WebhookEndpoint> {
      requireAdmin(caller)
      return withoutSecret(await owned(caller, id))
    },

    /** A new endpoint; the answer holds its signing secret, shown this once. */
    async create(caller: Caller, input: WebhookCreate): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      requireAdmin(caller)
      // An endpoint sends the workspace's events to an address outside: not before the member's own address is verified.
      requireVerifiedEmail(caller, { kind: 'webhook' })
      // The plan first (no address is looked up for a workspace that may not add one), then again under the lock.
      await requireRoom(db, caller.workspace.id)
      await checkUrl(input.url)
      const secret = newWebhookSecret()
      const row = await db.transaction(async (tx) => {
        // One creation at a time per workspace, so two cannot both take the last allowed place.
        await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, caller.workspace.id)).for('update')
        await requireRoom(tx, caller.workspace.id)
        const [created] = await tx
          .insert(webhookEndpoints)
          .values({ ...input, workspaceId: caller.workspace.id, secretSealed: box.seal(secret) })
          .returning()
        if (!created) throw new Error('webhook endpoint insert returned nothing')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'webhook.create',
          targetType: 'webhook',
          targetId: created.id,
          summary: `Added the webhook endpoint ${webhookUrlHint(created.url)}`,
        })
        return created
      })
      return { endpoint: withoutSecret(row), secret }
    },

    /**
     * What messages of one event look like, for a connector's set-up (REST hooks, docs/decisions/067):
     * the workspace's last three sent, newest first, else the event's example.
     */
    async samples(caller: Caller, event: WebhookEvent, now = new Date()): Promise<WebhookPayload[]> {
      const rows = await db
        .select({ body: webhookDeliveries.body })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.workspaceId, caller.workspace.id), eq(webhookDeliveries.eventType, event)))
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(SAMPLES * 5)
      // Each endpoint that chose the event got the same message: one of each.
      const sent = [...new Set(rows.map((row) => row.body))].slice(0, SAMPLES).map((body) => JSON.parse(body) as WebhookPayload)
      if (sent.length) return sent
      return [{ type: event, timestamp: now.toISOString(), workspaceId: caller.workspace.id, data: WEBHOOK_EXAMPLES[event] }]
    },

    async update(caller: Caller, id: string, changes: WebhookUpdate): Promise<WebhookEndpoint> {
      requireAdmin(caller)
      const current = await owned(caller, id)
      if (changes.url !== undefined && changes.url !== current.url) {
        // A new address receives the workspace's events, as a new endpoint would (docs/decisions/040, amended).
        requireVerifiedEmail(caller, { kind: 'webhook-address' })
        await checkUrl(changes.url)
      }
      const row = await db.transaction(async (tx) => {
        const turnedOn = changes.enabled === true && !current.enabled
        const [updated] = await tx
          .update(webhookEndpoints)
          .set({
            ...changes,
            ...(changes.enabled === undefined ? {} : { disabledReason: null }),
            ...(turnedOn ? { consecutiveFailures: 0 } : {}),
            updatedAt: new Date(),
          })
          .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, caller.workspace.id)))
          .returning()
        if (!updated) throw new NotFound('Webhook endpoint not found')
        if (changes.enabled === false && current.enabled) await abandonPending(tx, id)
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'webhook.update',
          targetType: 'webhook',
          targetId: id,
          summary: `Changed the webhook endpoint ${webhookUrlHint(updated.url)}: ${Object.keys(changes).join(', ')}`,
        })
        return updated
      })
      return withoutSecret(row)
    },

    async remove(caller: Caller, id: string): Promise<void> {
      requireAdmin(caller)
      const current = await owned(caller, id)
      await db.transaction(async (tx) => {
        await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, caller.workspace.id)))
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'webhook.delete',
          targetType: 'webhook',
          targetId: id,
          summary: `Deleted the webhook endpoint ${webhookUrlHint(current.url)}`,
        })
      })
    },

    /**
     * A new signing secret (shown once). The old one signs beside it for 24 hours (two signatures
     * in the header), so a receiver can switch to the new one without losing messages.
     */
    async rotateSecret(caller: Caller, id: string, now = new Date()): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      requireAdmin(caller)
      const current = await owned(caller, id)
      const secret = newWebhookSecret()
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(webhookEndpoints)
          .set({
            secretSealed: box.seal(secret),
            previousSecretSealed: current.secretSealed,
            previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
            updatedAt: new Date(),
          })
          .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, caller.workspace.id)))
          .returning()
        if (!updated) throw new NotFound('Webhook endpoint not found')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'webhook.rotate-secret',
          targetType: 'webhook',
          targetId: id,
          summary: `Rotated the signing secret of the webhook endpoint ${webhookUrlHint(updated.url)}`,
        })
        return updated
      })
      return { endpoint: withoutSecret(row), secret }
    },

    /** The delivery log: an endpoint's deliveries, newest first, each with its attempts. */
    async deliveries(caller: Caller, id: string, query: { page: number; limit: number }): Promise<Page<WebhookDeliveryWithAttempts>> {
      requireAdmin(caller)
      await owned(caller, id)
      const where = eq(webhookDeliveries.endpointId, id)
      const [rows, [totals]] = await Promise.all([
        db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(webhookDeliveries).where(where),
      ])
      const attempts = rows.length
        ? await db
            .select()
            .from(webhookAttempts)
            .where(
              inArray(
                webhookAttempts.deliveryId,
                rows.map((row) => row.id),
              ),
            )
            .orderBy(desc(webhookAttempts.createdAt), desc(webhookAttempts.attempt))
        : []
      const items = rows.map(({ body: _body, attempts: attemptCount, ...row }) => ({
        ...row,
        attemptCount,
        attempts: attempts.filter((entry) => entry.deliveryId === row.id),
      }))
      return { items, total: totals?.total ?? 0, page: query.page, limit: query.limit }
    },

    /** One delivery's exact body (what was signed), for the member to look at. */
    async deliveryBody(caller: Caller, id: string, deliveryId: string): Promise<string> {
      requireAdmin(caller)
      return (await deliveryOf(caller, id, deliveryId)).body
    },

    /** Sends a delivery again now, with the same message id and body (receivers that saw it drop it). */
    async redeliver(caller: Caller, id: string, deliveryId: string, now = new Date()): Promise<WebhookDeliveryWithAttempts> {
      requireAdmin(caller)
      // Sent at once to whatever address the endpoint has now.
      requireVerifiedEmail(caller, { kind: 'webhook-send' })
      await owned(caller, id)
      await deliveryOf(caller, id, deliveryId)
      return sendNow(caller, id, deliveryId, now)
    },

    /** Sends a `webhook.test` message to this endpoint now (whatever its events), and logs it like any other. */
    async sendTest(caller: Caller, id: string, now = new Date()): Promise<WebhookDeliveryWithAttempts> {
      requireAdmin(caller)
      requireVerifiedEmail(caller, { kind: 'webhook-send' })
      const endpoint = await owned(caller, id)
      const payload: WebhookPayload = {
        type: WEBHOOK_TEST_EVENT,
        timestamp: now.toISOString(),
        workspaceId: endpoint.workspaceId,
        data: {
          message: 'A test event from Aether: your endpoint receives and verifies our webhooks.',
          endpointId: endpoint.id,
          sentBy: caller.email,
        },
      }
      const [delivery] = await db
        .insert(webhookDeliveries)
        .values({
          endpointId: endpoint.id,
          workspaceId: endpoint.workspaceId,
          messageId: newMessageId(),
          eventType: WEBHOOK_TEST_EVENT,
          body: JSON.stringify(payload),
          nextAttemptAt: null,
        })
        .returning()
      if (!delivery) throw new Error('delivery insert returned nothing')
      return sendNow(caller, id, delivery.id, now)
    },

    /** The worker's pass: sends the due deliveries of enabled endpoints; returns how many. */
    deliverDue: worker.deliverDue,
    /** Runs deliverDue every `intervalMs` until stopped (the background work of main.ts). */
    start: worker.start,
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
