import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '#server/db/client.ts'
import { automationRuns, type RunLogLine } from '#server/db/schema/index.ts'
import type { Run, RunService } from './run.service.ts'

/**
 * Ends every run a member started that has not finished, in every workspace (an account being
 * suspended, docs/decisions/062): each is cancelled with `why` in its log, as the member's own
 * Cancel would. A queued one gets its credits back (nothing ran); a running one stops at its next
 * step and keeps its charge. The caller announces the runs after its commit.
 */
export async function stopRunsOfAccountIn(
  runs: Pick<RunService, 'refundIn' | 'finishedIn'>,
  tx: Tx,
  userId: string,
  why: string,
): Promise<Run[]> {
  const unfinished = await tx
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.userId, userId), inArray(automationRuns.status, ['queued', 'running'])))
    .orderBy(automationRuns.id)
    .for('update')
  const stopped: Run[] = []
  for (const run of unfinished) {
    if (run.status === 'queued') await runs.refundIn(tx, run, why)
    const now = new Date()
    const note: RunLogLine = { at: now.toISOString(), level: 'warn', message: `Cancelled: ${why}.` }
    const [row] = await tx
      .update(automationRuns)
      .set({ status: 'cancelled', finishedAt: now, updatedAt: now, log: sql`${automationRuns.log} || ${JSON.stringify([note])}::jsonb` })
      .where(eq(automationRuns.id, run.id))
      .returning()
    if (!row) continue
    await runs.finishedIn(tx, row)
    stopped.push(row)
  }
  return stopped
}
