import type { AppLoadContext } from 'react-router'
import { AppError } from '#common/errors.ts'

export type PageRead<T> = { ok: true; value: T } | { ok: false; message: string }

/**
 * Reads a page's data. A failure does not crash the page: it becomes the message of the page's
 * error toast ('Error fetching users', 'Error loading billing page') — a broken rule's own
 * message, or the given fallback for an unexpected failure (a database outage), logged with its cause.
 */
export async function readForPage<T>(
  context: Pick<AppLoadContext, 'services'>,
  run: () => Promise<T>,
  fallback: string,
): Promise<PageRead<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message }
    context.services.logger.error({ err: error }, fallback)
    return { ok: false, message: fallback }
  }
}
