import type { AppLoadContext } from 'react-router'
import { dateTimeLabel } from '#app/features/automations/run-view.server.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'

/** The builder's "Files" card: for an automation with an upload step, or one that keeps files already. */
export async function automationFilesView(
  services: AppLoadContext['services'],
  automationId: string,
  steps: readonly AutomationStep[],
  caller: Caller,
) {
  const files = await services.automations.files(automationId, caller)
  if (files.length === 0 && !steps.some((step) => step.type === 'upload')) return null
  return {
    files: files.map((file) => ({
      name: file.name,
      size: file.size,
      keptAt: dateTimeLabel(file.createdAt),
      url: `/api/automations/${automationId}/files/${encodeURIComponent(file.name)}`,
    })),
  }
}
export type AutomationFilesView = NonNullable<Awaited<ReturnType<typeof automationFilesView>>>
