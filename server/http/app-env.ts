import type { SessionUser } from '#server/features/auth/auth.service.ts'

/** What every request carries through the Hono middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string
    clientIp: string
    cspNonce: string
    user: SessionUser | null
  }
}
