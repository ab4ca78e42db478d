import { and, asc, count, desc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { automationRuns, mailOutbox, payments, subscriptionPlans, subscriptions, webhookDeliveries } from '#server/db/schema/index.ts'

/** A subscription counts toward monthly recurring revenue while it is paid for (past due: a payment is being retried). */
const PAYING = ['active', 'past_due']
const CURRENT = [...PAYING, 'trialing']

export interface PlanSubscriptions {
  plan: string
  name: string
  paying: number
  trialing: number
}

/** Monthly recurring revenue now: the monthly price of every subscription being paid for. */
export async function recurringRevenue(db: Db): Promise<{ mrr: number; paying: number }> {
  const [row] = await db
    .select({
      mrr: sql<number>`coalesce(sum(${subscriptionPlans.price}), 0)`.mapWith(Number),
      paying: count(),
    })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, subscriptions.planSlug))
    .where(and(inArray(subscriptions.status, PAYING), gt(subscriptionPlans.price, 0)))
  return { mrr: row?.mrr ?? 0, paying: row?.paying ?? 0 }
}

/** Current subscriptions (paid for or on trial) by plan, the most first. */
export async function subscriptionsByPlan(db: Db): Promise<PlanSubscriptions[]> {
  const paying = sql<number>`count(*) filter (where ${inArray(subscriptions.status, PAYING)})`.mapWith(Number)
  const rows = await db
    .select({
      plan: subscriptions.planSlug,
      name: sql<string>`coalesce(min(${subscriptionPlans.name}), ${subscriptions.planSlug})`,
      paying,
      trialing: sql<number>`count(*) filter (where ${subscriptions.status} = 'trialing')`.mapWith(Number),
    })
    .from(subscriptions)
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.slug, subscriptions.planSlug))
    .where(inArray(subscriptions.status, CURRENT))
    .groupBy(subscriptions.planSlug)
    .orderBy(desc(count()), asc(subscriptions.planSlug))
  return rows
}

/** The cloud queue now: runs waiting, how long the oldest has waited, and the average wait of the last hour's starts. */
export async function cloudQueue(db: Db, now: Date) {
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000)
  const [[waiting], [started]] = await Promise.all([
    db
      .select({ depth: count(), oldest: sql<string | Date | null>`min(${automationRuns.createdAt})` })
      .from(automationRuns)
      .where(and(eq(automationRuns.status, 'queued'), eq(automationRuns.runner, 'cloud'))),
    db
      .select({
        count: count(),
        averageWait: sql<number | null>`avg(extract(epoch from ${automationRuns.startedAt} - ${automationRuns.createdAt}))`.mapWith(
          (value) => (value === null ? null : Number(value)),
        ),
      })
      .from(automationRuns)
      .where(
        and(
          inArray(automationRuns.status, ['running', 'succeeded', 'failed', 'cancelled']),
          eq(automationRuns.runner, 'cloud'),
          gte(automationRuns.createdAt, hourAgo),
          gte(automationRuns.startedAt, hourAgo),
          lte(automationRuns.startedAt, now),
        ),
      ),
  ])
  const oldest = waiting?.oldest ? new Date(waiting.oldest) : null
  return {
    depth: waiting?.depth ?? 0,
    oldestWaitSeconds: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : null,
    startedLastHour: started?.count ?? 0,
    averageWaitSeconds: started?.averageWait === null || started?.averageWait === undefined ? null : Math.round(started.averageWait),
  }
}

/** The most different run errors listed. */
const TOP_ERRORS = 5
/** A run error is grouped (and shown) by its first characters. */
const ERROR_PREFIX = 160

/** What went wrong since `since`: failed runs (and their most common errors), payments, webhook deliveries and e-mails. */
export async function recentErrors(db: Db, since: Date) {
  const failedRunsSince = and(gte(automationRuns.finishedAt, since), eq(automationRuns.status, 'failed'))
  const message = sql<string>`left(coalesce(${automationRuns.error}, 'No error message'), ${sql.raw(String(ERROR_PREFIX))})`
  const [[failedRuns], topRunErrors, [failedPayments], [failedDeliveries], [failedEmails]] = await Promise.all([
    db.select({ count: count() }).from(automationRuns).where(failedRunsSince),
    db
      .select({ message, count: count() })
      .from(automationRuns)
      .where(failedRunsSince)
      .groupBy(message)
      .orderBy(desc(count()), asc(message))
      .limit(TOP_ERRORS),
    db
      .select({ count: count() })
      .from(payments)
      .where(and(gte(payments.createdAt, since), eq(payments.status, 'failed'))),
    db
      .select({ count: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'failed'), gte(webhookDeliveries.updatedAt, since))),
    db
      .select({ count: count() })
      .from(mailOutbox)
      .where(and(gte(mailOutbox.createdAt, since), eq(mailOutbox.status, 'failed'))),
  ])
  return {
    failedRuns: failedRuns?.count ?? 0,
    topRunErrors,
    failedPayments: failedPayments?.count ?? 0,
    failedWebhookDeliveries: failedDeliveries?.count ?? 0,
    failedEmails: failedEmails?.count ?? 0,
  }
}
