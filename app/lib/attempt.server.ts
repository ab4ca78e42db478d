import { AppError } from '#common/errors.ts'

/**
 * Runs a service call for an action: a broken rule (AppError) comes back as a value the action
 * shows on its form; anything else is a real failure and propagates to the error boundary.
 */
export async function attempt<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: AppError }> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error }
    throw error
  }
}
