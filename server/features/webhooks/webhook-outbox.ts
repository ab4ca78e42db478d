import { and, eq, gt, sql } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import {
  ARTIFACT_LINK_TTL_MS,
  CREDITS_LOW_THRESHOLD,
  WEBHOOK_INLINE_EXTRACTED_BYTES,
  type WebhookEvent,
  type WebhookEventType,
} from '#common/webhooks.ts'
import type { ArtifactLinks } from '#server/artifact-links.ts'
import { EXTRACTED_JSON } from '#server/artifact-links.ts'
import type { DbOrTx } from '#server/db/client.ts'
import {
  subscriptionPlans,
  webhookDeliveries,
  webhookEndpoints,
  workspaces,
  type automationRuns,
  type automations,
} from '#server/db/schema/index.ts'
import { newMessageId } from './webhook-signing.ts'

type RunRow = typeof automationRuns.$inferSelect
type AutomationRow = typeof automations.$inferSelect

/** The envelope every message has (Standard Webhooks' `type`, `timestamp`, `data`, and our workspace). */
export interface WebhookPayload {
  type: WebhookEventType
  timestamp: string
  workspaceId: string
  data: Record<string, unknown>
}

/**
 * Where events become deliveries: inside the transaction that changed something (a run finished,
 * an automation saved, a balance fell), one queue row per endpoint of the workspace that chose the
 * event, so an event is queued exactly when its change commits (docs/decisions/026). The delivery
 * worker (webhook.service.ts) sends them. Nothing is queued when the plan includes no webhooks.
 */
export function createWebhookOutbox(deps: { links: ArtifactLinks; publicUrl: string }) {
  const { links, publicUrl } = deps

  async function emitIn(
    tx: DbOrTx,
    workspaceId: string,
    type: WebhookEvent,
    data: Record<string, unknown>,
    now = new Date(),
  ): Promise<number> {
    const targets = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .innerJoin(workspaces, eq(workspaces.id, webhookEndpoints.workspaceId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(
        and(
          eq(webhookEndpoints.workspaceId, workspaceId),
          eq(webhookEndpoints.enabled, true),
          sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
          gt(subscriptionPlans.webhooks, 0),
        ),
      )
    if (targets.length === 0) return 0
    const payload: WebhookPayload = { type, timestamp: now.toISOString(), workspaceId, data }
    const body = JSON.stringify(payload)
    await tx.insert(webhookDeliveries).values(
      targets.map((endpoint) => ({
        endpointId: endpoint.id,
        workspaceId,
        messageId: newMessageId(),
        eventType: type,
        body,
        nextAttemptAt: now,
      })),
    )
    return targets.length
  }

  /** A finished run as its message tells it: summary, extracted rows (or a link) and signed screenshot links. */
  function runData(run: RunRow, now: Date): Record<string, unknown> {
    const expiresAt = new Date(now.getTime() + ARTIFACT_LINK_TTL_MS)
    const extractedJson = JSON.stringify(run.extracted)
    const inline = Buffer.byteLength(extractedJson) <= WEBHOOK_INLINE_EXTRACTED_BYTES
    const started = run.startedAt?.getTime()
    const finished = run.finishedAt?.getTime()
    return {
      run: {
        id: run.id,
        automationId: run.automationId,
        automationName: run.automationName,
        status: run.status,
        trigger: run.trigger,
        runner: run.runner,
        error: run.error,
        actionsPerformed: run.actionsPerformed,
        creditsCharged: run.creditsCharged,
        refunded: run.refundedAt !== null,
        createdAt: run.createdAt.toISOString(),
        startedAt: run.startedAt?.toISOString() ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        durationMs: started !== undefined && finished !== undefined ? finished - started : null,
        url: new URL(`/dashboard/runs/${run.id}`, publicUrl).toString(),
      },
      extracted: {
        rows: run.extracted.length,
        /** The rows themselves up to WEBHOOK_INLINE_EXTRACTED_BYTES of JSON; larger, null and `url` instead. */
        data: inline ? run.extracted : null,
        url: inline || run.extracted.length === 0 ? null : links.link(run.id, EXTRACTED_JSON, expiresAt),
      },
      screenshots: run.screenshots.map((shot) => ({ name: shot.name, step: shot.step, url: links.link(run.id, shot.file, expiresAt) })),
      linksExpireAt: expiresAt.toISOString(),
    }
  }

  return {
    emitIn,

    /** A run reached succeeded, failed or cancelled (in the transaction that finished it). */
    async runFinishedIn(tx: DbOrTx, run: RunRow, now = new Date()): Promise<void> {
      if (run.status !== 'succeeded' && run.status !== 'failed' && run.status !== 'cancelled') return
      await emitIn(tx, run.workspaceId, `run.${run.status}`, runData(run, now), now)
    },

    /** An automation was created, changed or deleted. */
    async automationChangedIn(
      tx: DbOrTx,
      automation: AutomationRow,
      change: 'created' | 'updated' | 'deleted',
      caller: Pick<Caller, 'id' | 'email'>,
    ): Promise<void> {
      await emitIn(tx, automation.workspaceId, 'automation.changed', {
        change,
        automation: {
          id: automation.id,
          name: automation.name,
          version: automation.version,
          enabled: automation.enabled,
          // As the API answers it (docs/decisions/036): the kind's fields, the zone, and paused.
          schedule: automation.schedule ? { ...automation.schedule, paused: !automation.enabled } : null,
          steps: automation.steps.length,
          updatedAt: automation.updatedAt.toISOString(),
          url: change === 'deleted' ? null : new URL(`/dashboard/automations/${automation.id}`, publicUrl).toString(),
        },
        changedBy: { id: caller.id, email: caller.email },
      })
    },

    /**
     * A balance change (in its transaction): credits.low when it takes the balance from at least
     * CREDITS_LOW_THRESHOLD to below it. Only that crossing fires, so a balance that stays low
     * sends one message, and another after it was topped up and fell again.
     */
    async balanceChangedIn(tx: DbOrTx, workspaceId: string, change: { before: number; after: number; reason: string }): Promise<void> {
      if (!(change.before >= CREDITS_LOW_THRESHOLD && change.after < CREDITS_LOW_THRESHOLD)) return
      await emitIn(tx, workspaceId, 'credits.low', {
        balance: change.after,
        previousBalance: change.before,
        threshold: CREDITS_LOW_THRESHOLD,
        reason: change.reason,
        url: new URL('/billing', publicUrl).toString(),
      })
    },
  }
}

export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>
