import { randomUUID } from 'node:crypto'
import type { Db } from '#server/db/client.ts'
import { and, desc, eq } from 'drizzle-orm'
import { auditLog, payments, subscriptions } from '#server/db/schema/index.ts'

// Billing rows as Paddle's webhooks would have stored them, for tests that need a subscriber or a
// payment without playing the webhooks through (webhooks.api.test.ts does that).

/** A Paddle subscription of the workspace's, with its customer at Paddle. */
export async function paddleSubscriptionOf(db: Db, workspaceId: string, status = 'active') {
  const customer = `ctm_${workspaceId.replace(/-/g, '').slice(0, 12)}`
  const subscription = `sub_${randomUUID()}`
  await db.insert(subscriptions).values({
    workspaceId,
    provider: 'paddle',
    providerSubscriptionId: subscription,
    providerCustomerId: customer,
    planSlug: 'pro',
    status,
    lastEventAt: new Date(),
  })
  return { customer, subscription }
}

/** A payment of the workspace's: a completed $29.00 one unless `values` says otherwise. */
export async function paymentOf(db: Db, workspaceId: string, values: Partial<typeof payments.$inferInsert> = {}) {
  const [row] = await db
    .insert(payments)
    .values({ workspaceId, providerTransactionId: `txn_${randomUUID()}`, amount: 29, status: 'success', ...values })
    .returning()
  if (!row) throw new Error('no payment was stored')
  return row
}

/** What the newest webhook applied to a provider's subscription left it as (its audit entry's `after`). */
export async function lastAppliedToSubscription(db: Db, providerSubscriptionId: string) {
  const [entry] = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'subscription'), eq(auditLog.targetId, providerSubscriptionId)))
    .orderBy(desc(auditLog.createdAt))
    .limit(1)
  return entry?.after
}
