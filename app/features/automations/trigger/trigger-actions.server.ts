import { data, type AppLoadContext } from 'react-router'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { actionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'

// The builder's trigger URL actions: create or rotate (the answer is the only time the URL is
// shown), and revoke. The same service as POST/DELETE /api/automations/{id}/trigger.

/** A new trigger URL, for the card to show once. */
export type IssuedTriggerAnswer = Extract<ActionResult, { ok: true }> & { intent: 'issue-trigger'; url: string }

export async function issueTrigger(context: AppLoadContext, automationId: string) {
  const caller = pageCaller(requireMember(context))
  const issued = await attempt(() => context.services.triggers.issue(automationId, caller))
  if (!issued.ok) {
    return data<ActionResult>(
      { ok: false, intent: 'issue-trigger', error: { title: 'Could not make a trigger URL', description: issued.error.message } },
      { status: issued.error.status },
    )
  }
  return data<IssuedTriggerAnswer>({
    ok: true,
    intent: 'issue-trigger',
    url: issued.value.url,
    toast: { title: 'Trigger URL ready', description: 'Copy it now: it is shown only this once.' },
  })
}

export function revokeTrigger(context: AppLoadContext, automationId: string) {
  const caller = pageCaller(requireMember(context))
  return actionResult(() => context.services.triggers.revoke(automationId, caller), {
    success: { title: 'Trigger URL revoked', description: 'It no longer starts runs.' },
    error: 'Could not revoke the trigger URL',
    intent: 'revoke-trigger',
  })
}
