import { data, type AppLoadContext } from 'react-router'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { dataSourceFromForm } from './data-rows-form.server.ts'

// The builder's "Rows of data" actions: the same service as PUT and DELETE /api/automations/{id}/rows.

export async function keepRows(context: AppLoadContext, automationId: string, form: FormData) {
  const caller = pageCaller(requireMember(context))
  const given = await dataSourceFromForm(form)
  if (!given) {
    return data<ActionResult>(
      {
        ok: false,
        intent: 'keep-rows',
        error: { title: 'Could not keep the rows', description: 'Choose a CSV or Excel file, or paste rows, first.' },
      },
      { status: 400 },
    )
  }
  return actionResult(() => context.services.automations.keepRows(automationId, caller, given), {
    success: { title: 'Rows kept', description: `Runs started without rows of their own go through ${given.name}.` },
    error: 'Could not keep the rows',
    intent: 'keep-rows',
  })
}

export function forgetRows(context: AppLoadContext, automationId: string) {
  const caller = pageCaller(requireMember(context))
  return actionResult(() => context.services.automations.keepRows(automationId, caller, null), {
    success: { title: 'Kept rows removed', description: 'Each run needs rows given when it starts.' },
    error: 'Could not remove the kept rows',
    intent: 'forget-rows',
  })
}
