import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { NotFound } from '#common/errors.ts'
import { WEBHOOK_DISABLE_AFTER_FAILURES, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '#common/webhooks.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints, workspaceMembers } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { Logger } from '#server/logger.ts'
import { sendWebhook, type SenderConfig } from './webhook-sender.ts'
import { signedHeaders, type SecretBox } from './webhook-signing.ts'

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type WebhookAttempt = typeof webhookAttempts.$inferSelect

/** How long the worker's claim on a delivery holds: longer than an attempt can take. */
const LEASE_MS = 60_000
/** Deliveries one pass of the worker takes at most. */
const BATCH = 20

/** Ends a delivery's pending life (an endpoint turned off): nothing more is tried on its own. */
export async function abandonPending(tx: DbOrTx, endpointId: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, updatedAt: new Date() })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending'), isNull(webhookDeliveries.leaseUntil)))
}

/**
 * Sending what the outbox (webhook-outbox.ts) queued (docs/decisions/026): the worker's passes,
 * and one delivery sent at once when a member asks (webhook.service.ts). Retries with backoff,
 * a log of every attempt, and an endpoint disabled after repeated failed deliveries (its
 * workspace's owners get a mail).
 */
export function createWebhookDelivery(deps: {
  db: Db
  mailer: Pick<Mailer, 'send'>
  box: SecretBox
  sender: SenderConfig
  publicUrl: string
  logger: Logger
}) {
  const { db, mailer, box, sender, publicUrl, logger } = deps

  async function ownerEmails(workspaceId: string): Promise<string[]> {
    const rows = await db
      .select({ email: users.email })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')))
    return rows.map((row) => row.email)
  }

  /**
   * Sends one claimed delivery and records the attempt. A failure is retried after the next
   * backoff delay until WEBHOOK_MAX_ATTEMPTS; a delivery that used them all counts against its
   * endpoint, which is disabled after WEBHOOK_DISABLE_AFTER_FAILURES in a row (a manual send
   * neither retries nor counts: the member is watching it).
   */
  async function attempt(delivery: WebhookDelivery, now: Date, manual: boolean): Promise<WebhookAttempt> {
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId))
    if (!endpoint) throw new NotFound('Webhook endpoint not found')
    const secrets = [box.open(endpoint.secretSealed)]
    if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(box.open(endpoint.previousSecretSealed))
    }
    const result = await sendWebhook(sender, {
      url: endpoint.url,
      headers: signedHeaders(secrets, delivery.messageId, delivery.body, now),
      body: delivery.body,
    })
    let disabled = false
    const recorded = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhookAttempts)
        .values({
          deliveryId: delivery.id,
          attempt: delivery.attempts,
          statusCode: result.statusCode,
          responseMs: result.responseMs,
          ok: result.ok,
          error: result.error,
          createdAt: now,
        })
        .returning()
      if (!row) throw new Error('attempt insert returned nothing')
      const retry = !result.ok && !manual && delivery.attempts < WEBHOOK_MAX_ATTEMPTS
      const delay = WEBHOOK_RETRY_DELAYS_MS[Math.min(delivery.attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? 0
      await tx
        .update(webhookDeliveries)
        .set({
          status: result.ok ? 'succeeded' : retry ? 'pending' : 'failed',
          nextAttemptAt: retry ? new Date(now.getTime() + delay) : null,
          leaseUntil: null,
          updatedAt: new Date(),
        })
        .where(eq(webhookDeliveries.id, delivery.id))
      if (result.ok) {
        await tx.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.id, endpoint.id))
      } else if (!retry && !manual) {
        const [counted] = await tx
          .update(webhookEndpoints)
          .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
          .where(eq(webhookEndpoints.id, endpoint.id))
          .returning({ failures: webhookEndpoints.consecutiveFailures, enabled: webhookEndpoints.enabled })
        if (counted && counted.enabled && counted.failures >= WEBHOOK_DISABLE_AFTER_FAILURES) {
          await tx
            .update(webhookEndpoints)
            .set({
              enabled: false,
              disabledReason: `Disabled after ${counted.failures} deliveries in a row failed (last: ${result.error ?? 'no answer'})`,
              updatedAt: new Date(),
            })
            .where(eq(webhookEndpoints.id, endpoint.id))
          await abandonPending(tx, endpoint.id)
          disabled = true
        }
      }
      return row
    })
    if (disabled) {
      for (const to of await ownerEmails(endpoint.workspaceId)) {
        await mailer.send({
          to,
          subject: 'A webhook endpoint was disabled',
          text:
            `Deliveries to your webhook endpoint ${endpoint.url} failed ${WEBHOOK_DISABLE_AFTER_FAILURES} times in a row ` +
            `(each after ${WEBHOOK_MAX_ATTEMPTS} attempts), so we stopped sending to it.\n\n` +
            `Last error: ${result.error ?? 'no answer'}\n\n` +
            `Fix the receiver, then turn the endpoint on again and redeliver what it missed: ${new URL('/workspace/webhooks', publicUrl).toString()}\n`,
        })
      }
      logger.warn({ endpointId: endpoint.id, workspaceId: endpoint.workspaceId }, 'webhook endpoint disabled after repeated failures')
    }
    return recorded
  }

  /** Claims one delivery by id for an attempt now (a manual send); null when the worker holds it. */
  async function claimOne(id: string, now: Date): Promise<WebhookDelivery | null> {
    const [row] = await db
      .update(webhookDeliveries)
      .set({
        status: 'pending',
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        // Should this process stop mid-attempt, the worker tries it once the lease runs out.
        nextAttemptAt: now,
        updatedAt: new Date(),
      })
      .where(and(eq(webhookDeliveries.id, id), or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now))))
      .returning()
    return row ?? null
  }

  /**
   * The worker's pass: claims due deliveries of enabled endpoints (FOR UPDATE SKIP LOCKED, with
   * a lease, so each goes to one worker across processes) and sends them. Returns how many.
   */
  async function deliverDue(now = new Date()): Promise<number> {
    const claimed = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            lte(webhookDeliveries.nextAttemptAt, now),
            or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
            eq(webhookEndpoints.enabled, true),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(BATCH)
        .for('update', { of: webhookDeliveries, skipLocked: true })
      if (due.length === 0) return []
      return tx
        .update(webhookDeliveries)
        .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, leaseUntil: new Date(now.getTime() + LEASE_MS), updatedAt: new Date() })
        .where(
          inArray(
            webhookDeliveries.id,
            due.map((row) => row.id),
          ),
        )
        .returning()
    })
    for (const delivery of claimed) {
      try {
        await attempt(delivery, now, false)
      } catch (error) {
        logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed unexpectedly')
      }
    }
    return claimed.length
  }

  /** Runs deliverDue every `intervalMs` until stopped (the background work of main.ts). */
  function start(intervalMs = 2_000) {
    let stopped = false
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      if (stopped) return
      running = running
        .then(() => (stopped ? 0 : deliverDue()))
        .catch((error: unknown) => logger.error({ err: error }, 'webhook worker pass failed'))
    }, intervalMs)
    timer.unref()
    return {
      async stop() {
        stopped = true
        clearInterval(timer)
        await running
      },
    }
  }

  return { attempt, claimOne, deliverDue, start }
}
