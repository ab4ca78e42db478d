import { and, eq } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { AppError, Conflict, NotFound } from '#common/errors.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db } from '#server/db/client.ts'
import { automations } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { ownerWords, runnerOf } from './runner-choice.ts'

type Automation = typeof automations.$inferSelect

/**
 * The runner's owner approves the automation's current version to run on their runner
 * (docs/decisions/032, amended). `version` is the one they looked at: a version saved since is
 * not approved unseen (409). Approving what is already approved changes nothing.
 */
export async function approveRunner(
  db: Db,
  activity: Pick<AuditService, 'record'>,
  id: string,
  caller: Caller,
  version: number,
): Promise<Automation> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(automations)
      .where(and(eq(automations.id, id), eq(automations.workspaceId, caller.workspace.id)))
      .for('update')
    if (!row) throw new NotFound('Automation not found')
    requireWorkspaceRole(caller.workspace.role, 'member', 'Approving automations on a local runner')
    const runner = row.deviceId ? await runnerOf(tx, row.workspaceId, row.deviceId) : null
    if (!runner) {
      throw new AppError(409, `“${row.name}” does not run on a connected local runner: there is nothing to approve.`, 'NO_RUNNER')
    }
    if (runner.userId !== caller.id) {
      throw new AppError(
        403,
        `Only ${ownerWords(runner)}, whose local runner “${runner.name}” it is, can approve what runs on it.`,
        'RUNNER_NOT_YOURS',
      )
    }
    if (row.version !== version) {
      throw new Conflict(`“${row.name}” was changed meanwhile (it is version ${row.version} now): look at it again before approving it.`)
    }
    if (row.deviceApprovedVersion === version) return row
    const [approved] = await tx.update(automations).set({ deviceApprovedVersion: version }).where(eq(automations.id, id)).returning()
    if (!approved) throw new NotFound('Automation not found')
    await activity.record(tx, caller, {
      workspaceId: caller.workspace.id,
      action: 'automation.runner-approve',
      targetType: 'automation',
      targetId: id,
      summary: `Approved version ${version} of ${row.name} to run on the local runner “${runner.name}”`,
    })
    return approved
  })
}
