import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { automationRuns, cloudQueueTurns, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Run } from './run.service.ts'

/** Cloud runs waiting for a worker. */
export const queuedInCloud = and(eq(automationRuns.status, 'queued'), eq(automationRuns.runner, 'cloud'))

/** Within a workspace, and between turns that start together: oldest first. */
export const queueOrder = [asc(automationRuns.createdAt), asc(automationRuns.id)] as const

/**
 * The virtual clock of the cloud queue's turns (docs/decisions/038): where the latest claim's turn
 * started. A workspace whose next turn is behind it (it had nothing queued) starts at it.
 */
export const queueClock = sql<string>`(select coalesce(max(${cloudQueueTurns.lastStart}), 0) from ${cloudQueueTurns})`

/**
 * How far one claim moves its workspace's next turn: 1,000,000 divided by its plan's weight, the
 * plan's cloud concurrency (docs/decisions/038). A workspace of weight 5 takes five turns while
 * one of weight 1 takes one, when both have runs waiting.
 */
export const turnStride = sql<string>`round(1000000.0 / greatest(${subscriptionPlans.cloudConcurrency}, 1))::bigint`

/** Where a workspace's next turn starts: its own next turn, or the clock when that has passed it. */
export const nextTurn = sql<string>`greatest(coalesce(${cloudQueueTurns.nextStart}, 0), ${queueClock})`

/** Where a queued cloud run stands: its position, and its workspace's running cloud runs against its plan's limit. */
export interface QueueStanding {
  position: number
  running: number
  cloudConcurrency: number
}

/**
 * Where queued cloud runs stand (docs/decisions/029, 038). A run's position is its place in the
 * order the claims would take the runs queued now: each workspace's runs in turn, a workspace's
 * k-th waiting run k strides after its next turn. It is an estimate, and says so on the run page:
 * a run another workspace queues later may take a turn before it, and the runs of a workspace at
 * its plan's limit are passed over until one of its runs ends.
 */
export function createCloudQueue(db: Db) {
  /** Queue positions of those of `runs` that are queued in the cloud, by run id (one query). */
  async function queuePositions(runs: Pick<Run, 'id' | 'status' | 'runner'>[]): Promise<Record<string, number>> {
    const ids = runs.filter((run) => run.status === 'queued' && run.runner === 'cloud').map((run) => run.id)
    if (ids.length === 0) return {}
    const waiting = db
      .select({
        id: automationRuns.id,
        createdAt: automationRuns.createdAt,
        turn: sql<string>`${nextTurn} + (row_number() over (partition by ${automationRuns.workspaceId} order by ${sql.join(
          [...queueOrder],
          sql`, `,
        )}) - 1) * ${turnStride}`.as('turn'),
      })
      .from(automationRuns)
      .innerJoin(workspaces, eq(workspaces.id, automationRuns.workspaceId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .leftJoin(cloudQueueTurns, eq(cloudQueueTurns.workspaceId, automationRuns.workspaceId))
      .where(queuedInCloud)
      .as('waiting')
    const queue = db
      .select({
        id: waiting.id,
        position: sql<number>`row_number() over (order by ${waiting.turn}, ${waiting.createdAt}, ${waiting.id})`.as('position'),
      })
      .from(waiting)
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
