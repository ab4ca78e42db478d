import type { Credential, SessionUser } from '#server/features/auth/session.service.ts'
import type { ViewAsEnded } from './page-context.ts'
import type { PageCacheMiss } from './page-cache.ts'
import type { Refusal, RequestVerdict } from './request-guard.ts'

/** What every request carries through the Hono middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string
    /** The answer carries X-Request-Id already (a kept page's ready-made headers). */
    requestIdSent: boolean | undefined
    clientIp: string
    cspNonce: string
    /** The request body, read once within its size limit (body-limit.ts); unset without one. */
    body: Uint8Array<ArrayBuffer> | undefined
    /** What the request guard found wrong with the address or body, refused once the caller is known. */
    verdict: RequestVerdict | undefined
    /** A page body that is refused when its action reads it (request-guard.ts). */
    refusedBody: { refusal: Refusal; read: boolean } | undefined
    credential: Credential | null
    user: SessionUser | null
    /** The Set-Cookie values the session's resolution answers with (a refreshed or cleared session cookie). */
    sessionCookies: string[] | undefined
    /** The request's credential is valid but its account is suspended (docs/decisions/062): `user` is null. */
    accountSuspended: boolean | undefined
    /** The request's credential is valid but its account waits for its erasure on this day (docs/decisions/065): `user` is null. */
    accountDeletion: Date | undefined
    /** This request found an admin's view as a member over and ended it (docs/decisions/064): the page says so. */
    viewAsEnded: ViewAsEnded | undefined
    /** A public page request the page cache had no page for: the renderer's answer may be kept (page-cache.ts). */
    pageCacheMiss: PageCacheMiss | undefined
  }
}
