import type { SubmissionResult } from '@conform-to/react'
import type { AppError } from '#common/errors.ts'

/**
 * A service's refusal of a form, as the form shows it: on the fields it names, else on the whole
 * form; and the one sentence its toast says. `reply` is the Conform submission's own.
 */
export function refusedSubmission(
  reply: (options: { formErrors: string[]; fieldErrors: Record<string, string[]>; hideFields: string[] }) => SubmissionResult<string[]>,
  error: AppError,
  hideFields: string[],
): { result: SubmissionResult<string[]>; error: string } {
  const fieldErrors = Object.fromEntries((error.issues ?? []).map((issue) => [issue.path, [issue.message]]))
  return {
    result: reply({ formErrors: error.issues?.length ? [] : [error.message], fieldErrors, hideFields }),
    error: error.issues?.[0]?.message ?? error.message,
  }
}
