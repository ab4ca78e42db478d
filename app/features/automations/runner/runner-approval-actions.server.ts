import type { AppLoadContext } from 'react-router'
import { actionResult } from '#app/lib/action-result.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'

/** The builder's "Approve": the runner's owner lets the version they looked at run on their runner (POST /api/automations/{id}/runner-approval). */
export function approveRunner(context: AppLoadContext, automationId: string, form: FormData) {
  const caller = pageCaller(requireMember(context))
  const version = Number(form.get('version'))
  return actionResult(() => context.services.automations.approveRunner(automationId, caller, version), {
    success: (automation) => ({
      title: 'Approved',
      description: `Version ${automation.version} runs on your local runner from its next scheduled time.`,
    }),
    error: 'Could not approve it',
    intent: 'approve-runner',
  })
}
