import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/client.ts'
import { payments } from '#server/db/schema/index.ts'

/**
 * A workspace's credit balance at the payment provider, in dollars, as its transactions tell it:
 * what prorated downgrades put on it, less what later payments took from it
 * (docs/decisions/041-prorated-plan-changes.md). Paddle keeps the balance itself and spends it on
 * the next transactions; the sandbox, which plays Paddle, reads it from here.
 */
export async function creditBalanceOf(db: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${payments.creditToBalance} - ${payments.creditApplied}), 0)` })
    .from(payments)
    .where(and(eq(payments.workspaceId, workspaceId), eq(payments.status, 'success')))
  return Math.max(0, Math.round(Number(row?.balance ?? 0) * 100) / 100)
}
