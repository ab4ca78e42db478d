import { desc, eq } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { Conflict, NotFound } from '#common/errors.ts'
import type { Db } from '#server/db/client.ts'
import { automationRuns } from '#server/db/schema/index.ts'
import type { Automation, AutomationService } from '#server/features/automations/automation.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import { RECENT_RUNS, suggestionsFor, type Suggestion } from './suggestion-analysis.ts'

/**
 * Optimisation suggestions (a plan feature): computed afresh from the automation and its last
 * runs each time they are listed or applied, never stored. A suggestion's id names the version it
 * was made for, so one made before the automation changed no longer applies.
 */
export function createSuggestionService(deps: {
  db: Db
  automations: Pick<AutomationService, 'get' | 'update'>
  plans: Pick<PlanService, 'requireFeature'>
}) {
  const { db, automations, plans } = deps

  async function analyse(automationId: string, caller: Caller): Promise<{ automation: Automation; suggestions: Suggestion[] }> {
    const automation = await automations.get(automationId, caller)
    // Only the workspace's: an admin may read any automation, but these are for changing it.
    if (automation.workspaceId !== caller.workspace.id) throw new NotFound('Automation not found')
    await plans.requireFeature(caller.workspace.id, 'suggestions')
    const runs = await db
      .select({
        status: automationRuns.status,
        steps: automationRuns.steps,
        error: automationRuns.error,
        log: automationRuns.log,
        repairs: automationRuns.repairs,
        refundedAt: automationRuns.refundedAt,
      })
      .from(automationRuns)
      .where(eq(automationRuns.automationId, automation.id))
      .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
      .limit(RECENT_RUNS)
    return { automation, suggestions: suggestionsFor(automation, runs) }
  }

  return {
    async list(automationId: string, caller: Caller): Promise<Suggestion[]> {
      return (await analyse(automationId, caller)).suggestions
    },

    /** Applies one suggestion as a new version of the automation (its steps are checked as any edit's). */
    async apply(automationId: string, caller: Caller, suggestionId: string): Promise<Automation> {
      const { automation, suggestions } = await analyse(automationId, caller)
      const suggestion = suggestions.find((candidate) => candidate.id === suggestionId)
      if (!suggestion) throw new Conflict('This suggestion no longer applies: the automation changed since it was made.')
      const { steps, selfRepair } = suggestion.change
      return automations.update(
        automationId,
        caller,
        { ...(steps === undefined ? {} : { steps }), ...(selfRepair === undefined ? {} : { selfRepair }) },
        // Made for this version: an edit saved meanwhile is not overwritten.
        { expectedVersion: automation.version },
      )
    },
  }
}

export type SuggestionService = ReturnType<typeof createSuggestionService>
