import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { WebhookEvent } from '#common/webhooks.ts'
import { workspaces } from './workspaces.ts'

/**
 * A workspace's outgoing webhook endpoint (docs/decisions/026). The signing secret is kept
 * encrypted with a key derived from the server secret (webhook-secret-box.ts): we must sign with
 * it, so it cannot be a hash, but a copy of the database alone does not reveal it.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    events: jsonb().$type<WebhookEvent[]>().notNull().default([]),
    enabled: boolean().notNull().default(true),
    /** The secret `whsec_<base64>`, sealed (AES-256-GCM). */
    secretSealed: text().notNull(),
    /** After a rotation, the old secret signs too until this time, so receivers can switch without a gap. */
    previousSecretSealed: text(),
    previousSecretExpiresAt: timestamp({ withTimezone: true }),
    /** Deliveries that failed (every attempt used) since the last one that succeeded. */
    consecutiveFailures: integer().notNull().default(0),
    /** Why it was disabled by us (repeated failures); null when enabled or turned off by a person. */
    disabledReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.workspaceId)],
)

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const

/**
 * One event for one endpoint: the queue row the delivery worker claims (FOR UPDATE SKIP LOCKED,
 * with a lease) until it succeeds or its attempts are used. The body is fixed when the event
 * happens, so every attempt and a manual redelivery send the same bytes with the same message id.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: text().notNull(),
    /** The webhook-id header: receivers drop a message id they have seen (replays, redeliveries). */
    messageId: text().notNull(),
    eventType: text().notNull(),
    body: text().notNull(),
    status: text({ enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    leaseUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('webhook_deliveries_status_check', sql`${table.status} in ('pending', 'succeeded', 'failed')`),
    index().on(table.endpointId, table.createdAt),
    // Failed deliveries of the last day (the admin's overview, docs/decisions/063).
    index('webhook_deliveries_failed_idx')
      .on(table.updatedAt)
      .where(sql`${table.status} = 'failed'`),
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
  ],
)

/** One HTTP attempt of a delivery: the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer().notNull(),
    /** The receiver's status code; null when no answer came (refused address, timeout, connection error). */
    statusCode: integer(),
    responseMs: integer().notNull(),
    ok: boolean().notNull(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.deliveryId, table.createdAt)],
)
