import { sql } from 'drizzle-orm'
import { check, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { workspaces } from './workspaces.ts'

/** A workspace's subscription at the payment provider, as its webhooks last described it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** 'paddle', or 'sandbox' for the local sandbox (docs/decisions/010-payments.md). */
    provider: text({ enum: ['paddle', 'sandbox'] }).notNull(),
    providerSubscriptionId: text().notNull().unique(),
    providerCustomerId: text(),
    planSlug: text().notNull(),
    /** The provider's status: active, trialing, past_due, paused or canceled. */
    status: text().notNull(),
    nextBilledAt: timestamp({ withTimezone: true }),
    /** Set while a cancellation is scheduled: the plan falls back to Free at this moment. */
    cancelAt: timestamp({ withTimezone: true }),
    canceledAt: timestamp({ withTimezone: true }),
    cardBrand: text(),
    cardLast4: text(),
    updatePaymentUrl: text(),
    /** occurred_at of the newest event applied; older events arriving late are ignored. */
    lastEventAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.workspaceId)],
)

/** One row per provider transaction, with its latest status (the billing history). */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    providerTransactionId: text().notNull().unique(),
    providerSubscriptionId: text(),
    planSlug: text(),
    /** What was charged: the provider's grand total, never below 0 (a downgrade's credit is creditToBalance). */
    amount: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull(),
    currency: text().notNull().default('USD'),
    /** Paid from the customer's credit balance at the provider (Paddle's totals.credit), besides the amount. */
    creditApplied: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    /** Put on the customer's credit balance at the provider (Paddle's totals.credit_to_balance): a prorated downgrade. */
    creditToBalance: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    status: text({ enum: ['success', 'pending', 'failed'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('payments_status_check', sql`${table.status} in ('success', 'pending', 'failed')`),
    check('payments_amount_check', sql`${table.amount} >= 0`),
    check('payments_credit_check', sql`${table.creditApplied} >= 0 and ${table.creditToBalance} >= 0`),
    index().on(table.workspaceId, table.createdAt),
    // Revenue a day (the admin's overview, docs/decisions/063).
    index().on(table.createdAt),
  ],
)

/** `model_call`: one call to the AI model (planning, self-repair), docs/decisions/020. */
export const CREDIT_REASONS = ['signup', 'plan_grant', 'admin_edit', 'usage', 'refund', 'model_call'] as const

/** Every change of a workspace's credit balance; workspaces.credits is the running total. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    delta: integer().notNull(),
    balanceAfter: integer().notNull(),
    reason: text({ enum: CREDIT_REASONS }).notNull(),
    /** What caused it: a transaction id, a run id, an admin's note. */
    reference: text(),
    /** Who made it, when a person did (an admin's edit). */
    actorId: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('credit_ledger_balance_check', sql`${table.balanceAfter} >= 0`),
    check('credit_ledger_reason_check', sql`${table.reason} in ('signup', 'plan_grant', 'admin_edit', 'usage', 'refund', 'model_call')`),
    index().on(table.workspaceId, table.createdAt),
    // Credits spent a day (the admin's overview, docs/decisions/063).
    index().on(table.createdAt, table.reason),
  ],
)

/** Provider events already handled: each event id is applied once. */
export const webhookEvents = pgTable('webhook_events', {
  id: text().primaryKey(),
  provider: text().notNull(),
  eventType: text().notNull(),
  outcome: text({ enum: ['applied', 'ignored'] }).notNull(),
  detail: text(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
