import type { AppLoadContext } from 'react-router'
import { dateTimeLabel } from '#app/features/automations/run-view.server.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'

/** The builder's "Rows of data" card: only for an automation with a "for each row" block. */
export async function keptRowsView(
  services: AppLoadContext['services'],
  automationId: string,
  steps: readonly AutomationStep[],
  caller: Caller,
) {
  if (!steps.some((step) => step.type === 'forEachRow')) return null
  const kept = await services.automations.keptRows(automationId, caller)
  return { current: kept ? { ...kept, updatedAt: dateTimeLabel(kept.updatedAt) } : null }
}
export type KeptRowsView = NonNullable<Awaited<ReturnType<typeof keptRowsView>>>
