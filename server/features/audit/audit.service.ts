import { eq, type SQL } from 'drizzle-orm'
import type { Page } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { auditLog } from '#server/db/schema/index.ts'
import type { DbOrTx } from '#server/db/client.ts'

export type AuditEntry = typeof auditLog.$inferSelect
export type AuditTarget = AuditEntry['targetType']

/** The person making a change (an admin, or someone in a workspace). */
export interface Actor {
  id: string
  email: string
}

/** Whoever an entry names: a person, or (with no id) a system such as the payment provider. */
export type ActivityActor = { id: string | null; email: string }

export interface AuditRecord {
  /** The workspace it happened in, for its activity page; none for the site's own changes. */
  workspaceId?: string | null
  action: string
  targetType: AuditTarget
  targetId?: string | null
  summary: string
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
}

/**
 * The one activity table (docs/decisions/021). Pass the open transaction so an entry exists
 * exactly when the change it describes does.
 */
export function createAuditService(db: Db) {
  return {
    async record(tx: Pick<DbOrTx, 'insert'>, actor: ActivityActor, entry: AuditRecord): Promise<void> {
      await tx.insert(auditLog).values({
        workspaceId: entry.workspaceId ?? null,
        actorId: actor.id,
        actorEmail: actor.email,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId ?? null,
        summary: entry.summary,
        before: entry.before ?? null,
        after: entry.after ?? null,
      })
    },

    /** A workspace's activity, newest first. */
    async listForWorkspace(workspaceId: string, query: { page: number; limit: number }): Promise<Page<AuditEntry>> {
      return newestFirstPage(db, auditLog, eq(auditLog.workspaceId, workspaceId), query)
    },

    async list(query: { page: number; limit: number; targetType?: AuditTarget }): Promise<Page<AuditEntry>> {
      const where: SQL | undefined = query.targetType ? eq(auditLog.targetType, query.targetType) : undefined
      return newestFirstPage(db, auditLog, where, query)
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
