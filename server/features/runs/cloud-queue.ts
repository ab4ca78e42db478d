import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { automationRuns, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Run } from './run.service.ts'

/** Cloud runs waiting for a worker. */
export const queuedInCloud = and(eq(automationRuns.status, 'queued'), eq(automationRuns.runner, 'cloud'))

/** The queue's order, oldest first: the claim takes runs in it, and a run's position counts in it. */
export const queueOrder = [asc(automationRuns.createdAt), asc(automationRuns.id)] as const

/** Where a queued cloud run stands: its position, and its workspace's running cloud runs against its plan's limit. */
export interface QueueStanding {
  position: number
  running: number
  cloudConcurrency: number
}

/**
 * Where queued cloud runs stand (docs/decisions/029). A run's position is 1 + the queued cloud
 * runs of every workspace ahead of it in the claim's order. Runs of a workspace at its plan's
 * limit are passed over by the claim, so a run can start before it reaches 1; counting only the
 * runs that could be claimed now would make the number jump as other workspaces' runs finish.
 */
export function createCloudQueue(db: Db) {
  /** Queue positions of those of `runs` that are queued in the cloud, by run id (one query). */
  async function queuePositions(runs: Pick<Run, 'id' | 'status' | 'runner'>[]): Promise<Record<string, number>> {
    const ids = runs.filter((run) => run.status === 'queued' && run.runner === 'cloud').map((run) => run.id)
    if (ids.length === 0) return {}
    const queue = db
      .select({
        id: automationRuns.id,
        position: sql<number>`row_number() over (order by ${sql.join([...queueOrder], sql`, `)})`.as('position'),
      })
      .from(automationRuns)
      .where(queuedInCloud)
      .as('queue')
    const rows = await db.select({ id: queue.id, position: queue.position }).from(queue).where(inArray(queue.id, ids))
    return Object.fromEntries(rows.map((row) => [row.id, Number(row.position)]))
  }

  return {
    queuePositions,

    /** The run's queue standing (the run page's 'Queued' line), or null when it is not queued in the cloud. */
    async queueStanding(run: Pick<Run, 'id' | 'status' | 'runner' | 'workspaceId'>): Promise<QueueStanding | null> {
      const position = (await queuePositions([run]))[run.id]
      if (position === undefined) return null
      const [plan] = await db
        .select({ cloudConcurrency: subscriptionPlans.cloudConcurrency })
        .from(workspaces)
        .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
        .where(eq(workspaces.id, run.workspaceId))
      const [running] = await db
        .select({ n: count() })
        .from(automationRuns)
        .where(
          and(eq(automationRuns.workspaceId, run.workspaceId), eq(automationRuns.status, 'running'), eq(automationRuns.runner, 'cloud')),
        )
      return { position, running: running?.n ?? 0, cloudConcurrency: plan?.cloudConcurrency ?? 1 }
    },
  }
}
