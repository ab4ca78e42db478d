import { and, count, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { auditLog, automationRuns, creditLedger, payments, users } from '#server/db/schema/index.ts'

/** What happened in a stretch of time (a day, or today so far): the overview's daily figures. */
export interface DayFigures {
  signUps: number
  runsSucceeded: number
  runsFailed: number
  runsCancelled: number
  creditsSpent: number
  creditsRefunded: number
  modelCalls: number
  modelCredits: number
  trialsStarted: number
  trialsConverted: number
  trialsExpired: number
  cancellations: number
  revenue: number
}

export const NO_FIGURES: DayFigures = {
  signUps: 0,
  runsSucceeded: 0,
  runsFailed: 0,
  runsCancelled: 0,
  creditsSpent: 0,
  creditsRefunded: 0,
  modelCalls: 0,
  modelCredits: 0,
  trialsStarted: 0,
  trialsConverted: 0,
  trialsExpired: 0,
  cancellations: 0,
  revenue: 0,
}

const total = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number)

/**
 * Counts [from, to) from the tables themselves, each with an index on its time: sign-ups, runs by
 * how they ended, the credit ledger, subscription changes (the audit log keeps each one with the
 * status before and after) and payments received.
 */
export async function figuresBetween(db: Db, from: Date, to: Date): Promise<DayFigures> {
  const [[signUps], runs, credits, [subscriptions], [revenue]] = await Promise.all([
    db
      .select({ count: count() })
      .from(users)
      .where(and(gte(users.createdAt, from), lt(users.createdAt, to))),
    db
      .select({ status: automationRuns.status, count: count() })
      .from(automationRuns)
      .where(
        and(
          gte(automationRuns.finishedAt, from),
          lt(automationRuns.finishedAt, to),
          inArray(automationRuns.status, ['succeeded', 'failed', 'cancelled']),
        ),
      )
      .groupBy(automationRuns.status),
    db
      .select({ reason: creditLedger.reason, count: count(), delta: total(sql`sum(${creditLedger.delta})`) })
      .from(creditLedger)
      .where(
        and(
          gte(creditLedger.createdAt, from),
          lt(creditLedger.createdAt, to),
          inArray(creditLedger.reason, ['usage', 'model_call', 'refund']),
        ),
      )
      .groupBy(creditLedger.reason),
    db
      .select(subscriptionTransitions)
      .from(auditLog)
      .where(
        and(
          gte(auditLog.createdAt, from),
          lt(auditLog.createdAt, to),
          inArray(auditLog.action, ['subscription.create', 'subscription.update']),
        ),
      ),
    db
      .select({ amount: total(sql`sum(${payments.amount} + ${payments.creditApplied})`) })
      .from(payments)
      .where(and(gte(payments.createdAt, from), lt(payments.createdAt, to), eq(payments.status, 'success'), eq(payments.currency, 'USD'))),
  ])
  const runsThat = (status: string) => runs.find((row) => row.status === status)?.count ?? 0
  const ledger = (reason: string) => credits.find((row) => row.reason === reason) ?? { count: 0, delta: 0 }
  return {
    signUps: signUps?.count ?? 0,
    runsSucceeded: runsThat('succeeded'),
    runsFailed: runsThat('failed'),
    runsCancelled: runsThat('cancelled'),
    // Debits are negative deltas; 0 - x and not -x, so that nothing is spent reads 0, not -0.
    creditsSpent: 0 - (ledger('usage').delta + ledger('model_call').delta),
    creditsRefunded: ledger('refund').delta,
    modelCalls: ledger('model_call').count,
    modelCredits: 0 - ledger('model_call').delta,
    trialsStarted: subscriptions?.trialsStarted ?? 0,
    trialsConverted: subscriptions?.trialsConverted ?? 0,
    trialsExpired: subscriptions?.trialsExpired ?? 0,
    cancellations: subscriptions?.cancellations ?? 0,
    revenue: revenue?.amount ?? 0,
  }
}

const before = sql`${auditLog.before}->>'status'`
const after = sql`${auditLog.after}->>'status'`
/** A subscription's changes of status: a trial begun, paid for or run out; a paid subscription ended. */
const subscriptionTransitions = {
  trialsStarted: sql<number>`count(*) filter (where ${after} = 'trialing' and ${before} is distinct from 'trialing')`.mapWith(Number),
  trialsConverted: sql<number>`count(*) filter (where ${before} = 'trialing' and ${after} = 'active')`.mapWith(Number),
  trialsExpired: sql<number>`count(*) filter (where ${before} = 'trialing' and ${after} = 'canceled')`.mapWith(Number),
  cancellations:
    sql<number>`count(*) filter (where ${after} = 'canceled' and ${before} is distinct from 'canceled' and ${before} is distinct from 'trialing')`.mapWith(
      Number,
    ),
}
