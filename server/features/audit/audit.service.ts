import { eq, type SQL } from 'drizzle-orm'
import type { Page } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { auditLog } from '#server/db/schema/index.ts'
import type { DbOrTx } from '#server/db/client.ts'

export type AuditEntry = typeof auditLog.$inferSelect
export type AuditTarget = AuditEntry['targetType']

/** The admin making a change, as every admin service receives it. */
export interface Actor {
  id: string
  email: string
}

export interface AuditRecord {
  action: string
  targetType: AuditTarget
  targetId?: string | null
  summary: string
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
}

/** Pass the open transaction so an audit entry exists exactly when the change it describes does. */
export function createAuditService(db: Db) {
  return {
    async record(tx: Pick<DbOrTx, 'insert'>, actor: Actor, entry: AuditRecord): Promise<void> {
      await tx.insert(auditLog).values({
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

    async list(query: { page: number; limit: number; targetType?: AuditTarget }): Promise<Page<AuditEntry>> {
      const where: SQL | undefined = query.targetType ? eq(auditLog.targetType, query.targetType) : undefined
      return newestFirstPage(db, auditLog, where, query)
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
