import { and, count, eq, gte } from 'drizzle-orm'
import { MODEL_CALL_CREDITS } from '#common/ai.ts'
import { monthStart } from '#common/calendar.ts'
import { LimitReached } from '#common/errors.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { creditLedger, workspaces } from '#server/db/schema/index.ts'
import { InsufficientCredits, type CreditService } from './credit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'

/** What a model call is for: it is written into the ledger row's reference. */
export type ModelCallPurpose = 'planning' | 'repair'

/** The plan feature each purpose spends model calls on (what the plan named in a refusal must have too). */
const FEATURE_OF = { planning: 'aiPlanning', repair: 'modelRepair' } as const

/** Who pays for a model call: the workspace (credits, monthly allowance) and the member it is made for (the rate limit). */
export interface ModelCallPayer {
  workspaceId: string
  /** The member who plans, or who started the run; null for a run whose starter is no longer known (then the workspace is limited). */
  memberId: string | null
}

/** Model calls one member may make in a minute, whatever the plan (a runaway loop costs little). */
export const MODEL_CALLS_PER_MINUTE = 30

/** The rate limit's counter: one per member, so one member's loop does not stop a teammate's calls. */
export const modelCallLimitKey = (payer: ModelCallPayer) =>
  payer.memberId ? `model-calls:member:${payer.memberId}` : `model-calls:workspace:${payer.workspaceId}`

const calls = (n: number) => n.toLocaleString('en-US')

/**
 * Every call to the AI model is paid before it is made (docs/decisions/020): MODEL_CALL_CREDITS
 * from the workspace's balance, as a `model_call` row of the credit ledger, within the monthly
 * allowance of its plan, and within a per-minute limit per member. The ledger is the count: this
 * month's `model_call` rows are this month's calls. The workspace row is locked while counting, so
 * two calls at once cannot both take the last one. A refusal by the allowance names the cheapest
 * plan with more calls, as every plan refusal does.
 */
export function createModelCalls(deps: {
  db: Db
  credits: Pick<CreditService, 'applyIn'>
  plans: Pick<PlanService, 'allowancesOf' | 'cheapestWithMoreModelCalls'>
  rateLimits: Pick<RateLimitService, 'consume'>
}) {
  const { db, credits, plans, rateLimits } = deps

  async function usedIn(tx: DbOrTx, workspaceId: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(creditLedger)
      .where(
        and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.reason, 'model_call'), gte(creditLedger.createdAt, monthStart())),
      )
    return row?.n ?? 0
  }

  return {
    /** Model calls the workspace made this calendar month (UTC). */
    usedThisMonth: (workspaceId: string) => usedIn(db, workspaceId),

    /** Pays for one model call, or refuses it (LimitReached naming the plan, or RateLimited). */
    async charge(payer: ModelCallPayer, purpose: ModelCallPurpose, reference: string): Promise<void> {
      const { workspaceId } = payer
      await rateLimits.consume(modelCallLimitKey(payer), {
        limit: MODEL_CALLS_PER_MINUTE,
        windowSeconds: 60,
        message: `At most ${MODEL_CALLS_PER_MINUTE} AI model calls a minute per member; try again in a moment.`,
      })
      await db.transaction(async (tx) => {
        await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update')
        const allowances = await plans.allowancesOf(workspaceId, tx)
        const allowed = allowances.monthlyModelCalls
        if (allowed !== null && (await usedIn(tx, workspaceId)) >= allowed) {
          const more = await plans.cheapestWithMoreModelCalls(allowed, FEATURE_OF[purpose], tx)
          throw new LimitReached(allowanceRefusal(allowances.plan, allowed, more), 'PLAN_LIMIT')
        }
        try {
          await credits.applyIn(tx, {
            workspaceId,
            delta: -MODEL_CALL_CREDITS,
            reason: 'model_call',
            reference: `${purpose}: ${reference}`.slice(0, 200),
          })
        } catch (error) {
          if (!(error instanceof InsufficientCredits)) throw error
          throw new LimitReached(
            `An AI model call costs ${MODEL_CALL_CREDITS} credit, and your balance is ${error.balance}. Your plan's monthly credits arrive with the next billing period.`,
            'INSUFFICIENT_CREDITS',
          )
        }
      })
    },
  }
}

export type ModelCalls = ReturnType<typeof createModelCalls>

/** Why the allowance refuses a call, naming the cheapest plan that would allow it (as requireFeature does). */
function allowanceRefusal(plan: string, allowed: number, more: { name: string; monthlyModelCalls: number | null } | null): string {
  const upgrade = more
    ? more.monthlyModelCalls === null
      ? `the ${more.name} plan has AI model calls without a monthly limit`
      : `the ${more.name} plan includes ${calls(more.monthlyModelCalls)} a month`
    : null
  if (allowed === 0) {
    return upgrade
      ? `The ${plan} plan includes no AI model calls; ${upgrade}. Upgrade to use the AI model.`
      : `The ${plan} plan includes no AI model calls, and no plan includes them at the moment.`
  }
  const used = `The ${plan} plan includes ${calls(allowed)} AI model calls per month, and this month's are used`
  return upgrade ? `${used}; ${upgrade}. Upgrade to use more.` : `${used}. More arrive on the first day of next month.`
}
