import { eq, sql } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { Conflict, NotFound } from '#common/errors.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Target } from '#common/targets.ts'
import type { Db } from '#server/db/client.ts'
import { automationRuns } from '#server/db/schema/index.ts'
import type { Automation, AutomationService } from '#server/features/automations/automation.service.ts'

/**
 * "Apply fix" (docs/decisions/019): a repair a run found for one of its steps is written into the
 * automation as a new version, when the member says so. The run keeps a note that it was applied.
 */
export function createRepairApplier(deps: { db: Db; automations: Pick<AutomationService, 'applyTarget'> }) {
  const { db, automations } = deps
  return {
    async applyRepair(runId: string, caller: Caller, step: number): Promise<Automation> {
      const [run] = await db.select().from(automationRuns).where(eq(automationRuns.id, runId))
      // A run belongs to its workspace (docs/decisions/021): whoever there may change automations
      // may apply its fix, whoever started it; viewers only read it, other workspaces do not see it.
      if (!run || run.workspaceId !== caller.workspace.id) throw new NotFound('Run not found')
      requireWorkspaceRole(caller.workspace.role, 'member', 'Applying a fix')
      const repair = run.repairs.find((entry) => entry.step === step)
      if (!repair) throw new NotFound(`This run repaired no step ${step}.`)
      if (repair.appliedInVersion)
        throw new Conflict(`This fix was already applied (version ${repair.appliedInVersion} of the automation).`)
      if (!run.automationId) throw new Conflict('The automation of this run was deleted.')
      const before = run.steps[step - 1]
      if (!before || !('target' in before) || !before.target) throw new NotFound(`This run repaired no step ${step}.`)
      const target: Target = repair.target ?? [repair.used]
      const automation = await automations.applyTarget(run.automationId, caller, { index: step - 1, before, target })
      // One statement, so two fixes applied at once both keep their mark.
      await db
        .update(automationRuns)
        .set({
          repairs: sql`(select coalesce(jsonb_agg(case when (entry->>'step')::int = ${step} then entry || jsonb_build_object('appliedInVersion', ${automation.version}::int) else entry end order by position), '[]'::jsonb) from jsonb_array_elements(${automationRuns.repairs}) with ordinality as listed(entry, position))`,
        })
        .where(eq(automationRuns.id, run.id))
      return automation
    },
  }
}

export type RepairApplier = ReturnType<typeof createRepairApplier>
