import { eq } from 'drizzle-orm'
import type { RunTrigger } from '#common/automations.ts'
import { AccountDeletionPending } from '#common/account-data.ts'
import { AccountSuspended } from '#common/suspension.ts'
import type { Tx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'

/** Why a start is refused, said to whoever asked for it: the member, a trigger URL's caller, the schedule's history. */
const REFUSALS: Partial<Record<RunTrigger, string>> = {
  url: 'This trigger URL belongs to a suspended account: it starts no runs until the account is restored.',
  schedule: 'The account this schedule runs for is suspended: it starts no runs until the account is restored.',
}

/** Whose runs a trigger URL's caller or a schedule's history is told are refused, when the account waits for its deletion. */
const DELETION_REFUSALS: Partial<Record<RunTrigger, string>> = {
  url: 'The account this trigger URL belongs to',
  schedule: 'The account this schedule runs for',
}

/**
 * Refuses a run started for a suspended account (docs/decisions/062): the person who starts it, a
 * trigger URL's or a schedule's creator, a local runner's member. The account's row is locked
 * (as the unverified allowance locks it) before the workspace's, so a suspension waits for a start
 * that already passed here, and then stops its run; a start that comes after it is refused.
 */
export async function requireActiveAccount(tx: Tx, accountId: string, trigger: RunTrigger): Promise<void> {
  if (!accountId) return
  const [account] = await tx
    .select({ suspendedAt: users.suspendedAt, eraseAfter: users.eraseAfter })
    .from(users)
    .where(eq(users.id, accountId))
    .for('no key update')
  if (account?.suspendedAt) throw new AccountSuspended(REFUSALS[trigger])
  // An account whose deletion waits starts nothing either, until its member signs in (docs/decisions/065).
  if (account?.eraseAfter) throw new AccountDeletionPending(account.eraseAfter, DELETION_REFUSALS[trigger])
}
