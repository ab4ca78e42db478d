import { data } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'

export interface ToastMessage {
  title: string
  description?: string
}

/** What an admin action answers: a success toast, or the spec's error toast with the reason. */
export type AdminResult =
  { ok: true; toast: ToastMessage; intent: string } | { ok: false; error: ToastMessage; intent: string; field?: string }

/**
 * Runs one admin change for an action. A broken rule becomes the spec's error toast ('Error
 * updating plan', …) with the service's message and its status; success, the given toast.
 */
export async function adminResult(
  intent: string,
  run: () => Promise<unknown>,
  texts: { success: ToastMessage | ((value: unknown) => ToastMessage); error: string },
) {
  const outcome = await attempt(run)
  if (outcome.ok) {
    const toast = typeof texts.success === 'function' ? texts.success(outcome.value) : texts.success
    return data<AdminResult>({ ok: true, toast, intent })
  }
  const issue = outcome.error.issues?.[0]
  return data<AdminResult>(
    { ok: false, intent, error: { title: texts.error, description: issue?.message ?? outcome.error.message }, field: issue?.path },
    { status: outcome.error.status },
  )
}
