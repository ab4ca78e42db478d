import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm'
import type { RunStatus } from '#common/automations.ts'
import { monthStart } from '#common/calendar.ts'
import type { Page } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { automationRuns } from '#server/db/schema/index.ts'
import type { Run } from './run.service.ts'

/** Not a refused start (run.service.ts's isRefusal, as SQL). */
export const notRefused = sql`not (${automationRuns.status} = 'failed' and ${automationRuns.startedAt} is null)`

export interface RunListQuery {
  page: number
  limit: number
  status?: RunStatus
  automationId?: string
  /** A workspace's runs (the member area); without it, everyone's (the admin's Runs tab). */
  workspaceId?: string
  userId?: string
}

/** The run history's reads: pages of runs, each automation's latest run, a month's usage per member. */
export function createRunHistory(db: Db) {
  return {
    async list(query: RunListQuery): Promise<Page<Run>> {
      const conditions: SQL[] = []
      if (query.workspaceId) conditions.push(eq(automationRuns.workspaceId, query.workspaceId))
      if (query.userId) conditions.push(eq(automationRuns.userId, query.userId))
      if (query.status) conditions.push(eq(automationRuns.status, query.status))
      if (query.automationId) conditions.push(eq(automationRuns.automationId, query.automationId))
      const where = conditions.length ? and(...conditions) : undefined
      const [items, [totals]] = await Promise.all([
        db
          .select()
          .from(automationRuns)
          .where(where)
          .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(automationRuns).where(where),
      ])
      return { items, total: totals?.total ?? 0, page: query.page, limit: query.limit }
    },

    /** The workspace's runs waiting for a person now (docs/decisions/059), longest waiting first: the dashboard tells of them. */
    async waitingIn(workspaceId: string, limit = 10): Promise<Run[]> {
      return db
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.workspaceId, workspaceId), eq(automationRuns.status, 'running'), isNotNull(automationRuns.waiting)))
        .orderBy(asc(sql`${automationRuns.waiting}->>'since'`))
        .limit(limit)
    },

    /** The newest run of each of these automations (those never run are absent), for a 'last run' column. */
    async latestOf(automationIds: string[]): Promise<Record<string, Run>> {
      if (automationIds.length === 0) return {}
      const rows = await db
        .selectDistinctOn([automationRuns.automationId])
        .from(automationRuns)
        .where(inArray(automationRuns.automationId, automationIds))
        .orderBy(automationRuns.automationId, desc(automationRuns.createdAt), desc(automationRuns.id))
      return Object.fromEntries(rows.flatMap((run) => (run.automationId ? [[run.automationId, run]] : [])))
    },

    /** Runs and cloud credits spent this month per workspace (a member's personal one has their id), for the admin's Users tab. */
    async usageThisMonth(workspaceIds: string[]): Promise<Record<string, { runs: number; credits: number }>> {
      if (workspaceIds.length === 0) return {}
      const rows = await db
        .select({
          workspaceId: automationRuns.workspaceId,
          runs: count(),
          credits: sql<number>`coalesce(sum(case when ${automationRuns.refundedAt} is null then ${automationRuns.creditsCharged} else 0 end), 0)::int`,
        })
        .from(automationRuns)
        .where(
          and(
            inArray(automationRuns.workspaceId, workspaceIds),
            gte(automationRuns.createdAt, monthStart()),
            isNull(automationRuns.refundedAt),
            notRefused,
          ),
        )
        .groupBy(automationRuns.workspaceId)
      return Object.fromEntries(rows.map((row) => [row.workspaceId, { runs: row.runs, credits: row.credits }]))
    },
  }
}
