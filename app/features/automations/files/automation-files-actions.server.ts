import { data, type AppLoadContext } from 'react-router'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { FILE_FIELD } from './automation-files-card.tsx'

// The builder's "Files" actions: the same service as PUT and DELETE /api/automations/{id}/files/{name}.

export async function keepFile(context: AppLoadContext, automationId: string, form: FormData) {
  const caller = pageCaller(requireMember(context))
  const file = form.get(FILE_FIELD)
  if (!(file instanceof File) || file.size === 0) {
    return data<ActionResult>(
      { ok: false, intent: 'keep-file', error: { title: 'Could not keep the file', description: 'Choose a file first.' } },
      { status: 400 },
    )
  }
  const bytes = new Uint8Array(await file.arrayBuffer())
  return actionResult(() => context.services.automations.keepFile(automationId, caller, { name: file.name, bytes }), {
    success: { title: 'File kept', description: `Upload steps can choose “${file.name}” now.` },
    error: 'Could not keep the file',
    intent: 'keep-file',
  })
}

export function removeFile(context: AppLoadContext, automationId: string, form: FormData) {
  const caller = pageCaller(requireMember(context))
  const name = String(form.get('name') ?? '')
  return actionResult(() => context.services.automations.removeFile(automationId, caller, name), {
    success: { title: 'File removed', description: `Upload steps that name “${name}” fail until you keep a file of that name again.` },
    error: 'Could not remove the file',
    intent: 'remove-file',
  })
}
