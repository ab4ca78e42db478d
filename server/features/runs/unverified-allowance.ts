import { and, count, eq, gte, isNull } from 'drizzle-orm'
import { monthStart } from '#common/calendar.ts'
import { requireVerifiedEmail } from '#common/email-verification.ts'
import type { Tx } from '#server/db/client.ts'
import { automationRuns, subscriptionPlans, users } from '#server/db/schema/index.ts'
import { notRefused } from './run-history.ts'

/** The plan whose monthly runs an unverified account gets, whatever its workspace's plan. */
const FREE_PLAN = 'free'

/**
 * A cloud run costs us money, so an account whose e-mail address is not verified gets as many a
 * month as the Free plan includes, even in a workspace on a trial or a paid plan (issue 27, item
 * 12): its runs this month, in every workspace and wherever they ran, count against the Free plan's
 * monthly runs. Past them: EmailNotVerified. The account is the one the run is started for (a
 * person, a schedule's or a trigger URL's creator); its row is locked, so two starts cannot both
 * take the last run. Inside the start's transaction, before anything is written.
 */
export async function requireUnverifiedAllowance(tx: Tx, accountId: string): Promise<void> {
  if (!accountId) return
  const [account] = await tx
    .select({ email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, accountId))
    .for('no key update')
  if (!account || account.emailVerified) return
  const [free] = await tx
    .select({ limit: subscriptionPlans.monthlyRunLimit })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.slug, FREE_PLAN))
  const limit = free?.limit
  if (limit === null || limit === undefined) return
  const [used] = await tx
    .select({ n: count() })
    .from(automationRuns)
    .where(
      and(eq(automationRuns.userId, accountId), gte(automationRuns.createdAt, monthStart()), isNull(automationRuns.refundedAt), notRefused),
    )
  if ((used?.n ?? 0) >= limit) requireVerifiedEmail(account, { kind: 'cloud-runs', limit })
}
