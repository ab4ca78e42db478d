import { data } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'

export interface ToastMessage {
  title: string
  description?: string
}

/**
 * What an action answers when it stays on the page: a success toast, or an error toast with the
 * reason (the spec's titles: 'Error updating plan', …). `intent` says which of a page's forms
 * answered; `field` names the input a refusal is about.
 */
export type ActionResult =
  { ok: true; toast: ToastMessage; intent?: string } | { ok: false; error: ToastMessage; intent?: string; field?: string; code?: string }

/**
 * Runs one service call for an action. A broken rule (a plan's limit, a missing automation, the
 * last admin) becomes the error toast with the service's own message and its status.
 */
export async function actionResult<T>(
  run: () => Promise<T>,
  texts: { success: ToastMessage | ((value: T) => ToastMessage); error: string; intent?: string },
) {
  const outcome = await attempt(run)
  if (outcome.ok) {
    const toast = typeof texts.success === 'function' ? texts.success(outcome.value) : texts.success
    return data<ActionResult>({ ok: true, toast, intent: texts.intent })
  }
  const issue = outcome.error.issues?.[0]
  return data<ActionResult>(
    {
      ok: false,
      intent: texts.intent,
      error: { title: texts.error, description: issue?.message ?? outcome.error.message },
      field: issue?.path,
      code: outcome.error.code,
    },
    { status: outcome.error.status },
  )
}
