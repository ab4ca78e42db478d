import { and, desc, eq, sql } from 'drizzle-orm'
import { Conflict, NotFound } from '#common/errors.ts'
import type { Page } from '#common/pagination.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { creditLedger, profiles, type CREDIT_REASONS } from '#server/db/schema/index.ts'

type CreditReason = (typeof CREDIT_REASONS)[number]
export type CreditEntry = typeof creditLedger.$inferSelect

export interface CreditChange {
  userId: string
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
 * Credit balances and their ledger. The balance on the profile and its ledger row change in one
 * statement pair inside a transaction; the update is conditional, so concurrent changes queue on
 * the profile row and the balance can never go below zero (a CHECK constraint backs this up).
 */
export function createCreditService(db: Db) {
  async function applyIn(tx: DbOrTx, change: CreditChange): Promise<number> {
    if (!Number.isInteger(change.delta)) throw new Error(`credit delta must be an integer, got ${change.delta}`)
    const [updated] = await tx
      .update(profiles)
      .set({ credits: sql`${profiles.credits} + ${change.delta}`, updatedAt: new Date() })
      .where(and(eq(profiles.id, change.userId), sql`${profiles.credits} + ${change.delta} >= 0`))
      .returning({ credits: profiles.credits })
    if (!updated) {
      const [current] = await tx.select({ credits: profiles.credits }).from(profiles).where(eq(profiles.id, change.userId))
      if (!current) throw new NotFound('Profile not found')
      throw new InsufficientCredits(current.credits)
    }
    await tx.insert(creditLedger).values({
      userId: change.userId,
      delta: change.delta,
      balanceAfter: updated.credits,
      reason: change.reason,
      reference: change.reference ?? null,
      actorId: change.actorId ?? null,
      // The time of this insert, not of the transaction's start: the profile row is locked by now,
      // so the ledger's order by time is the order in which the balances changed.
      createdAt: sql`clock_timestamp()`,
    })
    return updated.credits
  }

  /** setBalance inside the caller's transaction (which must lock nothing the ledger needs first). */
  async function setBalanceIn(
    tx: DbOrTx,
    userId: string,
    credits: number,
    actor: { actorId: string; reference?: string },
  ): Promise<number> {
    const [current] = await tx.select({ credits: profiles.credits }).from(profiles).where(eq(profiles.id, userId)).for('update')
    if (!current) throw new NotFound('Profile not found')
    const delta = credits - current.credits
    if (delta === 0) return current.credits
    return applyIn(tx, { userId, delta, reason: 'admin_edit', actorId: actor.actorId, reference: actor.reference })
  }

  return {
    applyIn,

    /** Adds (or, with a negative delta, takes) credits; returns the new balance. */
    async change(change: CreditChange): Promise<number> {
      if (change.delta === 0) throw new Error('a credit change of 0 records nothing')
      return db.transaction((tx) => applyIn(tx, change))
    },

    /** Sets a balance (an admin's edit), recording the difference; returns the new balance. */
    async setBalance(userId: string, credits: number, actor: { actorId: string; reference?: string }): Promise<number> {
      return db.transaction((tx) => setBalanceIn(tx, userId, credits, actor))
    },

    setBalanceIn,

    async recent(userId: string, limit = 5): Promise<CreditEntry[]> {
      return db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.createdAt)).limit(limit)
    },

    async list(userId: string, query: { page: number; limit: number }): Promise<Page<CreditEntry>> {
      return newestFirstPage(db, creditLedger, eq(creditLedger.userId, userId), query)
    },
  }
}

export type CreditService = ReturnType<typeof createCreditService>
