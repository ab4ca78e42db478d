import type { AppLoadContext } from 'react-router'
import { dateTimeLabel } from '#app/features/automations/run-view.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'
import { inputNamesOf } from '#common/run-inputs.ts'

type Services = AppLoadContext['services']

/**
 * The builder's trigger URL card (docs/decisions/027): whether the automation has a trigger URL
 * (never its secret), whether the plan allows one, and the inputs a caller must send.
 */
export async function triggerView(services: Services, automationId: string, steps: readonly AutomationStep[], caller: Caller) {
  const [status, allowances] = await Promise.all([
    services.triggers.status(automationId, caller),
    services.plans.allowancesOf(caller.workspace.id),
  ])
  const locked = allowances.triggerUrls ? null : await attempt(() => services.plans.requireFeature(caller.workspace.id, 'triggerUrls'))
  return {
    locked: locked && !locked.ok ? locked.error.message : null,
    inputs: inputNamesOf(steps),
    current: status
      ? {
          hint: status.hint,
          createdAt: dateTimeLabel(status.createdAt),
          lastUsedAt: status.lastUsedAt ? dateTimeLabel(status.lastUsedAt) : null,
        }
      : null,
  }
}
export type TriggerView = Awaited<ReturnType<typeof triggerView>>
