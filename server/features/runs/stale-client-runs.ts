import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { automationRuns, devices, type RunLogLine } from '#server/db/schema/index.ts'
import type { Run, RunService } from './run.service.ts'

/**
 * How long a client run may go without news: a running one without a report (each step reports),
 * and a queued one waiting for its local runner to take it up (a runner asks every 15 s).
 */
export const CLIENT_RUN_BOUNDS = { silentMs: 15 * 60_000, waitingMs: 60 * 60_000 } as const

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`

/**
 * Ends the client runs their device left behind (a closed side panel, a runner switched off or
 * offline): a running one silent past `silentMs`, a queued one not taken up within `waitingMs`.
 * Each fails saying so, gives back what it cost (it does not count towards the month's runs) and
 * is announced like any end. Answers how many ended. Safe in several processes at once.
 */
export async function endStaleClientRuns(
  deps: { db: Db; runs: Pick<RunService, 'finishedIn' | 'refundIn'>; announce: (run: Run) => void },
  now = new Date(),
  bounds: { silentMs: number; waitingMs: number } = CLIENT_RUN_BOUNDS,
): Promise<number> {
  const { db, runs } = deps
  const ended = await db.transaction(async (tx) => {
    const stale = await tx
      .select({ run: automationRuns, deviceName: devices.name })
      .from(automationRuns)
      .leftJoin(devices, eq(devices.id, automationRuns.deviceId))
      .where(
        and(
          eq(automationRuns.runner, 'client'),
          sql`((${automationRuns.status} = 'running' and ${automationRuns.updatedAt} < ${new Date(now.getTime() - bounds.silentMs)})
            or (${automationRuns.status} = 'queued' and ${automationRuns.createdAt} < ${new Date(now.getTime() - bounds.waitingMs)}))`,
        ),
      )
      .limit(100)
      .for('update', { of: automationRuns, skipLocked: true })
    const done: Run[] = []
    for (const { run, deviceName } of stale) {
      const device = deviceName ? `Your device “${deviceName}”` : 'Your device'
      const error =
        run.status === 'queued'
          ? `${device} was offline: it did not take this run up within ${minutes(bounds.waitingMs)}. It does not count towards this month's runs.`
          : `${device} stopped reporting this run for ${minutes(bounds.silentMs)} (its browser or runner closed, or went offline). It does not count towards this month's runs.`
      const note: RunLogLine = { at: now.toISOString(), level: 'error', message: error }
      const [updated] = await tx
        .update(automationRuns)
        .set({
          status: 'failed',
          error,
          finishedAt: now,
          log: sql`${automationRuns.log} || ${JSON.stringify([note])}::jsonb`,
          updatedAt: now,
        })
        .where(eq(automationRuns.id, run.id))
        .returning()
      if (!updated) continue
      await runs.refundIn(tx, updated, run.status === 'queued' ? 'its device was offline' : 'its device stopped reporting')
      await runs.finishedIn(tx, updated)
      done.push(updated)
    }
    return done
  })
  for (const run of ended) deps.announce(run)
  return ended.length
}
