import { data } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'

export interface ToastMessage {
  title: string
  description?: string
}

/** What an automation or run action answers when it stays on the page: a toast either way. */
export type ActionResult = { ok: true; toast: ToastMessage } | { ok: false; error: ToastMessage; code?: string }

/**
 * Runs one service call for an action. A broken rule (not enough credits, the plan's limit, a
 * missing automation) becomes an error toast with the service's own message and its status.
 */
export async function actionResult<T>(run: () => Promise<T>, texts: { success: (value: T) => ToastMessage; error: string }) {
  const outcome = await attempt(run)
  if (outcome.ok) return data<ActionResult>({ ok: true, toast: texts.success(outcome.value) })
  return data<ActionResult>(
    { ok: false, error: { title: texts.error, description: outcome.error.message }, code: outcome.error.code },
    { status: outcome.error.status },
  )
}
