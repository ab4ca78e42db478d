import type { Credential, SessionUser } from '#server/features/auth/session.service.ts'
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
    /** A public page request the page cache had no page for: the renderer's answer may be kept (page-cache.ts). */
    pageCacheMiss: PageCacheMiss | undefined
  }
}
