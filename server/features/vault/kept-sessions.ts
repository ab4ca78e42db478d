import { and, eq } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { NotFound } from '#common/errors.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db } from '#server/db/client.ts'
import { automations, automationSessions } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { contexts, open, seal } from './vault-crypto.ts'

/**
 * Kept browser sessions (docs/decisions/025): the cookies and storage a successful cloud run
 * ended with, sealed under the workspace's data key for the automation's next run. Part of the
 * vault service (vault.service.ts), which owns the data key and passes it.
 */
export function createKeptSessions(deps: {
  db: Db
  audit: Pick<AuditService, 'record'>
  /** The workspace's data key (made on first use). */
  dataKey: (workspaceId: string) => Promise<Buffer>
}) {
  const { db, audit, dataKey } = deps
  return {
    /** An automation's kept browser state (Playwright's storageState as JSON), or null. */
    async loadSession(workspaceId: string, automationId: string): Promise<string | null> {
      const [row] = await db
        .select()
        .from(automationSessions)
        .where(and(eq(automationSessions.automationId, automationId), eq(automationSessions.workspaceId, workspaceId)))
      if (!row) return null
      return open(await dataKey(workspaceId), row.sealedState, contexts.session(workspaceId, automationId)).toString('utf8')
    },

    /** Keeps the browser state a successful run ended with, for the automation's next run. */
    async saveSession(workspaceId: string, automationId: string, runId: string, state: string): Promise<void> {
      const sealedState = seal(await dataKey(workspaceId), state, contexts.session(workspaceId, automationId))
      await db
        .insert(automationSessions)
        .values({ automationId, workspaceId, sealedState, savedByRun: runId })
        .onConflictDoUpdate({ target: automationSessions.automationId, set: { sealedState, savedByRun: runId, savedAt: new Date() } })
    },

    /** When the automation's kept session was saved, or null when it has none. */
    async sessionSavedAt(workspaceId: string, automationId: string): Promise<Date | null> {
      const [row] = await db
        .select({ savedAt: automationSessions.savedAt })
        .from(automationSessions)
        .where(and(eq(automationSessions.automationId, automationId), eq(automationSessions.workspaceId, workspaceId)))
      return row?.savedAt ?? null
    },

    /** Drops an automation's kept session (its kept-session setting was turned off). */
    async dropSession(workspaceId: string, automationId: string): Promise<boolean> {
      const removed = await db
        .delete(automationSessions)
        .where(and(eq(automationSessions.automationId, automationId), eq(automationSessions.workspaceId, workspaceId)))
        .returning({ id: automationSessions.automationId })
      return removed.length > 0
    },

    /** "Forget session": the automation's next run starts signed out. Another workspace's automation is unknown (404). */
    async forgetSession(caller: Caller, automationId: string): Promise<{ forgotten: boolean }> {
      const [automation] = await db
        .select({ id: automations.id, name: automations.name })
        .from(automations)
        .where(and(eq(automations.id, automationId), eq(automations.workspaceId, caller.workspace.id)))
      if (!automation) throw new NotFound('Automation not found')
      requireWorkspaceRole(caller.workspace.role, 'member', 'Forgetting a browser session')
      return db.transaction(async (tx) => {
        const removed = await tx
          .delete(automationSessions)
          .where(and(eq(automationSessions.automationId, automationId), eq(automationSessions.workspaceId, caller.workspace.id)))
          .returning({ id: automationSessions.automationId })
        if (removed.length > 0) {
          await audit.record(tx, caller, {
            workspaceId: caller.workspace.id,
            action: 'automation.session.forget',
            targetType: 'automation',
            targetId: automationId,
            summary: `Forgot the kept browser session of ${automation.name}`,
          })
        }
        return { forgotten: removed.length > 0 }
      })
    },
  }
}
