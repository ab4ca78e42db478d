import { and, desc, eq, sql } from 'drizzle-orm'
import { Conflict, NotFound } from '#common/errors.ts'
import type { Page } from '#common/pagination.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { creditLedger, workspaces, type CREDIT_REASONS } from '#server/db/schema/index.ts'
import type { WebhookOutbox } from '#server/features/webhooks/webhook-outbox.ts'

type CreditReason = (typeof CREDIT_REASONS)[number]
export type CreditEntry = typeof creditLedger.$inferSelect

export interface CreditChange {
  /** The workspace whose balance changes (a member's personal workspace has their account's id). */
  workspaceId: string
  delta: number
  reason: CreditReason
  reference?: string | null
  actorId?: string | null
}

export class InsufficientCredits extends Conflict {
  constructor(readonly balance: number) {
    super(`Not enough credits: the balance is ${balance}.`)
  }
}

/**
 * Credit balances and their ledger, per workspace. The balance on the workspace and its ledger row
 * change in one statement pair inside a transaction; the update is conditional, so concurrent
 * changes queue on the workspace row and the balance can never go below zero (a CHECK constraint backs this up).
 */
export function createCreditService(db: Db, options: { webhooks?: Pick<WebhookOutbox, 'balanceChangedIn'> } = {}) {
  async function applyIn(tx: DbOrTx, change: CreditChange): Promise<number> {
    if (!Number.isInteger(change.delta)) throw new Error(`credit delta must be an integer, got ${change.delta}`)
    const [updated] = await tx
      .update(workspaces)
      .set({ credits: sql`${workspaces.credits} + ${change.delta}`, updatedAt: new Date() })
      .where(and(eq(workspaces.id, change.workspaceId), sql`${workspaces.credits} + ${change.delta} >= 0`))
      .returning({ credits: workspaces.credits })
    if (!updated) {
      const [current] = await tx.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, change.workspaceId))
      if (!current) throw new NotFound('Workspace not found')
      throw new InsufficientCredits(current.credits)
    }
    await tx.insert(creditLedger).values({
      workspaceId: change.workspaceId,
      delta: change.delta,
      balanceAfter: updated.credits,
      reason: change.reason,
      reference: change.reference ?? null,
      actorId: change.actorId ?? null,
      // The time of this insert, not of the transaction's start: the workspace row is locked by now,
      // so the ledger's order by time is the order in which the balances changed.
      createdAt: sql`clock_timestamp()`,
    })
    // credits.low, queued in this transaction when the change takes the balance below the threshold.
    await options.webhooks?.balanceChangedIn(tx, change.workspaceId, {
      before: updated.credits - change.delta,
      after: updated.credits,
      reason: change.reason,
    })
    return updated.credits
  }

  /** setBalance inside the caller's transaction (which must lock nothing the ledger needs first). */
  async function setBalanceIn(
    tx: DbOrTx,
    workspaceId: string,
    credits: number,
    actor: { actorId: string; reference?: string },
  ): Promise<number> {
    const [current] = await tx.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update')
    if (!current) throw new NotFound('Workspace not found')
    const delta = credits - current.credits
    if (delta === 0) return current.credits
    return applyIn(tx, { workspaceId, delta, reason: 'admin_edit', actorId: actor.actorId, reference: actor.reference })
  }

  return {
    applyIn,

    /** Adds (or, with a negative delta, takes) credits; returns the new balance. */
    async change(change: CreditChange): Promise<number> {
      if (change.delta === 0) throw new Error('a credit change of 0 records nothing')
      return db.transaction((tx) => applyIn(tx, change))
    },

    /** Sets a balance (an admin's edit), recording the difference; returns the new balance. */
    async setBalance(workspaceId: string, credits: number, actor: { actorId: string; reference?: string }): Promise<number> {
      return db.transaction((tx) => setBalanceIn(tx, workspaceId, credits, actor))
    },

    setBalanceIn,

    async recent(workspaceId: string, limit = 5): Promise<CreditEntry[]> {
      return db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.workspaceId, workspaceId))
        .orderBy(desc(creditLedger.createdAt))
        .limit(limit)
    },

    async list(workspaceId: string, query: { page: number; limit: number }): Promise<Page<CreditEntry>> {
      return newestFirstPage(db, creditLedger, eq(creditLedger.workspaceId, workspaceId), query)
    },
  }
}

export type CreditService = ReturnType<typeof createCreditService>
