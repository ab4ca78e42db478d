import { and, eq } from 'drizzle-orm'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'
import { Forbidden } from '#common/errors.ts'
import { isVaultPlaceholder, placeholdersOf } from '#common/step-placeholders.ts'
import { VAULT_USE_ROLE_WHO, type VaultUseRole } from '#common/vault.ts'
import { hasRole, WORKSPACE_ROLE_NAMES, type WorkspaceRole } from '#common/workspaces.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { vaultSecrets, workspaceMembers } from '#server/db/schema/index.ts'

/**
 * Who may use a secret (docs/decisions/039): its `useRole`, the least workspace role whose
 * automations may use it. Part of the vault service (vault.service.ts).
 */
export function createSecretUse(db: Db) {
  /** A person's role in the workspace now (null: not in it, or nobody). */
  async function roleOf(workspaceId: string, userId: string | null, tx: DbOrTx = db): Promise<WorkspaceRole | null> {
    if (!userId) return null
    const [row] = await tx
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    return row?.role ?? null
  }

  return {
    roleOf,

    /** A secret kept for admins (or the owner) is changed only by them; nobody keeps one for a role above their own. */
    requireUseRole(caller: Caller, useRole: VaultUseRole, doing: string): void {
      if (hasRole(caller.workspace.role, useRole)) return
      throw new Forbidden(
        `${doing} is for ${VAULT_USE_ROLE_WHO[useRole]}: the secret is kept for them, and you are ${WORKSPACE_ROLE_NAMES[caller.workspace.role].toLowerCase()}.`,
      )
    },

    /**
     * Refuses (403, naming the step) steps that name a secret whose setting keeps it from the
     * person starting a run: checked when a run is queued, for sessions, keys, devices, schedules
     * and trigger URLs alike, with the starter's role in the workspace now.
     */
    async checkUse(tx: DbOrTx, workspaceId: string, userId: string | null, steps: readonly AutomationStep[]): Promise<void> {
      const names = new Map<string, number>()
      for (const [index, step] of steps.entries()) {
        for (const placeholder of placeholdersOf([step]).filter(isVaultPlaceholder)) {
          if (!names.has(placeholder.name)) names.set(placeholder.name, index)
        }
      }
      if (names.size === 0) return
      const rows = await tx
        .select({ name: vaultSecrets.name, useRole: vaultSecrets.useRole })
        .from(vaultSecrets)
        .where(eq(vaultSecrets.workspaceId, workspaceId))
      const role = await roleOf(workspaceId, userId, tx)
      for (const row of rows) {
        const index = names.get(row.name)
        if (index === undefined || (role && hasRole(role, row.useRole))) continue
        const starter = role
          ? `the run would start as ${WORKSPACE_ROLE_NAMES[role].toLowerCase()}`
          : 'the run would start as nobody in this workspace'
        const message = `Step ${index + 1} uses the secret ${row.name}, which only ${VAULT_USE_ROLE_WHO[row.useRole]} may use in their automations; ${starter}.`
        throw new Forbidden(message, [{ path: `steps.${index}`, message }])
      }
    },
  }
}
