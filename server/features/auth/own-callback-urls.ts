import { createMiddleware } from 'hono/factory'
import { sameSitePath } from '#common/same-site-path.ts'
import type { AppEnv } from '#server/http/app-env.ts'

/** The fields of Better Auth's social sign-in that say where the browser goes afterwards. */
const CALLBACK_FIELDS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL'] as const

/**
 * Better Auth's social sign-in accepts any `callbackURL` when the request carries no cookie, and
 * sends the browser there after Google: an open redirect through our own sign-in (ADR 017). We
 * let only paths on our site through, unchanged; anything else is refused with 403 before Better
 * Auth sees it.
 */
export function ownCallbackUrls() {
  return createMiddleware<AppEnv>(async (c, next) => {
    // Parsed from the bytes the body limit kept (server/http/body-limit.ts): Better Auth reads the request itself.
    const bytes = c.get('body')
    const body = bytes ? parseJson(Buffer.from(bytes).toString('utf8')) : null
    if (body && typeof body === 'object') {
      for (const field of CALLBACK_FIELDS) {
        const value = (body as Record<string, unknown>)[field]
        if (value !== undefined && sameSitePath(value) !== value) {
          return c.json({ message: `${field} must be a path on this site.`, code: 'FORBIDDEN' }, 403)
        }
      }
    }
    return next()
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
